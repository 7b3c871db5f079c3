// npm run bench: throughput and latency of the identity service on the local stack, the limits
// they are measured against, DynamoDB cost per operation, known vs unknown addresses' answer times, bundle sizes and
// cold init.
// Writes bench/results.json and bench/RESULTS.md. BENCH_DURATION (s) shortens the load runs.
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startDynamoDbLocal } from '#local/dynamodb.ts';
import { listUsers } from '#shared/admin/users.ts';
import { hashPassword, PRODUCTION_ARGON2 } from '#shared/auth/passwords.ts';
import { type Deps, makeDeps } from '#shared/deps.ts';
import { keys } from '#shared/store/keys.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { queryAll } from '#shared/store/query.ts';
import { createTenant } from '#shared/tenancy/create-tenant.ts';
import { bundles } from './bundles.ts';
import { type CostFigures, type Counted, measureCostPerMau, renderCost } from './cost.ts';
import { argon2Limit, dynamoLimits, percentile } from './limits.ts';
import { aggregate, type LoadFigures, load, once, type RunFigures } from './load.ts';
import { peerVersion, startPeer } from './peer.ts';
import { renderMarkdown } from './report.ts';
import { seedTenant as seedBenchTenant } from './seed.ts';
import type { DynamoCall, LoggedLines } from './server.ts';
import { type Comparison, interleaved, type Side } from './side-by-side.ts';
import { type TimingFigures, timingPairs } from './timing.ts';
import { signInReadyMs, WEB_BUDGETS, type WebFigures, webBundleFigures } from './web.ts';

const BENCH_DIR = import.meta.dirname;
const CONNECTIONS = 16;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const LIMIT_SECONDS = 5;
const PASSWORD = 'Bench-password-42';
const ORIGIN = 'https://shop.bench.test';

const log = (line: string) => process.stdout.write(`${line}\n`);
const startedAt = Date.now();
const elapsed = () => `${((Date.now() - startedAt) / 1000).toFixed(0)} s`;

