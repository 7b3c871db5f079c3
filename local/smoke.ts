/**
 * The smoke test of a deployment, for operators after `cdk deploy` (and for
 * `npm test`, against the local stack): plain HTTP against a base URL, one
 * line per check, nothing read from DynamoDB. See USAGE for the flags.
 *
 *   npm run smoke -- --url https://id.example.com/api/v1 --app app_… --mid mid_… --public-key pk_… \
 *     --origin https://shop.example --email admin@shop.example        # SMOKE_PASSWORD in the environment
 *
 * Request and answer shapes are those of the route rows (functions/<area>/routes.ts) and openapi.json.
 * Passwords, codes and tokens are never printed: every line goes through `redact` as well.
 */
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import type { DiscoveryResponse, LoginMode, SignupMode } from '#shared/tenancy/schemas.ts';
import type { UserResponse } from '#shared/users/schemas.ts';
import { type Command, type CommandIo, helpAndExit, runAsMain, usageError } from './command-line.ts';

const USAGE = `usage: npm run smoke -- --url URL [--issuer URL] --app APP --mid MID --public-key KEY --origin ORIGIN
         (--inbox URL | --code-from-stdin --email EMAIL | --email EMAIL --password PASSWORD)

Checks a deployment over HTTP, one line each: PASS, FAIL, or SKIP (a check it
needs failed, or signup is not asked for). In order: health, jwks,
openid-configuration, discovery, signup, signup-verify, login, access-token,
refresh, me, logout, refresh-after-logout.
Exit code 0 when no check failed, 1 when one did, 2 for bad usage.

  --url URL             the identity base URL, with /api/v1 (the stack output ApiUrl;
                        locally http://localhost:3000/api/v1); the issuer must be this URL,
                        unless --issuer names it
  --issuer URL          the access tokens' issuer, when the API is called at another URL: with
                        the web ACL (waf=on) --url is the Web stack's IdentityUrl, with a
                        tenant's subdomain, and this is the ApiUrl. Its metadata and key set
                        are read there, as a resource server reads them
  --app APP --mid MID --public-key KEY
                        the tenant, as \`npm run tenant -- create\` printed it
  --origin ORIGIN       one of the tenant's allowed origins (discovery is asked as a browser would)

How the user signs in, one of:
  --inbox URL           sign up a new user, reading the mailed code from the SES v2 emulator's
                        inbox (locally http://localhost:8005). --email and --password are
                        optional: by default smoke-…@smoke.test and a random password
  --code-from-stdin --email EMAIL
                        sign up EMAIL, a mailbox you read that has no account in the tenant
                        (plus-addressing gives a new one each run: ops+smoke7@example.com),
                        then type the mailed code when asked (or pipe it in)
  --email EMAIL --password PASSWORD
                        no signup: sign in as an existing user without TOTP, e.g. the first
                        admin \`npm run tenant -- create\` printed (the tenant's login mode must
                        take passwords)

  --password can be left out for the SMOKE_PASSWORD environment variable, which keeps it out
  of the shell history and the process list. Passwords, codes and tokens are never printed.
  -h, --help            this text`;

/** A Lambda cold start with argon2 takes seconds; API Gateway gives up at 30 s anyway. */
const REQUEST_TIMEOUT_MS = 30_000;
/** How long the SES emulator is read for the signup code. */
const INBOX_WAIT_MS = 10_000;
/** The JWK Set is answered from a list at most a second old (README, Authentication in short). */
const JWKS_MAX_AGE_MS = 1_000;

interface Options {
  url: string;
  /** The tokens' `iss`, where resource servers read the metadata and keys: --issuer, or --url. */
  issuer: string;
  app: string;
  mid: string;
  publicKey: string;
  origin: string;
  /** Where the signup code comes from; undefined: no signup, an existing user signs in. */
  codeSource?: { inbox: string } | 'stdin';
  email: string;
  password: string;
}

