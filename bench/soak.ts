// npm run soak (not part of npm test): SOAK_CLIENTS clients (default 50) for SOAK_SECONDS (default 60)
// against the local stack in memory, each looping: password login, a few GET /users/me, a refresh
// (rotation) and, for every fifth client (an ADMIN), GET /users, GET /users/{id} and GET /roles.
// Every answer is counted by route, status and code; any 5xx, unexpected status, malformed body or
// network failure is an error (a 429 is counted apart, as deliberate). Afterwards it checks that every
// user and session is intact: the store holds exactly the sessions, rotations and logins the clients
// made, nothing orphaned; GET /users lists everyone; each client's last refresh token rotates once,
// answers the same successor within the grace and, used after it, ends its session; each user can still log in. Prints a summary; exits 1 on any error or failed check.
//
// The stack runs in a child process (the same file, SOAK_ROLE=stack), so that the 50 clients do not
// share its event loop: the gateway and the SES emulator listen on 127.0.0.1 only; DynamoDB Local runs
// in memory on a free port (its JVM has no option to pick an interface). The child stops the stack at
// the end, on Ctrl-C, and when this process dies (its IPC channel closes).
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Server } from 'node:http';
import { BatchWriteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { BASE_PATH, identityRouteList } from '#functions/routes.ts';
import { type DynamoDbLocal, ensureTable, startDynamoDbLocal } from '#local/dynamodb.ts';
import { createGateway } from '#local/gateway.ts';
import { startSesEmulator } from '#local/ses.ts';
import { REPO_ROOT } from '#local/stack.ts';
import { hashPassword, PRODUCTION_ARGON2 } from '#shared/auth/passwords.ts';
import { type Deps, makeDeps } from '#shared/deps.ts';
import { newId } from '#shared/random.ts';
import { keys } from '#shared/store/keys.ts';
import { newUserItems } from '#shared/store/user-repo.ts';
import { createTenant } from '#shared/tenancy/create-tenant.ts';
import { REFRESH_REUSE_GRACE_MS } from '#shared/tokens/refresh-token.ts';
import { newUser } from '#shared/users/new-user.ts';
import { percentile } from './limits.ts';

const log = (line = '') => process.stdout.write(`${line}\n`);

/**
 * The auth rate limit (per tenant and IP, a minute). Every client here comes from 127.0.0.1, so at
 * the default of 120 almost every login would be refused after the first seconds and the soak would
 * measure the limiter, not the service: in production these would be 50 devices with 50 addresses.
 * So it is off by default (the limiter has its own tests, test/http/auth/rate-limit.test.ts). Set
 * SOAK_AUTH_RATE_LIMIT=120 to soak with it on: the clients then honour Retry-After, and the 429s are
 * counted apart as deliberate, never as errors.
 */
const AUTH_RATE_LIMIT = Number(process.env.SOAK_AUTH_RATE_LIMIT ?? 1_000_000_000);

// --- the stack, in the child process ---------------------------------------------------------------

interface StackReady {
  type: 'ready';
  apiUrl: string;
  dynamoEndpoint: string;
  tableName: string;
}

function listenOnLoopback(server: Server): Promise<number> {
  return new Promise((done, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      done(typeof address === 'object' && address ? address.port : 0);
    });
  });
}

/**
 * The identity service as local/stack.ts wires it (its startLocalStack listens on every interface,
 * so the few lines are repeated here with 127.0.0.1), minus the plant store.
 */
async function runStack(): Promise<void> {
  const tableName = 'identity-soak';
  const [dynamo, ses] = await Promise.all([startDynamoDbLocal(), startSesEmulator(0)]);
  const gateway = createGateway({ routes: identityRouteList, basePath: BASE_PATH, root: REPO_ROOT });
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      gateway.closeAllConnections();
      await Promise.all([
        new Promise<void>((done) => gateway.close(() => done())),
        ses.close(),
        (dynamo as DynamoDbLocal).stop(),
      ]);
      process.exit(0);
    })();
    return stopping;
  };
  // Ctrl-C reaches the whole process group; a parent that dies closes the IPC channel.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
  process.on('message', (message: { type: string }) => {
    if (message.type === 'stop') void stop();
  });

  await ensureTable(dynamo.endpoint, tableName);
  const port = await listenOnLoopback(gateway);
  const apiUrl = `http://127.0.0.1:${port}${BASE_PATH}`;
  // The handlers run in this process and read their configuration from the environment, as on Lambda.
  Object.assign(process.env, {
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    SES_ENDPOINT: ses.url,
    AWS_REGION: 'us-east-1',
    ISSUER_URL: apiUrl,
    SENDER_EMAIL: 'no-reply@localhost.test',
    AUTH_RATE_LIMIT_PER_MINUTE: String(AUTH_RATE_LIMIT),
    AUTH_ANSWER_FLOOR_MS: '0',
    LOCAL_SECRETS_KEY: process.env.SOAK_SECRETS_KEY,
  });
  process.send?.({ type: 'ready', apiUrl, dynamoEndpoint: dynamo.endpoint, tableName } satisfies StackReady);
}

