import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { freePort } from '#local/dynamodb.ts';
import { smokeCommand } from '#local/smoke.ts';
import { REPO_ROOT } from '#local/stack.ts';
import { aTenantWith, latestCodeTo, type TestTenant } from '#test/support/auth.ts';
import { type Finished, runInProcess, runScript, TSX } from '#test/support/processes.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();

const CHECKS = [
  'health',
  'jwks',
  'openid-configuration',
  'discovery',
  'signup',
  'signup-verify',
  'login',
  'access-token',
  'refresh',
  'me',
  'logout',
  'refresh-after-logout',
];
const ORIGIN = 'https://shop.example';

let counter = 0;
const anEmail = () => `smoke-${process.pid}-${Date.now().toString(36)}-${++counter}@shop.test`;

const tenantFlags = (tenant: TestTenant, url = api.url) => [
  '--url',
  url,
  '--app',
  tenant.app,
  '--mid',
  tenant.mid,
  '--public-key',
  tenant.publicApiKey,
  '--origin',
  ORIGIN,
];
const smoke = (args: string[], env: Record<string, string> = {}) => runInProcess(smokeCommand, args, env);
/** As `npm run smoke` runs it: a process of its own, started by tsx. */
const spawnedSmoke = (args: string[], env: Record<string, string>) => runScript('local/smoke.ts', args, env);

/** The verdict line of each check, by name: `PASS`, `FAIL` or `SKIP`. */
function verdicts(stdout: string): Record<string, string> {
  return Object.fromEntries(
    [...stdout.matchAll(/^(PASS|FAIL|SKIP) {2}([a-z-]+)\b/gm)].map(([, verdict, name]) => [name, verdict]),
  );
}

/** No token of any kind: a JWT (access token) or a refresh token (`rt2.…`, `rt1.…` before it). */
function expectNoTokens(output: string) {
  expect(output).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
  expect(output).not.toMatch(/rt[12]\.usr_/);
}