function readOptions(io: CommandIo): Options {
  let values: Record<string, string | boolean | undefined>;
  try {
    const parsed = parseArgs({
      args: io.args,
      strict: true,
      allowPositionals: false,
      options: {
        url: { type: 'string' },
        issuer: { type: 'string' },
        app: { type: 'string' },
        mid: { type: 'string' },
        'public-key': { type: 'string' },
        origin: { type: 'string' },
        inbox: { type: 'string' },
        'code-from-stdin': { type: 'boolean', default: false },
        email: { type: 'string' },
        password: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    values = parsed.values;
  } catch (error) {
    return usageError(io, USAGE, error instanceof Error ? error.message : String(error));
  }
  if (values.help) helpAndExit(io, USAGE);
  const required = (flag: string): string => {
    const value = values[flag];
    if (typeof value !== 'string' || value.trim() === '') usageError(io, USAGE, `--${flag} is required`);
    return value.trim();
  };
  const url = httpUrl(io, '--url', required('url')).replace(/\/+$/, '');
  const issuer = typeof values.issuer === 'string' ? httpUrl(io, '--issuer', values.issuer).replace(/\/+$/, '') : url;
  const app = required('app');
  const mid = required('mid');
  const publicKey = required('public-key');
  const origin = required('origin');
  if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
    usageError(io, USAGE, '--origin: must be an origin (scheme://host[:port], no path or trailing slash)');
  }
  const email = typeof values.email === 'string' ? values.email.trim() : undefined;
  if (email !== undefined && !/^[^\s@]+@[^\s@]+$/.test(email))
    usageError(io, USAGE, '--email: must be an e-mail address');
  const password = typeof values.password === 'string' ? values.password : io.env.SMOKE_PASSWORD || undefined;
  const inbox = typeof values.inbox === 'string' ? httpUrl(io, '--inbox', values.inbox).replace(/\/+$/, '') : undefined;

  const tenant = { url, issuer, app, mid, publicKey, origin };
  if (inbox !== undefined && values['code-from-stdin']) {
    usageError(io, USAGE, '--inbox and --code-from-stdin are two ways to read the signup code: give one');
  }
  if (inbox !== undefined) {
    return { ...tenant, codeSource: { inbox }, email: email ?? aNewAddress(), password: password ?? aNewPassword() };
  }
  if (values['code-from-stdin']) {
    if (!email) usageError(io, USAGE, '--code-from-stdin needs --email: the mailbox you will read the code in');
    return { ...tenant, codeSource: 'stdin', email, password: password ?? aNewPassword() };
  }
  if (!email || !password) {
    usageError(
      io,
      USAGE,
      'say how the user signs in: --inbox, --code-from-stdin, or an existing user with --email and --password',
    );
  }
  return { ...tenant, email, password };
}

function httpUrl(io: CommandIo, flag: string, value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    usageError(io, USAGE, `${flag}: must be an http(s) URL without query or fragment`);
  }
  return value;
}

const aNewAddress = () => `smoke-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@smoke.test`;
// A letter and a digit (the password policy), and far too random to be a common password.
const aNewPassword = () => `Smoke-${randomBytes(18).toString('base64url')}-7`;

/** The run's report on stdout, a line at a time: no line carries a secret the run has seen. */
class Report {
  private readonly secrets = new Set<string>();
  private readonly io: CommandIo;

  constructor(io: CommandIo) {
    this.io = io;
  }

  /** A password, code or token: redacted from every line from now on. */
  secret(value: string) {
    if (value) this.secrets.add(value);
  }

  say(line: string) {
    let out = line;
    for (const secret of this.secrets) out = out.replaceAll(secret, '[redacted]');
    this.io.out(`${out}\n`);
  }
}

/** A check's verdict that the operator reads: thrown from a check, printed as its FAIL line. */
class Failed extends Error {}

interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON, undefined when the body is empty or not JSON. Never printed: it may carry tokens. */
  body: unknown;
}

async function send(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      redirect: 'manual',
    });
  } catch (error) {
    throw new Failed(`no answer from ${new URL(url).host}: ${networkReason(error)}`);
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body };
}