// --- the soak, in the parent ---------------------------------------------------------------------

const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 50);
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const ME_PER_LOOP = 3;
const ADMIN_EVERY = 5;
const PASSWORD = 'Soak-password-42';
const REQUEST_TIMEOUT_MS = 30_000;

type Route = 'login' | 'me' | 'refresh' | 'listUsers' | 'getUser' | 'listRoles';

interface Answer {
  status: number;
  body: any;
  retryAfter: number | null;
}

interface Client {
  index: number;
  userId: string;
  email: string;
  admin: boolean;
  logins: number;
  refreshes: number;
  lastRefreshToken: string | null;
}

/** Answers by route and `status code`, latencies by route, and the errors (with a few samples). */
const counts = new Map<string, number>();
const latencies = new Map<Route, number[]>();
const errorSamples: string[] = [];
let errors = 0;
let deliberate = 0;
const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

function error(route: Route | 'check', what: string) {
  errors++;
  count(`${route} ERROR`);
  if (errorSamples.length < 20) errorSamples.push(`${route}: ${what}`);
}

async function main(): Promise<number> {
  const startedAt = Date.now();
  const elapsed = () => `${((Date.now() - startedAt) / 1000).toFixed(1)} s`;
  const secretsKey = randomBytes(32).toString('base64');
  const child: ChildProcess = fork(import.meta.filename, [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      SOAK_ROLE: 'stack',
      SOAK_SECRETS_KEY: secretsKey,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      // The soak counts answers itself: the stack says only what went wrong (its error lines, which a failed
      // soak shows), not a line (with its metrics) per request.
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  // The stack's own log (handler errors are logged there): its last lines are shown when the soak fails.
  const stackLog: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      stackLog.push(...chunk.split('\n').filter(Boolean));
      stackLog.splice(0, Math.max(0, stackLog.length - 40));
    });
  }
  const childExited = new Promise<void>((done) => child.once('exit', () => done()));
  const stopChild = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (child.connected) child.send({ type: 'stop' });
    else child.kill('SIGTERM');
    await Promise.race([childExited, new Promise((done) => setTimeout(done, 10_000).unref())]);
    // Last resort, if the stack hangs (DynamoDB Local's JVM may then outlive it).
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
  const aborted = new AbortController();
  // Every request in flight and every back-off listens to it: one listener per client or more, by design.
  setMaxListeners(0, aborted.signal);
  let interrupted = false;
  const interrupt = () => {
    if (interrupted) return;
    interrupted = true;
    log('\ninterrupted: stopping the clients and the stack…');
    aborted.abort();
    void stopChild().then(() => process.exit(130));
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);

  try {
    const stack = await new Promise<StackReady>((done, reject) => {
      child.once('message', (message: StackReady) => done(message));
      child.once('exit', (code) =>
        reject(new Error(`the stack exited (${code}) before it was ready:\n${stackLog.join('\n')}`)),
      );
    });
    log(`local stack up in ${elapsed()}: ${stack.apiUrl} (127.0.0.1 only), DynamoDB Local in memory`);
    const deps: Deps = makeDeps({
      TABLE_NAME: stack.tableName,
      DYNAMODB_ENDPOINT: stack.dynamoEndpoint,
      AWS_REGION: 'us-east-1',
      ISSUER_URL: stack.apiUrl,
      LOCAL_SECRETS_KEY: secretsKey,
    });

    // --- one tenant, its SUPER_ADMIN, one user per client (one argon2 hash for all), every fifth an ADMIN ---
    const created = await createTenant(deps, {
      name: 'Soak',
      adminEmail: 'owner@soak.test',
      origins: ['https://soak.test'],
    });
    const tenant = { app: created.app, mid: created.mid };
    const headers = { 'content-type': 'application/json', 'x-app-id': tenant.app, 'x-mid-key': tenant.mid };
    const passwordHash = await hashPassword(PRODUCTION_ARGON2, PASSWORD);
    const template = await newUser(deps, tenant, { email: 'x@soak.test', status: 'ACTIVE', emailStatus: 'VALIDATED' });
    const clients: Client[] = Array.from({ length: CLIENTS }, (_, index) => ({
      index,
      userId: newId(deps.random, 'usr'),
      email: `client${index}@soak.test`,
      admin: index % ADMIN_EVERY === 0,
      logins: 0,
      refreshes: 0,
      lastRefreshToken: null,
    }));
    const seedItems = clients.flatMap((c) => {
      const { profile, emailClaim } = newUserItems(tenant, { ...template, id: c.userId, email: c.email, passwordHash });
      return [profile, emailClaim];
    });
    for (let i = 0; i < seedItems.length; i += 25) {
      let pending: unknown[] = seedItems.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
      while (pending.length > 0) {
        const result = await deps.store.doc.send(
          new BatchWriteCommand({ RequestItems: { [stack.tableName]: pending as never } }),
        );
        pending = result.UnprocessedItems?.[stack.tableName] ?? [];
      }
    }

    // --- HTTP, counted ---------------------------------------------------------------------------
    async function request(route: Route, method: string, path: string, extra: Record<string, string>, body?: unknown) {
      const started = performance.now();
      try {
        const res = await fetch(`${stack.apiUrl}${path}`, {
          method,
          headers: { ...headers, ...extra },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.any([aborted.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
        });
        const text = await res.text();
        const answer: Answer = {
          status: res.status,
          body: text ? JSON.parse(text) : undefined,
          retryAfter: res.headers.has('retry-after') ? Number(res.headers.get('retry-after')) : null,
        };
        (latencies.get(route) ?? latencies.set(route, []).get(route))?.push(performance.now() - started);
        count(`${route} ${answer.status}${answer.body?.code ? ` ${answer.body.code}` : ''}`);
        return answer;
      } catch (cause) {
        if (aborted.signal.aborted) return null;
        error(route, `${method} ${path}: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : cause}`);
        return null;
      }
    }

    /** The answer when it is the expected status and passes `valid`; null (and counted) otherwise. */
    function expectAnswer(route: Route, answer: Answer | null, status: number, valid: (body: any) => boolean) {
      if (!answer) return null;
      if (answer.status === 429) {
        deliberate++;
        return null;
      }
      if (answer.status !== status) {
        error(route, `${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
        return null;
      }
      if (!valid(answer.body)) {
        error(route, `unexpected body ${JSON.stringify(answer.body).slice(0, 200)}`);
        return null;
      }
      return answer;
    }

    const sleep = (ms: number) =>
      new Promise<void>((done) => {
        const onAbort = () => {
          clearTimeout(timer);
          done();
        };
        const timer = setTimeout(() => {
          aborted.signal.removeEventListener('abort', onAbort);
          done();
        }, ms);
        aborted.signal.addEventListener('abort', onAbort, { once: true });
      });
    /** After a 429: wait as told (at most 5 s, never past the end). */
    const backOff = (answer: Answer | null, deadline: number) =>
      sleep(Math.min((answer?.retryAfter ?? 1) * 1000, 5_000, Math.max(0, deadline - Date.now())));

    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const totalUsers = CLIENTS + 1;

    // The owner makes every fifth client an ADMIN, through the API.
    const owner = expectAnswer(
      'login',
      await request('login', 'POST', '/auth/login', {}, { email: created.adminEmail, password: created.adminPassword }),
      200,
      (b) => typeof b?.data?.accessToken === 'string',
    );
    if (!owner) throw new Error('the tenant owner could not log in');
    const roles = await request('listRoles', 'GET', '/roles', bearer(owner.body.data.accessToken));
    const adminRoleId = (roles?.body as { id: string; name: string }[] | undefined)?.find(
      (r) => r.name === 'ADMIN',
    )?.id;
    if (!adminRoleId) throw new Error('no ADMIN role');
    for (const c of clients.filter((c) => c.admin)) {
      const res = await fetch(`${stack.apiUrl}/roles/assign`, {
        method: 'POST',
        headers: { ...headers, ...bearer(owner.body.data.accessToken) },
        body: JSON.stringify({ userId: c.userId, roleId: adminRoleId }),
      });
      if (res.status !== 204) throw new Error(`assigning ADMIN: ${res.status} ${await res.text()}`);
    }
    log(
      `tenant with ${CLIENTS} users (${clients.filter((c) => c.admin).length} ADMIN) and its SUPER_ADMIN ready in ${elapsed()}`,
    );

    // --- the clients -----------------------------------------------------------------------------
    async function runClient(c: Client, deadline: number) {
      while (Date.now() < deadline && !aborted.signal.aborted) {
        const loginAnswer = await request('login', 'POST', '/auth/login', {}, { email: c.email, password: PASSWORD });
        const loggedIn = expectAnswer(
          'login',
          loginAnswer,
          200,
          (b) => b?.data?.user?.id === c.userId && typeof b.data.refreshToken === 'string',
        );
        if (!loggedIn) {
          if (loginAnswer?.status === 429) await backOff(loginAnswer, deadline);
          continue;
        }
        c.logins++;
        let tokens = loggedIn.body.data as { accessToken: string; refreshToken: string };
        c.lastRefreshToken = tokens.refreshToken;
        for (let i = 0; i < ME_PER_LOOP; i++) {
          // Another user's profile here would be a session mix-up: an error like any other.
          expectAnswer('me', await request('me', 'GET', '/users/me', bearer(tokens.accessToken)), 200, (b) => {
            return b?.id === c.userId && b.email === c.email;
          });
        }
        const refreshed = expectAnswer(
          'refresh',
          await request('refresh', 'POST', '/auth/refresh', {}, { refreshToken: tokens.refreshToken }),
          200,
          (b) => b?.data?.user?.id === c.userId && typeof b.data.refreshToken === 'string',
        );
        if (refreshed) {
          c.refreshes++;
          tokens = refreshed.body.data;
          c.lastRefreshToken = tokens.refreshToken;
          expectAnswer('me', await request('me', 'GET', '/users/me', bearer(tokens.accessToken)), 200, (b) => {
            return b?.id === c.userId;
          });
        }
        if (c.admin) {
          const auth = bearer(tokens.accessToken);
          expectAnswer('listUsers', await request('listUsers', 'GET', '/users', auth), 200, (b) => {
            return Array.isArray(b) && b.length === totalUsers;
          });
          const other = clients[Math.floor(Math.random() * clients.length)] as Client;
          expectAnswer('getUser', await request('getUser', 'GET', `/users/${other.userId}`, auth), 200, (b) => {
            return b?.id === other.userId && b.email === other.email;
          });
          expectAnswer('listRoles', await request('listRoles', 'GET', '/roles', auth), 200, (b) => {
            return Array.isArray(b) && b.some((r: { id: string }) => r.id === adminRoleId);
          });
        }
      }
    }

    log(`${CLIENTS} clients for ${SECONDS} s…`);
    counts.clear();
    latencies.clear();
    const soakStart = Date.now();
    const deadline = soakStart + SECONDS * 1000;
    const progress = setInterval(() => {
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      log(`  ${((Date.now() - soakStart) / 1000).toFixed(0)} s: ${total} answers, ${errors} errors, ${deliberate} 429`);
    }, 10_000);
    await Promise.all(clients.map((c) => runClient(c, deadline)));
    clearInterval(progress);
    const soakSeconds = (Date.now() - soakStart) / 1000;
    const loadCounts = new Map(counts);
    const loadLatencies = new Map(latencies);
    const loadErrors = errors;

    // --- afterwards: is everyone intact? ----------------------------------------------------------
    const failures: string[] = [];
    const check = (ok: boolean, what: string) => {
      if (!ok) failures.push(what);
    };

    // 1. The store, as the clients left it: exact counts, nothing orphaned.
    const items: Record<string, any>[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await deps.store.doc.send(
        new ScanCommand({ TableName: stack.tableName, ConsistentRead: true, ExclusiveStartKey }),
      );
      items.push(...(page.Items ?? []));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    const userPrefix = keys.userPartition(tenant, '');
    const profiles = new Map(
      items.filter((i) => i.entity === 'USER' && i.sk === 'PROFILE').map((i) => [i.id as string, i]),
    );
    const byUser = new Map<string, Record<string, any>[]>();
    for (const item of items) {
      const pk = String(item.pk);
      if (!pk.startsWith(userPrefix)) continue;
      const userId = decodeURIComponent(pk.slice(userPrefix.length).split('#')[0] as string);
      if (!profiles.has(userId)) failures.push(`orphaned ${item.entity} ${pk} ${item.sk}: no such user`);
      (byUser.get(userId) ?? byUser.set(userId, []).get(userId))?.push(item);
    }
    check(profiles.size === totalUsers, `${profiles.size} user profiles, expected ${totalUsers}`);
    const claims = items.filter((i) => i.entity === 'USER_EMAIL');
    check(claims.length === totalUsers, `${claims.length} e-mail claims, expected ${totalUsers}`);
    for (const claim of claims) {
      const profile = profiles.get(claim.userId);
      check(
        profile !== undefined && keys.userEmail(tenant, profile.email).pk === claim.pk,
        `the e-mail claim ${claim.pk} names ${claim.userId}, whose profile does not hold that address`,
      );
    }
    check(!items.some((i) => i.entity === 'LOCK'), 'a lockout counter exists: some login was counted as failed');
    for (const c of clients) {
      const own = byUser.get(c.userId) ?? [];
      const sessions = own.filter((i) => i.entity === 'SESSION');
      // Each rotation moves its session's chain one generation on.
      const rotations = sessions.reduce((sum, s) => sum + (typeof s.refreshGen === 'number' ? s.refreshGen : 0), 0);
      const loginRecords = own.filter((i) => i.entity === 'ACTIVITY' && i.type === 'LOGIN');
      const name = `client ${c.index}`;
      check(sessions.length === c.logins, `${name}: ${sessions.length} sessions stored, ${c.logins} logins made`);
      check(loginRecords.length === c.logins, `${name}: ${loginRecords.length} LOGIN records, ${c.logins} logins`);
      check(rotations === c.refreshes, `${name}: ${rotations} rotations, ${c.refreshes} refreshes`);
      for (const s of sessions) {
        check(
          s.userId === c.userId && !s.revokedAt && typeof s.refreshHash === 'string',
          `${name}: session ${s.id} is not live and whole`,
        );
      }
      check(
        profiles.get(c.userId)?.status === 'ACTIVE' && profiles.get(c.userId)?.email === c.email,
        `${name}: the profile changed`,
      );
    }

    // 2. GET /users lists everyone, as the owner sees it.
    const listed = await request('listUsers', 'GET', '/users', bearer(owner.body.data.accessToken));
    const listedIds = new Set(((listed?.body as { id: string }[] | undefined) ?? []).map((u) => u.id));
    check(
      listed?.status === 200 && listedIds.size === totalUsers && clients.every((c) => listedIds.has(c.userId)),
      `GET /users: ${listed?.status}, ${listedIds.size} users listed, expected all ${totalUsers}`,
    );

    // 3. Each client's last refresh token keeps the rotation's rules: its first use rotates (200); used again within
    //    the grace (another tab, a retry) it answers the same successor; used again after the grace it is a replay:
    //    401 REFRESH_TOKEN_REUSED, and the session ends, so its successor is refused too.
    const rotated = await Promise.all(
      clients.map(async (c) => {
        if (!c.lastRefreshToken) return void failures.push(`client ${c.index}: never got a refresh token`);
        const token = c.lastRefreshToken;
        const first = await request('refresh', 'POST', '/auth/refresh', {}, { refreshToken: token });
        const again = await request('refresh', 'POST', '/auth/refresh', {}, { refreshToken: token });
        const successor: unknown = first?.body?.data?.refreshToken;
        check(
          first?.status === 200 && typeof successor === 'string',
          `client ${c.index}: its last refresh token answered ${first?.status}`,
        );
        check(
          again?.status === 200 && again.body?.data?.refreshToken === successor,
          `client ${c.index}: its last refresh token, used again within the grace, answered ${again?.status} ` +
            `${again?.body?.code ?? 'another token'} (expected 200 and the same successor)`,
        );
        return { c, token, successor };
      }),
    );
    await sleep(REFRESH_REUSE_GRACE_MS + 1000);
    await Promise.all(
      rotated.map(async (r) => {
        if (!r || typeof r.successor !== 'string') return;
        const replay = await request('refresh', 'POST', '/auth/refresh', {}, { refreshToken: r.token });
        check(
          replay?.status === 401 && replay.body?.code === 'REFRESH_TOKEN_REUSED',
          `client ${r.c.index}: its last refresh token, used again after the grace, answered ${replay?.status} ` +
            `${replay?.body?.code ?? ''} (expected 401 REFRESH_TOKEN_REUSED)`,
        );
        const after = await request('refresh', 'POST', '/auth/refresh', {}, { refreshToken: r.successor });
        check(
          after?.status === 401,
          `client ${r.c.index}: the successor, after the replay ended the session, answered ${after?.status}`,
        );
      }),
    );

    // 4. Each user can still log in (a few at a time: this is not load any more).
    for (let i = 0; i < clients.length; i += 5) {
      await Promise.all(
        clients.slice(i, i + 5).map(async (c) => {
          let res = await request('login', 'POST', '/auth/login', {}, { email: c.email, password: PASSWORD });
          // With the rate limit on, the minute's budget may be spent: wait as told and try again.
          while (res?.status === 429 && !aborted.signal.aborted) {
            await sleep((res.retryAfter ?? 1) * 1000);
            res = await request('login', 'POST', '/auth/login', {}, { email: c.email, password: PASSWORD });
          }
          check(
            res?.status === 200 && res.body?.data?.user?.id === c.userId,
            `client ${c.index}: login afterwards answered ${res?.status} ${res?.body?.code ?? ''}`,
          );
        }),
      );
    }

    // --- the summary -----------------------------------------------------------------------------
    const total = [...loadCounts.values()].reduce((a, b) => a + b, 0);
    const logins = clients.reduce((n, c) => n + c.logins, 0);
    const refreshes = clients.reduce((n, c) => n + c.refreshes, 0);
    log();
    log(
      `soak: ${CLIENTS} clients, ${soakSeconds.toFixed(1)} s, ${total} answers (${(total / soakSeconds).toFixed(0)}/s)`,
    );
    log(`      ${logins} logins, ${refreshes} refreshes, auth rate limit ${AUTH_RATE_LIMIT}/min per IP`);
    log();
    log('route       answers  status code                     p50 ms  p99 ms');
    for (const route of ['login', 'me', 'refresh', 'listUsers', 'getUser', 'listRoles'] as Route[]) {
      const sorted = [...(loadLatencies.get(route) ?? [])].sort((a, b) => a - b);
      const lines = [...loadCounts].filter(([key]) => key.startsWith(`${route} `)).sort();
      lines.forEach(([key, n], i) => {
        const latency =
          i === 0
            ? `${String(Math.round(percentile(sorted, 50))).padStart(6)}  ${String(Math.round(percentile(sorted, 99))).padStart(6)}`
            : '';
        log(
          `${(i === 0 ? route : '').padEnd(10)} ${String(n).padStart(8)}  ${key.slice(route.length + 1).padEnd(30)} ${latency}`,
        );
      });
    }
    log();
    log(`errors during the load: ${loadErrors}`);
    log(`deliberate 429s:        ${deliberate}`);
    for (const sample of errorSamples) log(`  ${sample}`);
    log(
      `checks afterwards:      ${failures.length === 0 && errors === loadErrors ? 'all passed' : `${failures.length + errors - loadErrors} failed`}`,
    );
    log(
      `  store: ${profiles.size} users, ${items.filter((i) => i.entity === 'SESSION').length} sessions, ` +
        `${items.reduce((sum, i) => sum + (i.entity === 'SESSION' && typeof i.refreshGen === 'number' ? i.refreshGen : 0), 0)} rotations, ${items.length} items; ` +
        'each user logs in, each last refresh token rotates, answers the same successor in the grace and ends its session after it, GET /users lists all',
    );
    for (const failure of failures.slice(0, 30)) log(`  ✗ ${failure}`);
    if (failures.length > 30) log(`  … and ${failures.length - 30} more`);
    const ok = errors === 0 && failures.length === 0;
    if (!ok && stackLog.length > 0) {
      log("the stack's last log lines:");
      for (const line of stackLog) log(`  ${line.slice(0, 300)}`);
    }
    log();
    log(ok ? `PASS (${elapsed()})` : `FAIL (${elapsed()})`);
    return ok ? 0 : 1;
  } finally {
    await stopChild();
  }
}

if (process.env.SOAK_ROLE === 'stack') {
  await runStack();
} else {
  process.exitCode = await main().catch((cause: unknown) => {
    log(`FAIL: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}`);
    return 1;
  });
}