// The command runs in this process, but in the first test and the stdin one: each start with tsx takes a second or
// more of CPU.
describe('npm run smoke', { timeout: 60_000 }, () => {
  it('passes every check against a fresh tenant, signing up through the inbox, and prints no secret', async () => {
    const tenant = await aTenantWith({ origins: [ORIGIN] });
    const email = anEmail();
    const password = `Smoke-check-${Date.now()}-pw`;
    const result = await spawnedSmoke([...tenantFlags(tenant), '--inbox', api.stack.sesUrl, '--email', email], {
      SMOKE_PASSWORD: password,
    });
    expect(result.stderr).toBe('');
    expect(verdicts(result.stdout), result.stdout).toEqual(Object.fromEntries(CHECKS.map((name) => [name, 'PASS'])));
    // In order, each with its request and its time.
    expect([...result.stdout.matchAll(/^PASS {2}([a-z-]+)/gm)].map((m) => m[1])).toEqual(CHECKS);
    expect(result.stdout).toMatch(/^PASS {2}health \(GET \/api\/v1\/health\) \d+ ms$/m);
    expect(result.stdout).toContain('12 passed, 0 failed, 0 skipped');
    expect(result.code).toBe(0);

    const code = await latestCodeTo(api.stack.sesUrl, email);
    for (const secret of [password, code]) expect(result.stdout).not.toContain(secret);
    expectNoTokens(result.stdout);
  });

  it('signs in as an existing user (the first admin) without signup, and never prints its password', async () => {
    const tenant = await aTenantWith({ origins: [ORIGIN] });
    const result = await smoke([
      ...tenantFlags(tenant),
      '--email',
      tenant.adminEmail,
      '--password',
      tenant.adminPassword,
    ]);
    expect(verdicts(result.stdout), result.stdout).toEqual({
      ...Object.fromEntries(CHECKS.map((name) => [name, 'PASS'])),
      signup: 'SKIP',
      'signup-verify': 'SKIP',
    });
    expect(result.stdout).toMatch(/^SKIP {2}signup: an existing user signs in/m);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(tenant.adminPassword);
    expectNoTokens(result.stdout);
  });

  it('with --code-from-stdin, signs up with the code given on stdin', async () => {
    const tenant = await aTenantWith({ origins: [ORIGIN] });
    const email = anEmail();
    const child = spawn(TSX, ['local/smoke.ts', ...tenantFlags(tenant), '--code-from-stdin', '--email', email], {
      cwd: REPO_ROOT,
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    let stdout = '';
    let code: string | undefined;
    child.stderr.setEncoding('utf8');
    let stderr = '';
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
    });
    // What an operator does: once signup has passed, read the mail and type its code.
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      if (code === undefined && /^PASS {2}signup /m.test(stdout)) {
        code = '';
        void latestCodeTo(api.stack.sesUrl, email).then(
          (mailed) => {
            code = mailed;
            child.stdin.end(`${mailed}\n`);
          },
          () => child.stdin.end(),
        );
      }
    });
    const exitCode = await new Promise<number | null>((done) => child.once('close', done));
    expect(verdicts(stdout), stdout).toEqual(Object.fromEntries(CHECKS.map((name) => [name, 'PASS'])));
    expect(stdout).toMatch(/^PASS {2}signup-verify \(POST \/api\/v1\/auth\/signup\/verify, code from stdin\)/m);
    expect(exitCode).toBe(0);
    // Not a terminal: no prompt, and the code is in neither stream.
    expect(stderr).toBe('');
    expect(code).toMatch(/^\d{6}$/);
    expect(stdout).not.toContain(code);
    expectNoTokens(stdout);
  });

  it('reads the metadata and keys at --issuer when the API is called at another URL (the web ACL: CloudFront)', async () => {
    const tenant = await aTenantWith({ origins: [ORIGIN] });
    // The same local API under a second name: --url is where it is called, --issuer the tokens' `iss`.
    const elsewhere = api.url.replace('//localhost:', '//127.0.0.1:');
    expect(elsewhere).not.toBe(api.url);
    const flags = [...tenantFlags(tenant, elsewhere), '--email', tenant.adminEmail];
    const env = { SMOKE_PASSWORD: tenant.adminPassword };
    const [withIssuer, without] = await Promise.all([smoke([...flags, '--issuer', api.url], env), smoke(flags, env)]);
    expect(verdicts(withIssuer.stdout), withIssuer.stdout).toMatchObject({
      jwks: 'PASS',
      'openid-configuration': 'PASS',
      login: 'PASS',
      'access-token': 'PASS',
      me: 'PASS',
    });
    expect(withIssuer.stdout).toContain(`PASS  openid-configuration (GET ${api.url}/.well-known/openid-configuration)`);
    expect(withIssuer.code).toBe(0);
    // Without it the issuer is taken to be --url, which the tokens do not name.
    expect(without.stdout).toContain(`issuer is ${api.url}, not the --url given (${elsewhere})`);
    expect(verdicts(without.stdout)['access-token']).toBe('FAIL');
    expect(without.code).toBe(1);
  });

  it('fails every check that needs an answer where nothing listens, skips the rest, and exits 1', async () => {
    const tenant = await aTenantWith({ origins: [ORIGIN] });
    const url = `http://localhost:${await freePort()}/api/v1`;
    const result = await smoke([...tenantFlags(tenant, url), '--email', tenant.adminEmail], {
      SMOKE_PASSWORD: tenant.adminPassword,
    });
    expect(verdicts(result.stdout), result.stdout).toEqual({
      health: 'FAIL',
      jwks: 'FAIL',
      'openid-configuration': 'FAIL',
      discovery: 'FAIL',
      signup: 'SKIP',
      'signup-verify': 'SKIP',
      login: 'FAIL',
      'access-token': 'SKIP',
      refresh: 'SKIP',
      me: 'SKIP',
      logout: 'SKIP',
      'refresh-after-logout': 'SKIP',
    });
    expect(result.stdout).toMatch(/^FAIL {2}health \(GET \/api\/v1\/health\) \d+ ms: no answer from localhost:\d+/m);
    expect(result.stdout).toContain('SKIP  refresh: needs login, which failed');
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain(tenant.adminPassword);
  });

  it('fails discovery and signup for a wrong --mid, skips what needs them, and exits 1', async () => {
    const tenant = await aTenantWith({ origins: [ORIGIN] });
    const other = await aTenantWith({ origins: [ORIGIN] });
    const flags = tenantFlags({ ...tenant, mid: other.mid });
    const result = await smoke([...flags, '--inbox', api.stack.sesUrl, '--email', anEmail()]);
    expect(verdicts(result.stdout), result.stdout).toMatchObject({
      health: 'PASS',
      jwks: 'PASS',
      'openid-configuration': 'PASS',
      discovery: 'FAIL',
      signup: 'FAIL',
      'signup-verify': 'SKIP',
      login: 'SKIP',
    });
    expect(result.stdout).toContain('FAIL  discovery (GET /api/v1/auth/discovery, Origin https://shop.example)');
    expect(result.stdout).toContain("the --public-key's tenant has another mid than --mid");
    expect(result.stdout).toMatch(/^FAIL {2}signup \(POST \/api\/v1\/auth\/signup\) \d+ ms: expected 201, got 40\d /m);
    expect(result.code).toBe(1);
  });

  it('refuses bad usage with exit code 2, naming the problem and printing the usage', async () => {
    const tenant = await aTenantWith({ origins: [ORIGIN] });
    const flags = tenantFlags(tenant);
    const cases: [string[], string][] = [
      [['--app', 'a'], '--url is required'],
      [[...flags, '--inbox', api.stack.sesUrl, '--bogus'], "Unknown option '--bogus'"],
      [[...flags.slice(0, 1), 'not a url', ...flags.slice(2), '--inbox', api.stack.sesUrl], '--url: must be'],
      [[...flags, '--inbox', api.stack.sesUrl, '--code-from-stdin', '--email', 'a@b.test'], 'give one'],
      [[...flags, '--code-from-stdin'], '--code-from-stdin needs --email'],
      [[...flags, '--email', 'a@b.test'], 'an existing user with --email and --password'],
    ];
    const results = await Promise.all(cases.map(([args]) => smoke(args)));
    results.forEach((result: Finished, i) => {
      const [args, message] = cases[i] as [string[], string];
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain('usage: npm run smoke -- --url URL');
      expect(result.stdout).toBe('');
    });

    const help = await smoke(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--code-from-stdin --email EMAIL');
  });
});