// --- the system under test, in its own process ------------------------------------------------
const secretsKey = randomBytes(32).toString('base64');
const server: ChildProcess = fork(join(BENCH_DIR, 'server.ts'), [], {
  execArgv: ['--import', 'tsx'],
  env: { ...process.env, BENCH_SECRETS_KEY: secretsKey, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
process.once('exit', () => server.kill('SIGKILL'));
const nextMessage = <T>(type: string) =>
  new Promise<T>((done) => {
    const listener = (message: { type: string }) => {
      if (message.type !== type) return;
      server.off('message', listener);
      done(message as T);
    };
    server.on('message', listener);
  });
const stack = await nextMessage<{ apiUrl: string; plantsUrl: string; dynamoEndpoint: string; tableName: string }>(
  'ready',
);
log(`local stack up (${elapsed()}): ${stack.apiUrl}, plants ${stack.plantsUrl}`);

const env = {
  TABLE_NAME: stack.tableName,
  DYNAMODB_ENDPOINT: stack.dynamoEndpoint,
  AWS_REGION: 'us-east-1',
  ISSUER_URL: stack.apiUrl,
  LOCAL_SECRETS_KEY: secretsKey,
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};
const deps: Deps = makeDeps(env);

// --- seeding: one argon2 hash reused by every user, BatchWrite ----------------------------------
const phc = await hashPassword(PRODUCTION_ARGON2, PASSWORD);

const seedTenant = (name: string, userCount: number) => seedBenchTenant(deps, { name, userCount, phc, origin: ORIGIN });

let seedStart = Date.now();
const small = await seedTenant('bench1k', 1000);
const seed1kMs = Date.now() - seedStart;
log(`seeded 1,000 users in ${seed1kMs} ms (${elapsed()})`);

async function login(headers: Record<string, string>, email: string, password: string) {
  const res = await fetch(`${stack.apiUrl}/auth/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(body)}`);
  return body.data as { accessToken: string; refreshToken: string };
}

const admin = await login(small.headers, small.tenant.adminEmail, small.tenant.adminPassword);
const member = await login(small.headers, small.emails[0] as string, PASSWORD);
const bearer = (token: string) => ({ ...small.headers, authorization: `Bearer ${token}` });

// --- load -----------------------------------------------------------------------------------
const endpoints: Record<string, LoadFigures & { method: string; note: string; cpu?: CpuFigures; profile?: unknown }> =
  {};
/**
 * BENCH_ONLY=passwordLogin,usersMe (or `npm run bench -- --only cost`): only these parts (a quick look; nothing is
 * written).
 */
const onlyArgument = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const only = (onlyArgument ?? process.env.BENCH_ONLY)?.split(',').map((name) => name.trim());
const wanted = (name: string) => !only || only.includes(name);

// --- what a monthly active user costs: one user's month, request by request ------------------------------------
async function countedRequest(request: () => Promise<Response>): Promise<Counted> {
  server.send({ type: 'count-start' });
  await nextMessage('count-started');
  const res = await request();
  const body = Buffer.from(await res.arrayBuffer());
  const responseBytes = body.byteLength;
  // A refusal the model does not expect (the wrong password's 401 is one it does) would make its figures wrong.
  if (res.status >= 400 && res.status !== 401) log(`  (${res.status}: ${body.toString('utf8').slice(0, 160)})`);
  await new Promise((done) => setTimeout(done, 300)); // writes that finish after the answer
  server.send({ type: 'count-stop' });
  const counted = await nextMessage<{ calls: DynamoCall[]; logged: LoggedLines; cpuMs: number }>('counted');
  return { status: res.status, responseBytes, ...counted };
}

/** Every item of a partition (the store's own paged Query). */
const partitionItems = (pk: string) =>
  queryAll(deps.store, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pk },
    ConsistentRead: true,
  });

/**
 * The cost section. It counts DynamoDB calls, which observes the clients and turns their direct reads off for the rest
 * of the process (shared/store/direct-read.ts): alone (`--only cost`) it runs at once; in a full run, after the load.
 */
async function costSection(): Promise<CostFigures> {
  const { signInPage } = await webBundleFigures();
  const figures = await measureCostPerMau({
    apiUrl: stack.apiUrl,
    headers: small.headers,
    email: small.emails[900] as string,
    warmUpEmail: small.emails[901] as string,
    password: PASSWORD,
    publicApiKey: small.tenant.publicApiKey,
    origin: ORIGIN,
    count: countedRequest,
    itemsOf: async (userId) => ({
      user: await partitionItems(keys.userPartition(small.t, userId)),
      activity: await partitionItems(keys.activityPartition(small.t, userId)),
    }),
    pageLoad: { requests: signInPage.requests, bytes: signInPage.gzipBytes, htmlBytes: signInPage.htmlGzipBytes },
  });
  log('');
  for (const line of renderCost(figures)) log(line);
  return figures;
}
if (only?.length === 1 && only[0] === 'cost') {
  await costSection();
  server.send({ type: 'stop' });
  await new Promise((done) => server.once('exit', done));
  process.exit(0);
}

/** Where the CPU went during one run: per request, in ms, and the cores kept busy. */
export interface CpuFigures {
  /** The server process: handlers, gateway, SDK, and argon2 on libuv's threads. */
  serverMsPerRequest: number;
  /** DynamoDB Local's JVM. */
  dynamoLocalMsPerRequest: number;
  /** autocannon, in this process. */
  loadGeneratorMsPerRequest: number;
  /** All three together, over the wall time: 2 means both cores were busy all along. */
  coresBusy: number;
}

/** The second run of each endpoint is measured: CPU per request and a sampling profile of the server's main thread. */
const MEASURED_RUN = 1;

/** An endpoint driven by autocannon with these options. */
function measure(
  name: string,
  method: string,
  note: string,
  options: Omit<Parameters<typeof load>[0], 'connections' | 'duration'>,
  before?: (run: number) => Promise<void> | void,
) {
  return measureWith(
    name,
    method,
    note,
    (connections, duration) => once({ ...options, connections, duration }),
    before,
  );
}

interface PlannedEndpoint {
  name: string;
  method: string;
  note: string;
  drive: (connections: number, duration: number) => Promise<RunFigures>;
  /** Before each run (0, 1, 2; -1 for the warm-up pass). */
  before?: (run: number) => Promise<void> | void;
}
const plan: PlannedEndpoint[] = [];

/** An endpoint (or a flow of several requests) driven by `drive` at `connections` for `duration` seconds. */
function measureWith(
  name: string,
  method: string,
  note: string,
  drive: PlannedEndpoint['drive'],
  before?: PlannedEndpoint['before'],
) {
  if (wanted(name)) plan.push({ name, method, note, drive, ...(before ? { before } : {}) });
}

/**
 * Every planned endpoint once at full load before any is measured: DynamoDB Local is a JVM whose
 * JIT compiles for the first tens of thousands of calls (its CPU per call falls several-fold), and
 * the handlers' modules, signing keys and connections warm up. Without this pass the first
 * endpoint measured pays for the whole warm-up.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP ?? 5);

async function runPlan() {
  for (const entry of plan) {
    await entry.before?.(-1);
    await entry.drive(CONNECTIONS, WARMUP_SECONDS);
    await new Promise((done) => setTimeout(done, 500));
  }
  log(`warm-up pass: ${plan.length} endpoints × ${WARMUP_SECONDS} s (${elapsed()})`);
  for (const entry of plan) await runMeasured(entry);
}

async function runMeasured({ name, method, note, drive, before }: PlannedEndpoint) {
  const runs: RunFigures[] = [];
  let cpu: CpuFigures | undefined;
  let profile: unknown;
  for (let run = 0; run < 3; run++) {
    // Let the previous run's cancelled requests drain.
    await new Promise((done) => setTimeout(done, 1000));
    await before?.(run);
    if (run !== MEASURED_RUN) {
      runs.push(await drive(CONNECTIONS, DURATION));
      continue;
    }
    server.send({ type: 'measure-start', profile: true });
    await nextMessage('measure-started');
    const parentStart = process.cpuUsage();
    const figures = await drive(CONNECTIONS, DURATION);
    const parent = process.cpuUsage(parentStart);
    server.send({ type: 'measure-stop', profile: true });
    const measured = await nextMessage<{
      cpu: { wallMs: number; serverCpuMs: number; jvmCpuMs: number };
      profile: unknown;
    }>('measured');
    runs.push(figures);
    const perRequest = (ms: number) => Math.round((ms / Math.max(figures.requests, 1)) * 100) / 100;
    const loadGeneratorMs = (parent.user + parent.system) / 1000;
    cpu = {
      serverMsPerRequest: perRequest(measured.cpu.serverCpuMs),
      dynamoLocalMsPerRequest: perRequest(measured.cpu.jvmCpuMs),
      loadGeneratorMsPerRequest: perRequest(loadGeneratorMs),
      coresBusy:
        Math.round(((measured.cpu.serverCpuMs + measured.cpu.jvmCpuMs + loadGeneratorMs) / measured.cpu.wallMs) * 100) /
        100,
    };
    profile = measured.profile;
  }
  const figures = aggregate(runs);
  endpoints[name] = { ...figures, method, note, cpu, profile };
  log(
    `${name.padEnd(22)} ${String(figures.rps).padStart(8)} req/s  p50 ${figures.p50} ms  p99 ${figures.p99} ms` +
      (figures.non2xx || figures.errors ? `  (non-2xx ${figures.non2xx}, errors ${figures.errors})` : '') +
      `  [${elapsed()}]`,
  );
  if (cpu) {
    log(
      `${''.padEnd(22)} CPU ms/request: server ${cpu.serverMsPerRequest}, DynamoDB Local ${cpu.dynamoLocalMsPerRequest}, ` +
        `autocannon ${cpu.loadGeneratorMsPerRequest}; cores busy ${cpu.coresBusy}`,
    );
  }
}

// Password login: every request logs a different one of the 1,000 users in (round robin).
let loginIndex = 0;
await measure('passwordLogin', 'POST /auth/login', 'round robin over the 1,000 seeded users', {
  url: `${stack.apiUrl}/auth/login`,
  method: 'POST',
  headers: small.headers,
  requests: [
    {
      setupRequest: (req: any) => {
        const email = small.emails[loginIndex++ % small.emails.length];
        return { ...req, body: JSON.stringify({ email, password: PASSWORD }) };
      },
    },
  ],
});

// Refresh: 32 live sessions (two per connection, logins of distinct users before each run), so that
// the queue is never empty when a connection sets up its next request before the previous answer
// was read. Every request takes a token from the queue of valid ones and its answer puts the
// rotated token back: a real rotation per request, never a replay.
let refreshQueue: string[] = [];
const refreshDrive = (connections: number, duration: number) =>
  once({
    url: `${stack.apiUrl}/auth/refresh`,
    method: 'POST',
    headers: small.headers,
    connections,
    duration,
    requests: [
      {
        setupRequest: (req: any) => ({ ...req, body: JSON.stringify({ refreshToken: refreshQueue.shift() }) }),
        onResponse: (status: number, body: string) => {
          if (status === 200) refreshQueue.push(JSON.parse(body).data.refreshToken);
        },
      },
    ],
  });
/** 32 fresh sessions of distinct users (run -1 … 2 here, 9 … 12 side by side with the peer). */
async function refillRefreshQueue(run: number) {
  refreshQueue = [];
  for (let i = 0; i < 2 * CONNECTIONS; i++) {
    const email = small.emails[100 + (run + 1) * 2 * CONNECTIONS + i] as string;
    refreshQueue.push((await login(small.headers, email, PASSWORD)).refreshToken);
  }
}
measureWith(
  'refresh',
  'POST /auth/refresh',
  '32 sessions; each request sends a valid token, the rotated one goes back in the queue',
  refreshDrive,
  refillRefreshQueue,
);

await measure('usersMe', 'GET /users/me', "one user's access token", {
  url: `${stack.apiUrl}/users/me`,
  headers: bearer(member.accessToken),
});
await measure('listUsers1k', 'GET /users', '1,000 users (+ the admin), admin token', {
  url: `${stack.apiUrl}/users`,
  headers: bearer(admin.accessToken),
});
await measure('discovery', 'GET /auth/discovery', 'allowed Origin', {
  url: `${stack.apiUrl}/auth/discovery?clientId=${small.tenant.publicApiKey}`,
  headers: { origin: ORIGIN },
});
// E-mail code login: request a code, read it from the SES emulator's store (the mail the handler
// really sent), verify it. One "request" here is the pair; each loop logs its own user in.
let mailCodeId = 0;
const mailCodeWaiters = new Map<number, (code: string | undefined) => void>();
server.on('message', (message: { type: string; id?: number; code?: string }) => {
  if (message.type !== 'mail-code' || message.id === undefined) return;
  mailCodeWaiters.get(message.id)?.(message.code);
  mailCodeWaiters.delete(message.id);
});
const mailedCodeTo = (to: string) =>
  new Promise<string | undefined>((done) => {
    const id = ++mailCodeId;
    mailCodeWaiters.set(id, done);
    server.send({ type: 'mail-code', id, to });
  });

/**
 * The e-mail-code logins have a tenant of their own, taken round robin: the service mails one code a
 * minute (five an hour) per address (docs/security.md#mail-limits-and-budgets), so a flow of ~130 logins
 * a second needs thousands of addresses for none to meet that limit: 10,000 last the warm-up and the
 * three runs (~4,500 flows) without repeating one.
 */
const coders = await seedTenant('benchcodes', 10_000);
let nextCoder = 0;

async function codeLoginFlow(connections: number, duration: number): Promise<RunFigures> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let non2xx = 0;
  let errors = 0;
  const count = (status: number) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status < 200 || status > 299) non2xx++;
  };
  const until = performance.now() + duration * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const email = coders.emails[nextCoder++ % coders.emails.length] as string;
        const started = performance.now();
        try {
          const asked = await fetch(`${stack.apiUrl}/auth/login`, {
            method: 'POST',
            headers: coders.headers,
            body: JSON.stringify({ email, loginMode: 'OTP_EMAIL' }),
          });
          const challenge = (await asked.json()) as { data?: { challengeId?: string } };
          count(asked.status);
          const code = await mailedCodeTo(email);
          if (!challenge.data?.challengeId || !code) {
            errors++;
            continue;
          }
          const verified = await fetch(`${stack.apiUrl}/auth/login/verify`, {
            method: 'POST',
            headers: coders.headers,
            body: JSON.stringify({ challengeId: challenge.data.challengeId, code }),
          });
          await verified.text();
          count(verified.status);
          if (verified.status === 200) latencies.push(performance.now() - started);
        } catch {
          errors++;
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (p: number) => Math.round(percentile(latencies, p));
  return {
    rps: latencies.length / duration,
    p50: at(50),
    p99: at(99),
    requests: latencies.length,
    non2xx,
    errors,
    statuses,
  };
}