function networkReason(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `nothing within ${REQUEST_TIMEOUT_MS / 1000} s`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** Fails unless the answer has this status; a problem+json answer is named by its code and detail. */
function expectStatus(answer: Answer, status: number, hints: Record<string, string> = {}): void {
  if (answer.status === status) return;
  const problem = answer.body as { code?: unknown; detail?: unknown } | undefined;
  const code = typeof problem?.code === 'string' ? problem.code : undefined;
  const detail = typeof problem?.detail === 'string' ? ` (${problem.detail})` : '';
  const what = code
    ? `${code}${detail}`
    : `a ${answer.headers.get('content-type') ?? 'body without content type'} answer`;
  const hint = code && hints[code] ? `: ${hints[code]}` : '';
  throw new Failed(`expected ${status}, got ${answer.status} ${what}${hint}`);
}

/** The value at a dotted path of a parsed body; undefined where the path leads nowhere. */
function valueAt(body: unknown, path: string): unknown {
  let at = body;
  for (const key of path.split('.')) {
    at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  }
  return at;
}

/** A field the check relies on, by its dotted path in the body; fails naming the path when it is not a string. */
function stringAt(body: unknown, path: string): string {
  const value = valueAt(body, path);
  if (typeof value !== 'string' || value === '') throw new Failed(`the answer has no ${path}`);
  return value;
}

const TENANT_HINTS = {
  TENANT_NOT_FOUND: 'no tenant has this --app and --mid',
  TENANT_MISMATCH: '--app and --mid name different tenants',
  ORIGIN_NOT_ALLOWED: "--origin is not one of the tenant's allowed origins",
};

interface Tokens {
  accessToken: string;
  refreshToken: string;
  user: UserResponse;
}

/** The `data` of a tokens envelope (TokensEnvelope, LoginResponse): its tokens become secrets at once. */
function tokensOf(answer: Answer, report: Report): Tokens {
  report.secret(stringAt(answer.body, 'data.accessToken'));
  report.secret(stringAt(answer.body, 'data.refreshToken'));
  if (stringAt(answer.body, 'data.tokenType') !== 'Bearer') throw new Failed('data.tokenType is not "Bearer"');
  stringAt(answer.body, 'data.user.id');
  return valueAt(answer.body, 'data') as Tokens;
}

function expectUser(user: UserResponse, email: string): void {
  if (user.email !== email.toLowerCase()) throw new Failed(`the user's e-mail is not ${email.toLowerCase()}`);
  if (user.status !== 'ACTIVE') throw new Failed(`the user's status is ${user.status}, not ACTIVE`);
}

/** The latest 6-digit code the SES emulator holds for an address (as test/support/auth.ts reads it). */
async function codeFromInbox(inbox: string, email: string): Promise<string> {
  const deadline = Date.now() + INBOX_WAIT_MS;
  let mailsToAddress = 0;
  for (;;) {
    // `/store` is the emulator's JSON of every mail it was given.
    const answer = await send(`${inbox}/store`);
    if (answer.status !== 200) throw new Failed(`the inbox answered ${answer.status} at ${inbox}/store`);
    const emails = (valueAt(answer.body, 'emails') ?? []) as {
      destination?: { to?: string[] | string };
      body?: { text?: string };
    }[];
    const mails = emails.filter((mail) =>
      [mail.destination?.to ?? []].flat().some((to) => to.toLowerCase().includes(email.toLowerCase())),
    );
    mailsToAddress = mails.length;
    const code = /^\s*(\d{6})\s*$/m.exec(mails.at(-1)?.body?.text ?? '')?.[1];
    if (code) return code;
    if (Date.now() > deadline) break;
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Failed(
    `no code mailed to ${email} within ${INBOX_WAIT_MS / 1000} s (${mailsToAddress} mails to it in the inbox)`,
  );
}

/** One line from the process's stdin, asked for on a terminal (on stderr: stdout is the report). */
async function codeFromStdin(io: CommandIo, email: string): Promise<string> {
  if (process.stdin.isTTY) io.err(`The 6-digit code mailed to ${email}: `);
  const lines = createInterface({ input: process.stdin, terminal: false });
  try {
    for await (const line of lines) {
      if (line.trim()) return line.trim();
    }
  } finally {
    lines.close();
    process.stdin.destroy();
  }
  throw new Failed('stdin ended before a code was given');
}

type Verdict = 'PASS' | 'FAIL' | 'SKIP';

/** Runs the checks in order, each at most once, and prints each verdict as it comes. */
function checkRunner(report: Report) {
  const verdicts = new Map<string, Verdict>();
  return {
    verdicts,
    skip(name: string, reason: string) {
      verdicts.set(name, 'SKIP');
      report.say(`SKIP  ${name}: ${reason}`);
    },
    /** `needs`: the checks whose results this one uses; when one did not pass, this one is skipped. */
    async run(name: string, request: string, needs: string[], check: () => Promise<string | undefined>) {
      const missing = needs.find((need) => verdicts.get(need) !== 'PASS');
      if (missing) {
        const why = verdicts.get(missing) === 'FAIL' ? 'failed' : 'was skipped';
        this.skip(name, `needs ${missing}, which ${why}`);
        return;
      }
      const started = performance.now();
      const elapsed = () => `${Math.round(performance.now() - started)} ms`;
      try {
        const note = await check();
        verdicts.set(name, 'PASS');
        report.say(`PASS  ${name} (${request}) ${elapsed()}${note ? `: ${note}` : ''}`);
      } catch (error) {
        verdicts.set(name, 'FAIL');
        const reason = error instanceof Failed ? error.message : `unexpected error: ${String(error)}`;
        report.say(`FAIL  ${name} (${request}) ${elapsed()}: ${reason}`);
      }
    },
  };
}

export const smokeCommand: Command = async (io) => {
  const options = readOptions(io);
  const { url, issuer, app, mid, origin, email, password } = options;
  const report = new Report(io);
  report.secret(password);
  const basePath = new URL(url).pathname.replace(/\/$/, '');
  const label = (method: string, path: string) => `${method} ${basePath}${path}`;
  const tenantHeaders = { 'x-app-id': app, 'x-mid-key': mid };
  const checks = checkRunner(report);

  report.say(`Smoke test of ${url}, tenant ${app}, as ${email}`);

  await checks.run('health', label('GET', '/health'), [], async () => {
    const answer = await send(`${url}/health`);
    expectStatus(answer, 200);
    if (valueAt(answer.body, 'status') !== 'ok') throw new Failed('expected { "status": "ok" }');
    return undefined;
  });

  // The issuer's metadata and keys are read at the issuer, as a resource server reads them.
  const issuerLabel = (path: string) => (issuer === url ? label('GET', path) : `GET ${issuer}${path}`);
  await checks.run('jwks', issuerLabel('/.well-known/jwks.json'), [], async () => {
    const answer = await send(`${issuer}/.well-known/jwks.json`);
    expectStatus(answer, 200);
    const keys = valueAt(answer.body, 'keys') as Record<string, unknown>[] | undefined;
    if (!Array.isArray(keys)) throw new Failed('the answer has no keys array');
    keys.forEach((key, i) => {
      for (const member of ['kid', 'kty', 'alg']) {
        if (typeof key[member] !== 'string') throw new Failed(`key ${i} has no ${member}`);
      }
      if ('d' in key) throw new Failed(`key ${key.kid} publishes its private part (d)`);
    });
    // Keys are made at the first signing (README), so a deployment nobody signed in to yet has none:
    // not a fault by itself. access-token, after login, fails when the set is still empty then.
    if (keys.length === 0) return 'no key yet (made at the first sign-in; access-token checks it is published)';
    return `${keys.length} key${keys.length === 1 ? '' : 's'}`;
  });

  await checks.run('openid-configuration', issuerLabel('/.well-known/openid-configuration'), [], async () => {
    const answer = await send(`${issuer}/.well-known/openid-configuration`);
    expectStatus(answer, 200);
    const named = stringAt(answer.body, 'issuer');
    const jwksUri = stringAt(answer.body, 'jwks_uri');
    // Tokens carry `iss` = the issuer, and resource servers fetch keys from jwks_uri: both must be this URL's.
    const given = issuer === url ? `the --url given (${url})` : `the --issuer given (${issuer})`;
    if (named !== issuer) throw new Failed(`issuer is ${named}, not ${given}`);
    if (jwksUri !== `${issuer}/.well-known/jwks.json`) {
      throw new Failed(`jwks_uri is ${jwksUri}, not under the issuer`);
    }
    return undefined;
  });

  let loginMode: LoginMode | undefined;
  let signupMode: SignupMode | undefined;
  const discoveryQuery = `/auth/discovery?clientId=${encodeURIComponent(options.publicKey)}`;
  await checks.run('discovery', `${label('GET', '/auth/discovery')}, Origin ${origin}`, [], async () => {
    const answer = await send(`${url}${discoveryQuery}`, { headers: { origin } });
    expectStatus(answer, 200, {
      TENANT_NOT_FOUND: 'no tenant has this --public-key',
      ORIGIN_NOT_ALLOWED: TENANT_HINTS.ORIGIN_NOT_ALLOWED,
    });
    const tenant = answer.body as DiscoveryResponse;
    if (stringAt(tenant, 'app') !== app) throw new Failed("the --public-key's tenant has another app than --app");
    if (stringAt(tenant, 'mid') !== mid) throw new Failed("the --public-key's tenant has another mid than --mid");
    ({ loginMode, signupMode } = tenant);
    return `"${tenant.name}" (${tenant.subdomain}), login ${loginMode}, signup ${signupMode}`;
  });

  let challengeId: string | undefined;
  let signedUp: Tokens | undefined;
  const { codeSource } = options;
  if (codeSource === undefined) {
    const reason = 'an existing user signs in (no --inbox or --code-from-stdin)';
    checks.skip('signup', reason);
    checks.skip('signup-verify', reason);
  } else {
    await checks.run('signup', label('POST', '/auth/signup'), [], async () => {
      const answer = await send(`${url}/auth/signup`, {
        method: 'POST',
        headers: tenantHeaders,
        body: { app, mid, email, password, firstName: 'Smoke', lastName: 'Test' },
      });
      expectStatus(answer, 201, {
        ...TENANT_HINTS,
        SIGNUP_NOT_ALLOWED: `the tenant's signup is ${signupMode ?? 'not OPEN'}: sign in as an existing user (--email, --password)`,
      });
      challengeId = stringAt(answer.body, 'data.challengeId');
      return `a code is mailed to ${email}`;
    });
    const from = codeSource === 'stdin' ? 'code from stdin' : 'code from the inbox';
    await checks.run('signup-verify', `${label('POST', '/auth/signup/verify')}, ${from}`, ['signup'], async () => {
      const code =
        codeSource === 'stdin' ? await codeFromStdin(io, email) : await codeFromInbox(codeSource.inbox, email);
      report.secret(code);
      const answer = await send(`${url}/auth/signup/verify`, {
        method: 'POST',
        headers: tenantHeaders,
        body: { challengeId, code },
      });
      expectStatus(answer, 200);
      signedUp = tokensOf(answer, report);
      expectUser(signedUp.user, email);
      if (signedUp.user.emailStatus !== 'VALIDATED') throw new Failed('the e-mail is not VALIDATED after its code');
      return undefined;
    });
  }

  let session: Tokens | undefined;
  await checks.run('login', label('POST', '/auth/login'), codeSource ? ['signup-verify'] : [], async () => {
    const answer = await send(`${url}/auth/login`, {
      method: 'POST',
      headers: tenantHeaders,
      body: { email, password },
    });
    expectStatus(answer, 200, {
      ...TENANT_HINTS,
      LOGIN_MODE_NOT_ALLOWED: `the tenant's login mode (${loginMode ?? 'see discovery'}) takes no password`,
      INVALID_CREDENTIALS: 'check --email and --password',
    });
    if (valueAt(answer.body, 'data.challengeRequired') === true) {
      const step = valueAt(answer.body, 'data.challengeType');
      throw new Failed(`asked for a ${step} step: sign in as a user without TOTP`);
    }
    session = tokensOf(answer, report);
    expectUser(session.user, email);
    if (signedUp && session.user.id !== signedUp.user.id) throw new Failed('logged in as another user than signed up');
    return undefined;
  });

  await checks.run(
    'access-token',
    `ES256, verified with ${issuerLabel('/.well-known/jwks.json')}`,
    ['login'],
    async () => {
      const token = (session as Tokens).accessToken;
      const { kid } = decodeProtectedHeader(token);
      let keys = await publishedKeys(issuer);
      // A key made at this login may be newer than the list the JWK Set was answered from.
      if (!keys.some((key) => key.kid === kid)) {
        await new Promise((done) => setTimeout(done, JWKS_MAX_AGE_MS + 100));
        keys = await publishedKeys(issuer);
      }
      if (keys.length === 0) throw new Failed('expected at least one key, got 0');
      if (!keys.some((key) => key.kid === kid)) throw new Failed(`the token's key ${kid} is not in the JWK Set`);
      try {
        // As a resource server would: the signature, the issuer and the audience (the tenant's app).
        const { payload } = await jwtVerify(token, createLocalJWKSet({ keys }), {
          issuer,
          audience: app,
          algorithms: ['ES256'],
        });
        if (payload.sub !== session?.user.id) throw new Failed("sub is not the user's id");
      } catch (error) {
        if (error instanceof Failed) throw error;
        throw new Failed(`does not verify: ${error instanceof Error ? error.message : String(error)}`);
      }
      return undefined;
    },
  );

  await checks.run('refresh', label('POST', '/auth/refresh'), ['login'], async () => {
    const before = session as Tokens;
    const answer = await send(`${url}/auth/refresh`, {
      method: 'POST',
      headers: tenantHeaders,
      body: { refreshToken: before.refreshToken },
    });
    expectStatus(answer, 200);
    session = tokensOf(answer, report);
    if (session.refreshToken === before.refreshToken) throw new Failed('the refresh token was not rotated');
    if (session.user.id !== before.user.id) throw new Failed('the new tokens are for another user');
    return undefined;
  });

  // From here on the session's latest tokens: the refreshed ones when refresh passed.
  await checks.run('me', label('GET', '/users/me'), ['login'], async () => {
    const answer = await send(`${url}/users/me`, {
      headers: { ...tenantHeaders, authorization: `Bearer ${(session as Tokens).accessToken}` },
    });
    expectStatus(answer, 200);
    const me = answer.body as UserResponse;
    if (stringAt(me, 'id') !== session?.user.id) throw new Failed('answers another user than the one logged in');
    expectUser(me, email);
    return undefined;
  });

  await checks.run('logout', label('DELETE', '/auth/logout'), ['login'], async () => {
    const answer = await send(`${url}/auth/logout`, {
      method: 'DELETE',
      headers: { ...tenantHeaders, authorization: `Bearer ${(session as Tokens).accessToken}` },
    });
    expectStatus(answer, 204);
    return undefined;
  });

  await checks.run('refresh-after-logout', label('POST', '/auth/refresh'), ['logout'], async () => {
    const answer = await send(`${url}/auth/refresh`, {
      method: 'POST',
      headers: tenantHeaders,
      body: { refreshToken: (session as Tokens).refreshToken },
    });
    if (answer.status === 200) throw new Failed('the refresh token still works after logout');
    expectStatus(answer, 401);
    const code = valueAt(answer.body, 'code');
    if (code !== 'REFRESH_TOKEN_INVALID') {
      throw new Failed(`expected 401 REFRESH_TOKEN_INVALID, got 401 ${code ?? 'without a code'}`);
    }
    return 'refused: 401 REFRESH_TOKEN_INVALID';
  });

  const counts = { PASS: 0, FAIL: 0, SKIP: 0 };
  for (const verdict of checks.verdicts.values()) counts[verdict]++;
  report.say(`${counts.PASS} passed, ${counts.FAIL} failed, ${counts.SKIP} skipped`);
  return counts.FAIL > 0 ? 1 : 0;
};

/** The JWK Set as published now. */
async function publishedKeys(url: string): Promise<{ kid?: string; kty: string }[]> {
  const answer = await send(`${url}/.well-known/jwks.json`);
  expectStatus(answer, 200);
  const keys = valueAt(answer.body, 'keys');
  if (!Array.isArray(keys)) throw new Failed('the JWK Set has no keys array');
  return keys;
}

await runAsMain(import.meta.url, smokeCommand);