await measureWith(
  'emailCodeLogin',
  'POST /auth/login (OTP_EMAIL) + POST /auth/login/verify',
  "16 connections, each asking for a code for the next of 10,000 users, reading it from the SES emulator's store and verifying it; one request = the pair",
  codeLoginFlow,
  () => server.send({ type: 'clear-mail' }),
);

let plantId = 1;
await measure('createPlant', 'POST /plants', 'a new plant id per request, one user token', {
  url: `${stack.plantsUrl}/plants`,
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${member.accessToken}` },
  requests: [
    {
      setupRequest: (req: any) => ({ ...req, body: JSON.stringify({ id: plantId++, name: 'Monstera' }) }),
    },
  ],
});

// --- side by side with the peer: better-auth (bench/peer/), the same loads, interleaved rounds ------------------
let sideBySide: Awaited<ReturnType<typeof compareWithPeer>> | undefined;
const peerParts = ['signIn', 'sessionCheck', 'refresh'] as const;
/** BENCH_ONLY=sideBySide runs the three; sideBySide.sessionCheck (…) one of them. */
const peerPartWanted = (part: string) => wanted('sideBySide') || wanted(`sideBySide.${part}`);
if (peerParts.some(peerPartWanted)) {
  sideBySide = await compareWithPeer();
  for (const [name, c] of Object.entries(sideBySide.comparisons)) {
    if (!c) continue;
    log(
      `${name.padEnd(14)} ours ${c.ours.rps} req/s, ${c.ours.cpuMsPerRequest} CPU ms; better-auth ${c.peer.rps} req/s, ` +
        `${c.peer.cpuMsPerRequest} CPU ms: ×${c.throughputRatio} throughput, ×${c.cpuRatio} CPU [${elapsed()}]`,
    );
  }
}

// Then our own endpoints, one by one. The side-by-side goes first, on a fresh server process as the peer's is: after
// the lists of 1,000 and 10,000 users its heap (and its garbage collector's work) would be another server's.
await runPlan();

async function compareWithPeer() {
  const peer = await startPeer();
  const peerEmails = await peer.seed(1000, PASSWORD);
  const peerJson = { 'content-type': 'application/json', origin: peer.origin };
  const peerSignIn = async (email: string) => {
    const res = await fetch(`${peer.url}${peer.signInPath}`, {
      method: 'POST',
      headers: peerJson,
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const token = res.headers.get('set-auth-token');
    if (res.status !== 200 || !token) throw new Error(`peer sign-in ${email}: ${res.status} ${await res.text()}`);
    return token;
  };
  const peerToken = await peerSignIn(peerEmails[0] as string);
  // better-auth answers a bad session 200 with a null body: check once that this one is a real session.
  for (const path of [peer.sessionPath, peer.refreshPath]) {
    const checked = await fetch(`${peer.url}${path}`, { headers: { authorization: `Bearer ${peerToken}` } });
    const body = (await checked.json()) as { user?: { email?: string } } | null;
    if (body?.user?.email !== peerEmails[0]) throw new Error(`peer ${path} did not recognise its session`);
  }
  const ourSide = (drive: Side['drive'], before?: Side['before']): Side => ({
    drive,
    ...(before ? { before } : {}),
    async measureStart() {
      server.send({ type: 'measure-start', profile: false });
      await nextMessage('measure-started');
    },
    async measureStop() {
      server.send({ type: 'measure-stop', profile: false });
      return (await nextMessage<{ cpu: { serverCpuMs: number } }>('measured')).cpu.serverCpuMs;
    },
  });
  const peerSide = (drive: Side['drive']): Side => ({
    drive,
    measureStart: () => peer.measureStart(),
    measureStop: async () => (await peer.measureStop()).serverCpuMs,
  });
  // Five rounds: a round's CPU per request varies by a tenth or more on this machine; the median of five holds.
  const rounds = 5;
  const comparing = (part: (typeof peerParts)[number], run: () => Promise<Comparison>) =>
    peerPartWanted(part) ? run() : Promise.resolve(undefined);
  let ourIndex = 0;
  let peerIndex = 0;
  const comparisons = {
    // Sign-in: e-mail and password, round robin over 1,000 users on each side; each answer starts a session.
    signIn: await comparing('signIn', () =>
      interleaved(
        ourSide((duration) =>
          once({
            url: `${stack.apiUrl}/auth/login`,
            method: 'POST',
            headers: small.headers,
            connections: CONNECTIONS,
            duration,
            requests: [
              {
                setupRequest: (req: any) => ({
                  ...req,
                  body: JSON.stringify({ email: small.emails[ourIndex++ % small.emails.length], password: PASSWORD }),
                }),
              },
            ],
          }),
        ),
        peerSide((duration) =>
          once({
            url: `${peer.url}${peer.signInPath}`,
            method: 'POST',
            headers: peerJson,
            connections: CONNECTIONS,
            duration,
            requests: [
              {
                setupRequest: (req: any) => ({
                  ...req,
                  body: JSON.stringify({ email: peerEmails[peerIndex++ % peerEmails.length], password: PASSWORD }),
                }),
              },
            ],
          }),
        ),
        rounds,
        DURATION,
      ),
    ),
    // Session check: one user's bearer credential, checked live (ours: GET /users/me; its: get-session).
    sessionCheck: await comparing('sessionCheck', () =>
      interleaved(
        ourSide((duration) =>
          once({
            url: `${stack.apiUrl}/users/me`,
            headers: bearer(member.accessToken),
            connections: CONNECTIONS,
            duration,
          }),
        ),
        peerSide((duration) =>
          once({
            url: `${peer.url}${peer.sessionPath}`,
            headers: { authorization: `Bearer ${peerToken}` },
            connections: CONNECTIONS,
            duration,
          }),
        ),
        rounds,
        DURATION,
      ),
    ),
    // Refresh: ours rotates a refresh token (reuse detection, 10 s grace); better-auth extends its session's expiry
    // (get-session with updateAge 0: one write per request), as it has no refresh token.
    refresh: await comparing('refresh', () =>
      interleaved(
        ourSide(
          (duration) => refreshDrive(CONNECTIONS, duration),
          (round) => refillRefreshQueue(round + 10),
        ),
        peerSide((duration) =>
          once({
            url: `${peer.url}${peer.refreshPath}`,
            headers: { authorization: `Bearer ${peerToken}` },
            connections: CONNECTIONS,
            duration,
          }),
        ),
        rounds,
        DURATION,
      ),
    ),
  };
  peer.stop();
  return { peer: { name: 'better-auth', version: peerVersion(), database: 'SQLite (better-sqlite3)' }, comparisons };
}

// --- timing: known vs unknown addresses, path by path (bench/timing.ts) ------------------------
const TIMING_PAIRS = Number(process.env.BENCH_TIMING_PAIRS ?? 200);

/** On a DynamoDB Local of its own, once the load's stack has stopped: the pairs wait on nothing else. */
async function measureTiming(): Promise<TimingFigures> {
  // The timing stack runs in this process, whose output is the bench's: its request lines (with their metrics) stay
  // off, as the load's stack (a child whose output is dropped) writes them to nowhere.
  process.env.LOG_LEVEL = 'error';
  const dynamoForTiming = await startDynamoDbLocal();
  try {
    return await timingPairs({
      dynamoEndpoint: dynamoForTiming.endpoint,
      secretsKey,
      count: TIMING_PAIRS,
      streams: 4,
      log: (line) => log(`${line} [${elapsed()}]`),
    });
  } finally {
    await dynamoForTiming.stop();
  }
}

if (only) {
  // A quick look: the endpoints asked for, with their profiles; nothing is written.
  for (const [name, figures] of Object.entries(endpoints)) log(`${name}: ${JSON.stringify(figures.profile, null, 1)}`);
  server.send({ type: 'stop' });
  await new Promise((done) => server.once('exit', done));
  if (wanted('timing')) await measureTiming();
  process.exit(0);
}

// GET /users with 10,000 users: one request at a time (the target is a latency), 1 warm-up + 3 requests.
seedStart = Date.now();
const large = await seedTenant('bench10k', 10_000);
const seed10kMs = Date.now() - seedStart;
log(`seeded 10,000 users in ${seed10kMs} ms (${elapsed()})`);
const largeAdmin = await login(large.headers, large.tenant.adminEmail, large.tenant.adminPassword);
const listTimes: number[] = [];
let listBytes = 0;
const listStatuses: string[] = [];
for (let i = 0; i < 4; i++) {
  const t = performance.now();
  const res = await fetch(`${stack.apiUrl}/users`, {
    headers: { ...large.headers, authorization: `Bearer ${largeAdmin.accessToken}` },
  });
  const text = await res.text();
  if (res.status !== 200) listStatuses.push(`${res.status} ${text.slice(0, 120)}`);
  listBytes = Math.max(listBytes, res.status === 200 ? text.length : 0);
  if (i > 0) listTimes.push(performance.now() - t); // the first one warms up
}
listTimes.sort((a, b) => a - b);
// On the wire, gzipped as browsers and fetch ask for it (fetch decodes; Content-Length is what was sent). Lambda
// answers at most 6 MB, a gzipped body base64-encoded (4/3) in it: how many users of this size fit, either way.
const zippedAnswer = await fetch(`${stack.apiUrl}/users`, {
  headers: { ...large.headers, authorization: `Bearer ${largeAdmin.accessToken}`, 'accept-encoding': 'gzip' },
});
await zippedAnswer.arrayBuffer();
const gzipBytes = Number(zippedAnswer.headers.get('content-length') ?? 0);
const LAMBDA_RESPONSE_LIMIT = 6_291_556; // bytes of the JSON a function returns (local/gateway.ts)
const listedUsers = 10_001;
const listUsers10k = {
  medianMs: Math.round(listTimes[1] as number),
  maxMs: Math.round(listTimes.at(-1) as number),
  responseBytes: listBytes,
  gzipBytes,
  usersUnder6MbPlain: Math.floor(LAMBDA_RESPONSE_LIMIT / (listBytes / listedUsers)),
  usersUnder6MbGzip: gzipBytes > 0 ? Math.floor(LAMBDA_RESPONSE_LIMIT / ((gzipBytes * 4) / 3 / listedUsers)) : null,
  failures: listStatuses,
};
log(`GET /users (10,000)      median ${listUsers10k.medianMs} ms, max ${listUsers10k.maxMs} ms [${elapsed()}]`);
// The same list under load (16 connections, as every endpoint), with its CPU and profile.
if (wanted('listUsers10kLoad')) {
  await runMeasured({
    name: 'listUsers10kLoad',
    method: 'GET /users',
    note: '10,000 users (+ the admin), admin token, 16 connections',
    drive: (connections, duration) =>
      once({
        url: `${stack.apiUrl}/users`,
        headers: { ...large.headers, authorization: `Bearer ${largeAdmin.accessToken}` },
        connections,
        duration,
        // 16 lists of 10,000 share 2 cores here: each answer takes over 10 s (the function's timeout).
        timeout: 30,
      }),
  });
}

// --- limits ---------------------------------------------------------------------------------
/**
 * Waits until the server process and DynamoDB Local are idle (together under a tenth of a core over 2 s), three
 * minutes at most: a route that timed out (the 10,000-user list under load) leaves its Query running in DynamoDB
 * Local after the answer, and it would bill the limits measured next (it once made GetItem 3 /s).
 */
async function settle(maxSeconds: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < maxSeconds * 1000) {
    server.send({ type: 'measure-start', profile: false });
    await nextMessage('measure-started');
    await new Promise((done) => setTimeout(done, 2000));
    server.send({ type: 'measure-stop', profile: false });
    const { cpu } = await nextMessage<{ cpu: { wallMs: number; serverCpuMs: number; jvmCpuMs: number } }>('measured');
    if ((cpu.serverCpuMs + cpu.jvmCpuMs) / cpu.wallMs < 0.1) break;
  }
  return Math.round((Date.now() - started) / 1000);
}
log(`settled in ${await settle(180)} s [${elapsed()}]`);
const bare = fork(join(BENCH_DIR, 'bare-server.mjs'), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
const barePort = await new Promise<number>((done) => bare.once('message', (m: any) => done(m.port)));
const bareHttp = await load({ url: `http://127.0.0.1:${barePort}/`, connections: CONNECTIONS, duration: DURATION });
bare.kill();
log(`bare node:http          ${bareHttp.rps} req/s  p50 ${bareHttp.p50} ms  p99 ${bareHttp.p99} ms`);
await new Promise((done) => setTimeout(done, 2000)); // let the server process settle
const argon2 = await argon2Limit(phc, PASSWORD, LIMIT_SECONDS);
log(`argon2id verify x2      ${argon2.opsPerSecond} /s  p50 ${argon2.p50} ms`);
const memberClaims = JSON.parse(Buffer.from(member.accessToken.split('.')[1] as string, 'base64url').toString());
const dynamo = await dynamoLimits(
  stack.dynamoEndpoint,
  stack.tableName,
  [
    keys.user(small.t, memberClaims.sub),
    keys.session(small.t, memberClaims.sub, memberClaims.sid),
    keys.merchant(small.t),
  ],
  CONNECTIONS,
  LIMIT_SECONDS,
);
log(`DynamoDB GetItem        ${dynamo.getItem.opsPerSecond} /s  p50 ${dynamo.getItem.p50} ms`);
log(`DynamoDB BatchGetItem   ${dynamo.batchGetItem.opsPerSecond} /s  p50 ${dynamo.batchGetItem.p50} ms`);

// --- DynamoDB cost per operation: one request each, counted by the server's SDK middleware -------
async function counted(request: () => Promise<Response>) {
  await (await request()).text(); // warm (signing keys, JWKS, tenant caches)
  server.send({ type: 'count-start' });
  await nextMessage('count-started');
  const res = await request();
  const status = res.status;
  await res.text();
  await new Promise((done) => setTimeout(done, 300)); // writes that finish after the answer
  server.send({ type: 'count-stop' });
  const { calls } = await nextMessage<{ calls: DynamoCall[] }>('counted');
  // Sequential round trips: the longest chain of calls each starting after the previous ended.
  let sequential = 0;
  let lastEnd = Number.NEGATIVE_INFINITY;
  for (const call of [...calls].sort((a, b) => a.end - b.end)) {
    if (call.start >= lastEnd) {
      sequential++;
      lastEnd = call.end;
    }
  }
  return {
    status,
    sequential,
    total: calls.length,
    capacityUnits: Math.round(calls.reduce((s, c) => s + c.capacity, 0) * 10) / 10,
    commands: calls.map((c) => c.command.replace(/Command$/, '')),
  };
}
const post = (url: string, headers: Record<string, string>, body: unknown) => () =>
  fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
let costRefresh = (await login(small.headers, small.emails[500] as string, PASSWORD)).refreshToken;
const cost = {
  passwordLogin: await counted(
    post(`${stack.apiUrl}/auth/login`, small.headers, { email: small.emails[1], password: PASSWORD }),
  ),
  refresh: await counted(async () => {
    const res = await fetch(`${stack.apiUrl}/auth/refresh`, {
      method: 'POST',
      headers: small.headers,
      body: JSON.stringify({ refreshToken: costRefresh }),
    });
    const clone = res.clone();
    if (res.status === 200) costRefresh = ((await clone.json()) as any).data.refreshToken;
    return res;
  }),
  usersMe: await counted(() => fetch(`${stack.apiUrl}/users/me`, { headers: bearer(member.accessToken) })),
  listUsers1k: await counted(() => fetch(`${stack.apiUrl}/users`, { headers: bearer(admin.accessToken) })),
  discovery: await counted(() =>
    fetch(`${stack.apiUrl}/auth/discovery?clientId=${small.tenant.publicApiKey}`, { headers: { origin: ORIGIN } }),
  ),
  createPlant: await counted(() =>
    fetch(`${stack.plantsUrl}/plants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${member.accessToken}` },
      body: JSON.stringify({ id: plantId++, name: 'Fern' }),
    }),
  ),
};
for (const [name, c] of Object.entries(cost)) {
  log(`cost ${name.padEnd(16)} ${c.sequential} sequential / ${c.total} total round trips, ${c.capacityUnits} CU`);
}
const costFigures = wanted('cost') ? await costSection() : undefined;

// --- the hosted pages: JavaScript per page, and the sign-in page's time to a usable form ----------
const webTenant = await createTenant(deps, {
  name: 'Web bench',
  adminEmail: 'admin@web.bench.test',
  origins: [ORIGIN],
});
const webOrigin = `http://${webTenant.subdomain}.localhost:${new URL(stack.apiUrl).port}`;
const web: WebFigures = {
  ...(await webBundleFigures()),
  signInReadyMs: await signInReadyMs(webOrigin),
  budgets: WEB_BUDGETS,
};
log(
  `hosted pages: sign-in ${web.signIn.jsGzipBytes} B gz, console ${web.console.jsGzipBytes} B gz, ready ${web.signInReadyMs.median} ms (${elapsed()})`,
);

// GET /users of a 100,000-user tenant, last of what uses the stack (200,000 more items slow DynamoDB Local down for
// whatever would follow): one request, gzip accepted as browsers and fetch ask, its time, its size on
// the wire and in Lambda's answer (the gzipped body base64-encoded), against Lambda's 6 MB.
seedStart = Date.now();
const huge = await seedTenant('bench100k', 100_000);
const seed100kMs = Date.now() - seedStart;
log(`seeded 100,000 users in ${seed100kMs} ms (${elapsed()})`);
const hugeAdmin = await login(huge.headers, huge.tenant.adminEmail, huge.tenant.adminPassword);
const listUsers100k = await (async () => {
  const started = performance.now();
  const res = await fetch(`${stack.apiUrl}/users`, {
    headers: { ...huge.headers, authorization: `Bearer ${hugeAdmin.accessToken}`, 'accept-encoding': 'gzip' },
  });
  const text = await res.text(); // fetch decodes the gzip: this is the list as the admin's browser gets it
  const ms = Math.round(performance.now() - started);
  const gzipBytes = Number(res.headers.get('content-length') ?? 0);
  const parsed = res.status === 200 ? (JSON.parse(text) as unknown) : undefined;
  const list = Array.isArray(parsed)
    ? parsed
    : (Object.values((parsed ?? {}) as Record<string, unknown>).find(Array.isArray) as unknown[] | undefined);
  // What Lambda itself answers API Gateway: the base64 body (4/3) and a few hundred bytes of status and headers.
  const lambdaResponseBytes = Math.ceil(gzipBytes / 3) * 4 + 512;
  return {
    status: res.status,
    ms,
    users: list?.length ?? 0,
    plainBytes: Buffer.byteLength(text),
    gzipBytes,
    lambdaResponseBytes,
    fitsUnderLambda6Mb: res.status === 200 && lambdaResponseBytes <= LAMBDA_RESPONSE_LIMIT,
    // The same list built by the route's own function (shared/admin/users.ts) in this process, without the function's
    // timeout: DynamoDB Local pages a 100,000-item Query far slower than DynamoDB does, so through the local route it
    // may not finish in 29 s; its size and gzip are what the route would answer.
    direct: await (async () => {
      const merchant = await merchantRepo(deps.store).get(huge.t);
      if (!merchant) throw new Error('the 100,000-user tenant is gone');
      const listStarted = performance.now();
      const users = await listUsers(deps, merchant);
      const listMs = Math.round(performance.now() - listStarted);
      const json = JSON.stringify(users);
      const zipped = gzipSync(json);
      const responseBytes = Math.ceil(zipped.length / 3) * 4 + 512;
      return {
        ms: listMs,
        users: users.length,
        plainBytes: Buffer.byteLength(json),
        gzipBytes: zipped.length,
        lambdaResponseBytes: responseBytes,
        fitsUnderLambda6Mb: responseBytes <= LAMBDA_RESPONSE_LIMIT,
        usersUnder6MbGzip: Math.floor((LAMBDA_RESPONSE_LIMIT - 512) / ((zipped.length * 4) / 3 / users.length)),
      };
    })(),
  };
})();
log(
  `listUsers(100,000) direct: ${listUsers100k.direct.users} users in ${listUsers100k.direct.ms} ms, ` +
    `${(listUsers100k.direct.plainBytes / 2 ** 20).toFixed(1)} MB, gzipped ${(listUsers100k.direct.gzipBytes / 2 ** 20).toFixed(2)} MB`,
);
log(
  `GET /users (100,000)     ${listUsers100k.status} in ${listUsers100k.ms} ms, ${listUsers100k.users} users, ` +
    `${(listUsers100k.plainBytes / 2 ** 20).toFixed(1)} MB, gzipped ${(listUsers100k.gzipBytes / 2 ** 20).toFixed(2)} MB ` +
    `(Lambda's answer ${(listUsers100k.lambdaResponseBytes / 2 ** 20).toFixed(2)} MB of 6) [${elapsed()}]`,
);

server.send({ type: 'stop' });
await new Promise((done) => server.once('exit', done));
const timing = await measureTiming();

// --- bundles and cold init ------------------------------------------------------------------
const bundleFigures = await bundles(env);
log(`bundled ${bundleFigures.length} routes (${elapsed()})`);

// --- results ----------------------------------------------------------------------------------
const cpus = os.cpus();
const results = {
  date: new Date().toISOString(),
  machine: {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? '?',
    cpuSpeedMHz: cpus[0]?.speed ?? 0,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
  },
  settings: {
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    runs: 3,
    limitSeconds: LIMIT_SECONDS,
    authRateLimitPerMinute: 1_000_000_000,
    mailDailyBudgetPerTenant: 1_000_000_000,
    signupMailDailyBudgetPerTenant: 1_000_000_000,
    signupsPerIpPerHour: 1_000_000_000,
    answerFloorMs: 0,
    autocannon: JSON.parse(readFileSync(join(BENCH_DIR, '..', 'node_modules', 'autocannon', 'package.json'), 'utf8'))
      .version,
  },
  seeding: { users1kMs: seed1kMs, users10kMs: seed10kMs, users100kMs: seed100kMs },
  endpoints,
  listUsers10k,
  listUsers100k,
  limits: { bareHttp, argon2Verify2: argon2, dynamoGetItem: dynamo.getItem, dynamoBatchGetItem: dynamo.batchGetItem },
  dynamoCost: cost,
  costPerMau: costFigures,
  sideBySide,
  bundles: bundleFigures,
  web,
  timing,
  totalSeconds: Math.round((Date.now() - startedAt) / 1000),
};
writeFileSync(join(BENCH_DIR, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(join(BENCH_DIR, 'RESULTS.md'), renderMarkdown(results));
log(`wrote bench/results.json and bench/RESULTS.md in ${results.totalSeconds} s`);
process.exit(0);
