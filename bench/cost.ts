// What one monthly active user costs on AWS, from what each request of a month's usage does on the local stack:
// the DynamoDB units AWS would bill for it (bench/server.ts billedUnits), the bytes its function logs, its handler's
// time and CPU, the size of its answer; and the prices below. `npm run bench -- --only cost` runs this alone.

import { identityRouteList } from '#functions/routes.ts';
import { memoryOf, type RouteDef } from '#shared/http/route.ts';
import { CONTEXT_DEFAULTS } from '../infra/config.ts';
import { CACHE_CONTROL } from '../web/security-headers.ts';
import type { DynamoCall, LoggedLines } from './server.ts';

/**
 * AWS list prices in USD, us-east-1, as published in November 2026; one table, so that a price change is one edit.
 * Free tiers are left out: a merchant with many users is past them.
 */
export const PRICES = {
  /** DynamoDB on demand: per write request unit, per read request unit. */
  dynamoWrite: 0.625 / 1e6,
  dynamoRead: 0.125 / 1e6,
  /** DynamoDB storage and continuous backups (PITR), per GB-month. */
  dynamoStorageGbMonth: 0.25,
  dynamoPitrGbMonth: 0.2,
  /** AWS Backup's warm storage of a DynamoDB backup, per GB-month (each backup is a full copy of the table). */
  dynamoBackupGbMonth: 0.1,
  /** API Gateway HTTP API, per request (the first 300 million a month). */
  apiRequest: 1.0 / 1e6,
  /** Lambda on arm64: per request, per GB-second. */
  lambdaRequest: 0.2 / 1e6,
  lambdaGbSecond: 0.0000133334,
  /**
   * CloudWatch Logs: ingestion per GB in the Standard class (the functions' logs) and the Infrequent Access class (the
   * APIs' access logs, infra/http-api.ts); each event counts 26 bytes more; storage per GB-month (compressed ~6×).
   */
  logsIngestGb: 0.5,
  logsIngestInfrequentGb: 0.25,
  logsEventOverheadBytes: 26,
  logsStorageGbMonth: 0.03,
  /** X-Ray: per trace recorded. */
  xrayTrace: 5.0 / 1e6,
  /** SES: per mail sent. */
  sesMail: 0.1 / 1000,
  /** CloudFront (North America): per HTTPS request, per GB out, per CloudFront Functions invocation. */
  cloudfrontRequest: 0.01 / 10_000,
  cloudfrontGb: 0.085,
  cloudfrontFunction: 0.1 / 1e6,
  /** KMS: per request (a Decrypt). */
  kmsRequest: 0.03 / 10_000,
  /** Data out to the internet, per GB (API answers sent directly, not through CloudFront). */
  transferOutGb: 0.09,
} as const;

/** Cognito's list prices per MAU, for comparison (the README quotes them). */
export const COGNITO_PER_MAU = { lite: 0.0055, essentials: 0.015 } as const;

/** What the model assumes where the local stack cannot measure; each says why. */
export const ASSUMPTIONS = {
  /** Share of invocations that are cold starts (Lambda bills the INIT phase), and what one bills. */
  coldStartShare: 0.02,
  coldStartBilledMs: 300,
  /** KMS Decrypts per cold start: the key the function needs (signing key or refresh successor key), once. */
  kmsDecryptsPerColdStart: 1,
  /**
   * Lambda's own lines per invocation: none, as its system log level is WARN (infra/http-api.ts); at INFO they
   * would be START, END and REPORT (with the X-Ray trace id), about 375 bytes in 3 events.
   */
  lambdaPlatformLogBytes: 0,
  lambdaPlatformLogEvents: 0,
  /** The HTTP API's access log line (infra/http-api.ts ACCESS_LOG_FIELDS, typical values). */
  accessLogBytes: 280,
  /** X-Ray's default sampling rule beyond the first request each second: 5 % of requests are traced. */
  xraySampledShare: 0.05,
  /** A vCPU is Lambda's at 1,769 MB; below that, CPU time stretches by the share of it the memory buys. */
  fullVcpuMb: 1769,
  /** Hosted pages: the API calls each page load makes through CloudFront's /api/* (also counted as API requests). */
  apiCallsPerPageLoad: 2,
  /** How long what a user's month writes stays: activity 400 days, sessions 8 days. */
  activityKeptMonths: 400 / 30,
  /** The daily backups kept (infra/table.ts; context `backup: daily` and `backupRetentionDays`): each a whole table. */
  backupsKept: CONTEXT_DEFAULTS.backupRetentionDays,
  /** Bytes DynamoDB stores per item beyond its attributes (storage is billed on them too). */
  itemOverheadBytes: 100,
} as const;

/** One kind of request in the usage model: how many a month, and its measured figures. */
export interface MeasuredRoute {
  name: string;
  /** METHOD /path, for the table. */
  what: string;
  perMau: number;
  status: number;
  reads: number;
  writes: number;
  /** Round trips to DynamoDB. */
  calls: number;
  logBytes: number;
  logEvents: number;
  handlerMs: number;
  cpuMs: number;
  memoryMb: number;
  responseBytes: number;
  /** Activity records the request wrote (kept 400 days). */
  activityRecords: number;
  /** Each DynamoDB call with what it bills: `TransactWriteItems 10w`, `BatchGetItem 3r`. */
  commands: string[];
}

export interface CostLine {
  line: string;
  basis: string;
  dollars: number;
}

export interface CostFigures {
  routes: MeasuredRoute[];
  lines: CostLine[];
  perMau: number;
  usage: typeof USAGE_MODEL;
  pageLoad: PageLoad;
  /** CPU the gateway and the harness spend on any request, taken off each route's. */
  baselineCpuMs: number;
  /** Bytes of the largest item of each kind the user holds at the end. */
  itemSizes: Record<string, number>;
}

/**
 * A month of one user: 8 password logins, 120 refreshes, 20 other calls (one sends the month's mail), 5 hosted-page
 * loads. The 20 others are what a signed-in user and their pages do most.
 */
export const USAGE_MODEL = {
  passwordLogin: 8,
  refresh: 120,
  getMe: 12,
  listSessions: 2,
  updateMe: 1,
  logout: 2,
  discovery: 1,
  forgotPassword: 1,
  wrongPassword: 1,
  pageLoads: 5,
  mails: 1,
} as const;

/** The sign-in page as a browser fetches it: its files, their gzipped bytes, and the HTML's alone. */
export interface PageLoad {
  requests: number;
  bytes: number;
  htmlBytes: number;
}

/** Requests sent before a repeatable request is counted, so that it is measured as a warm function serves it. */
const WARM_UP_REQUESTS = 30;
/** Warm-ups of a request that runs once (on another user or session): few, as each mails or counts a failure. */
const WARM_UP_ONCE_RUN = 3;

/** What one counted request brought back from the server process. */
export interface Counted {
  status: number;
  calls: DynamoCall[];
  logged: LoggedLines;
  cpuMs: number;
  responseBytes: number;
}

const ROUTE_OF: Record<string, RouteDef | undefined> = Object.fromEntries(
  identityRouteList.map((route) => [route.operationId, route]),
);

/**
 * A logged line as the function writes it on AWS: the bench observes the DynamoDB client to count its calls, which
 * turns the direct read off (shared/store/direct-read.ts), and each read the client then makes is counted on the line
 * as a `DirectReadFallback`; on AWS there is none. The counter and its metric are taken out.
 */
function asOnLambda(text: string): string {
  let line: { DirectReadFallback?: number; _aws?: { CloudWatchMetrics?: { Metrics: { Name: string }[] }[] } };
  try {
    line = JSON.parse(text);
  } catch {
    return text;
  }
  if (line.DirectReadFallback === undefined || !line._aws?.CloudWatchMetrics) return text;
  delete line.DirectReadFallback;
  line._aws.CloudWatchMetrics = line._aws.CloudWatchMetrics.map((d) => ({
    ...d,
    Metrics: d.Metrics.filter((m) => m.Name !== 'DirectReadFallback'),
  })).filter((d) => d.Metrics.length > 0);
  return JSON.stringify(line);
}

/** The figures of one counted request, for the route it went to. */
export function measuredRoute(
  name: string,
  operationId: string,
  perMau: number,
  counted: Counted,
  baselineCpuMs = 0,
): MeasuredRoute {
  const route = ROUTE_OF[operationId];
  if (!route) throw new Error(`no route ${operationId}`);
  const summary = counted.logged.lines
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        return {};
      }
    })
    .find((line) => line.message === 'request');
  const handlerMs = Number(summary?.latencyMs ?? summary?.Latency ?? 0);
  const sum = (pick: (c: DynamoCall) => number) =>
    Math.round(counted.calls.reduce((total, call) => total + pick(call), 0) * 10) / 10;
  return {
    name,
    what: `${route.method} ${route.path}`,
    perMau,
    status: counted.status,
    reads: sum((c) => c.billed.reads),
    writes: sum((c) => c.billed.writes),
    calls: counted.calls.length,
    logBytes: counted.logged.lines.reduce((sum, line) => sum + Buffer.byteLength(asOnLambda(line)) + 1, 0),
    logEvents: counted.logged.lines.length,
    handlerMs,
    cpuMs: Math.max(0, Math.round((counted.cpuMs - baselineCpuMs) * 10) / 10),
    memoryMb: memoryOf(route),
    responseBytes: counted.responseBytes,
    activityRecords: 0,
    commands: counted.calls.map(
      (c) =>
        `${c.command.replace(/Command$/, '')} ${c.billed.writes > 0 ? `${c.billed.writes}w` : `${c.billed.reads}r`}`,
    ),
  };
}

/**
 * Lambda's billed time for a request measured here: its handler's wall time, with the CPU part stretched by the
 * share of a vCPU its memory size buys (waiting on DynamoDB does not stretch). Rounded up to the millisecond.
 */
function lambdaMs(route: MeasuredRoute): number {
  const share = Math.min(1, route.memoryMb / ASSUMPTIONS.fullVcpuMb);
  const cpu = Math.min(route.cpuMs, route.handlerMs);
  return Math.ceil(route.handlerMs - cpu + cpu / share);
}

/** Dollars per MAU by line, from the measured routes, the page load and a user's stored bytes. */
export function costLines(
  measured: MeasuredRoute[],
  pageLoad: PageLoad,
  storedBytesPerUser: number,
  activityBytesPerMonth: number,
): CostLine[] {
  const each = (pick: (r: MeasuredRoute) => number) => measured.reduce((sum, r) => sum + r.perMau * pick(r), 0);
  const requests = each(() => 1);
  const writes = each((r) => r.writes);
  const reads = each((r) => r.reads);
  const gbSeconds = each((r) => (r.memoryMb / 1024) * (lambdaMs(r) / 1000));
  const coldGbSeconds = each(
    (r) => ASSUMPTIONS.coldStartShare * (r.memoryMb / 1024) * (ASSUMPTIONS.coldStartBilledMs / 1000),
  );
  const handlerLogBytes = each((r) => r.logBytes + PRICES.logsEventOverheadBytes * r.logEvents);
  const functionLogBytes =
    handlerLogBytes +
    requests *
      (ASSUMPTIONS.lambdaPlatformLogBytes + PRICES.logsEventOverheadBytes * ASSUMPTIONS.lambdaPlatformLogEvents);
  const accessLogBytes = requests * (ASSUMPTIONS.accessLogBytes + PRICES.logsEventOverheadBytes);
  const logBytes = functionLogBytes + accessLogBytes;
  const answerBytes = each((r) => r.responseBytes);
  const pageLoads = USAGE_MODEL.pageLoads;
  // The pages' scripts and styles have hashed names and are served immutable (web/security-headers.ts): a
  // returning browser fetches them once, and only the HTML on its other loads.
  const cached = CACHE_CONTROL.asset.includes('immutable');
  const staticRequests = cached ? pageLoad.requests + (pageLoads - 1) : pageLoads * pageLoad.requests;
  const staticBytes = cached ? pageLoad.bytes + (pageLoads - 1) * pageLoad.htmlBytes : pageLoads * pageLoad.bytes;
  const cloudfrontRequests = staticRequests + pageLoads * ASSUMPTIONS.apiCallsPerPageLoad;
  const gb = (bytes: number) => bytes / 1e9;
  // Kept: the user's items, and the activity records of the months the log keeps.
  const stored = storedBytesPerUser + activityBytesPerMonth * (ASSUMPTIONS.activityKeptMonths - 1);
  const round = (n: number) => Math.round(n);
  return [
    {
      line: 'DynamoDB writes',
      basis: `${round(writes)} write units (transactions doubled, index writes counted)`,
      dollars: writes * PRICES.dynamoWrite,
    },
    {
      line: 'DynamoDB reads',
      basis: `${round(reads)} read units (missing items counted)`,
      dollars: reads * PRICES.dynamoRead,
    },
    {
      line: 'DynamoDB storage and PITR',
      basis: `${(stored / 1024).toFixed(1)} KB kept per user (activity for ${Math.round(ASSUMPTIONS.activityKeptMonths)} months)`,
      dollars: gb(stored) * (PRICES.dynamoStorageGbMonth + PRICES.dynamoPitrGbMonth),
    },
    {
      line: 'DynamoDB backups',
      basis: `${ASSUMPTIONS.backupsKept} daily backups of those bytes, each a full copy (the default \`backup: daily\`)`,
      dollars: gb(stored) * ASSUMPTIONS.backupsKept * PRICES.dynamoBackupGbMonth,
    },
    { line: 'API Gateway', basis: `${round(requests)} requests`, dollars: requests * PRICES.apiRequest },
    {
      line: 'Lambda',
      basis: `${round(requests)} invocations, ${(gbSeconds + coldGbSeconds).toFixed(2)} GB-s (${(ASSUMPTIONS.coldStartShare * 100).toFixed(0)} % cold starts)`,
      dollars: requests * PRICES.lambdaRequest + (gbSeconds + coldGbSeconds) * PRICES.lambdaGbSecond,
    },
    {
      line: 'CloudWatch Logs',
      basis: `${Math.round(logBytes / requests)} B a request (the function's line ${Math.round(functionLogBytes / requests)}, the access log's ${Math.round(accessLogBytes / requests)} at the Infrequent Access price; 26 B an event each)`,
      dollars:
        gb(functionLogBytes) * PRICES.logsIngestGb +
        gb(accessLogBytes) * PRICES.logsIngestInfrequentGb +
        (gb(logBytes) / 6) * PRICES.logsStorageGbMonth,
    },
    {
      line: 'X-Ray',
      basis: `${(ASSUMPTIONS.xraySampledShare * 100).toFixed(0)} % of requests traced (the default rule)`,
      dollars: requests * ASSUMPTIONS.xraySampledShare * PRICES.xrayTrace,
    },
    { line: 'SES', basis: `${USAGE_MODEL.mails} mail`, dollars: USAGE_MODEL.mails * PRICES.sesMail },
    {
      line: 'CloudFront',
      basis: `${pageLoads} page loads: ${round(cloudfrontRequests)} requests and functions, ${Math.round(staticBytes / 1024)} KB${cached ? ' (scripts and styles cached after the first)' : ''}`,
      dollars:
        cloudfrontRequests * (PRICES.cloudfrontRequest + PRICES.cloudfrontFunction) +
        gb(staticBytes) * PRICES.cloudfrontGb,
    },
    {
      line: 'KMS',
      basis: `${(requests * ASSUMPTIONS.coldStartShare * ASSUMPTIONS.kmsDecryptsPerColdStart).toFixed(1)} Decrypts (one a cold start)`,
      dollars: requests * ASSUMPTIONS.coldStartShare * ASSUMPTIONS.kmsDecryptsPerColdStart * PRICES.kmsRequest,
    },
    {
      line: 'Data transfer out',
      basis: `${Math.round(answerBytes / 1024)} KB of API answers`,
      dollars: gb(answerBytes) * PRICES.transferOutGb,
    },
  ];
}

const usd = (dollars: number) => `$${dollars.toFixed(7)}`;

/** The section's text: per route, then per line; its last line is the total. */
export function renderCost(figures: CostFigures): string[] {
  const lines = [
    '| request | a month | status | read units | write units | round trips | log bytes (lines) | handler ms (CPU) | MB |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of figures.routes) {
    lines.push(
      `| ${r.name}: \`${r.what}\` | ${r.perMau} | ${r.status} | ${r.reads} | ${r.writes} | ${r.calls} | ${r.logBytes} (${r.logEvents}) | ${r.handlerMs} (${r.cpuMs}) | ${r.memoryMb} |`,
    );
  }
  lines.push('', 'What each request sends to DynamoDB, and what it bills (r: read units, w: write units):', '');
  for (const r of figures.routes) lines.push(`- ${r.name}: ${r.commands.join(', ') || 'nothing'}`);
  const sizes = Object.entries(figures.itemSizes).map(([kind, size]) => `${kind} ${size} B`);
  lines.push('', `The user's largest items: ${sizes.join(', ')}.`);
  lines.push('', '| line | basis | $ per MAU | share |', '|---|---|---|---|');
  for (const l of figures.lines) {
    lines.push(`| ${l.line} | ${l.basis} | ${usd(l.dollars)} | ${Math.round((l.dollars / figures.perMau) * 100)} % |`);
  }
  const times = (price: number) => `${(price / figures.perMau).toFixed(1)} times this`;
  lines.push(
    '',
    `Cognito's list prices: Lite $${COGNITO_PER_MAU.lite}, Essentials $${COGNITO_PER_MAU.essentials} per MAU (${times(COGNITO_PER_MAU.lite)}, ${times(COGNITO_PER_MAU.essentials)}).`,
    '',
    `cost per MAU: ${usd(figures.perMau)}`,
  );
  return lines;
}

/** DynamoDB's size of an item: each attribute's name and value (numbers about a byte per two digits). */
export function itemBytes(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return Math.ceil(String(Math.abs(value)).replace(/[.-]/g, '').length / 2) + 1;
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, v) => sum + 1 + itemBytes(v), 0);
  if (typeof value === 'object') {
    return (
      3 +
      Object.entries(value as Record<string, unknown>).reduce(
        (sum, [name, v]) => sum + 1 + Buffer.byteLength(name) + itemBytes(v),
        0,
      )
    );
  }
  return 0;
}

export interface CostContext {
  apiUrl: string;
  /** The tenant's headers (content-type, x-app-id, x-mid-key). */
  headers: Record<string, string>;
  email: string;
  /** Another user of the tenant, with the same password: the one the login's warm-up signs in. */
  warmUpEmail: string;
  password: string;
  /** The tenant's public client key and an allowed Origin (discovery, as the hosted pages ask). */
  publicApiKey: string;
  origin: string;
  /** Sends a request while the server counts what it does. */
  count: (request: () => Promise<Response>) => Promise<Counted>;
  /** Every stored item of the user (profile, claim, sessions, devices) and of their activity log. */
  itemsOf: (userId: string) => Promise<{ user: Record<string, unknown>[]; activity: Record<string, unknown>[] }>;
  pageLoad: PageLoad;
}

/**
 * A returning user's month, request by request, each counted on its own after a warm-up (the process's caches
 * and the user's device are known, as for most requests on AWS). Stored bytes: what the user's items hold at the
 * end, and the activity records a month adds.
 */
export async function measureCostPerMau(ctx: CostContext): Promise<CostFigures> {
  const url = (path: string) => `${ctx.apiUrl}${path}`;
  const json = (method: string, path: string, body?: unknown, token?: string) => () =>
    fetch(url(path), {
      method,
      headers: { ...ctx.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const signIn = async () => {
    const res = await json('POST', '/auth/login', { email: ctx.email, password: ctx.password })();
    const body = (await res.json()) as any;
    if (res.status !== 200) throw new Error(`cost: login ${res.status} ${JSON.stringify(body)}`);
    return body.data as { accessToken: string; refreshToken: string; user: { id: string } };
  };
  const first = await signIn();
  const userId = first.user.id;
  await signIn();
  const routes: MeasuredRoute[] = [];
  // What the local gateway and this harness spend on a request whatever the route (the lightest route's CPU, the
  // median of 5): not the function's, so taken off each route's.
  const baseline: number[] = [];
  for (let i = 0; i < 6; i++) {
    const { cpuMs } = await ctx.count(() => fetch(url('/health')));
    if (i > 0) baseline.push(cpuMs);
  }
  const baselineCpuMs = baseline.sort((a, b) => a - b)[2] ?? 0;
  const activityCount = async () => (await ctx.itemsOf(userId)).activity.length;
  /**
   * One kind of request, after WARM_UP_REQUESTS of it: its DynamoDB units, log bytes and activity records from the
   * first counted run; its time and CPU the medians of `runs` (a busy machine stretches single runs). Requests that
   * change what the next one finds (a mail, a failure counted, a session ended) run once, after a few warm-ups of
   * another user's (or another session's) same request, so that their function holds what a busy one holds (the
   * signing key, its tenant's copy) as every other route's does.
   */
  const measure = async (
    name: string,
    operationId: string,
    request: () => Promise<Response>,
    runs = 5,
    warmUp = request,
  ) => {
    // Warm: Lambda serves most requests from a warm process whose JIT has compiled the route's code.
    const warmUps = runs > 1 ? WARM_UP_REQUESTS : warmUp === request ? 0 : WARM_UP_ONCE_RUN;
    for (let i = 0; i < warmUps; i++) await (await warmUp()).arrayBuffer();
    const before = await activityCount();
    const first = await ctx.count(request);
    const activityRecords = (await activityCount()) - before;
    const samples = [first];
    for (let i = 1; i < runs; i++) samples.push(await ctx.count(request));
    const perMau = USAGE_MODEL[name as keyof typeof USAGE_MODEL];
    const measured = samples.map((counted) => measuredRoute(name, operationId, perMau, counted, baselineCpuMs));
    const median = (pick: (r: MeasuredRoute) => number) => measured.map(pick).sort((a, b) => a - b)[runs >> 1] ?? 0;
    routes.push({
      ...(measured[0] as MeasuredRoute),
      handlerMs: median((r) => r.handlerMs),
      cpuMs: median((r) => r.cpuMs),
      activityRecords,
    });
  };

  // Warmed on another user: thirty sessions would grow this user's profile past what a month of 8 logins leaves.
  await measure(
    'passwordLogin',
    'login',
    json('POST', '/auth/login', { email: ctx.email, password: ctx.password }),
    5,
    json('POST', '/auth/login', { email: ctx.warmUpEmail, password: ctx.password }),
  );
  let refreshToken = (await signIn()).refreshToken;
  await measure('refresh', 'refresh', async () => {
    const res = await json('POST', '/auth/refresh', { refreshToken })();
    const body = (await res.clone().json()) as any;
    if (res.status === 200) refreshToken = body.data.refreshToken;
    return res;
  });
  const session = await signIn();
  await measure('getMe', 'getMe', json('GET', '/users/me', undefined, session.accessToken));
  await measure('listSessions', 'listMySessions', json('GET', '/users/me/sessions', undefined, session.accessToken));
  let n = 0;
  await measure('updateMe', 'updateMe', () =>
    json('PATCH', '/users/me', { firstName: `Ada${n++}` }, session.accessToken)(),
  );
  await measure('discovery', 'discovery', () =>
    fetch(url(`/auth/discovery?clientId=${ctx.publicApiKey}`), { headers: { origin: ctx.origin } }),
  );
  await measure(
    'forgotPassword',
    'forgotPassword',
    json('POST', '/auth/forgot-password', { email: ctx.email }),
    1,
    json('POST', '/auth/forgot-password', { email: ctx.warmUpEmail }),
  );
  await measure(
    'wrongPassword',
    'login',
    json('POST', '/auth/login', { email: ctx.email, password: `${ctx.password}-wrong` }),
    1,
    json('POST', '/auth/login', { email: ctx.warmUpEmail, password: `${ctx.password}-wrong` }),
  );
  const ending = await signIn();
  // Another session of the same user each time: signed in, then out, so the user's sessions are as before.
  const otherSessionLogout = async () => json('DELETE', '/auth/logout', undefined, (await signIn()).accessToken)();
  await measure(
    'logout',
    'logout',
    json('DELETE', '/auth/logout', undefined, ending.accessToken),
    1,
    otherSessionLogout,
  );

  const { user, activity } = await ctx.itemsOf(userId);
  const bytes = (items: Record<string, unknown>[]) =>
    items.reduce((sum, item) => sum + itemBytes(item) + ASSUMPTIONS.itemOverheadBytes, 0);
  // The month's activity records: those each measured request wrote, times the model's count of it.
  const perRecord = activity.length > 0 ? bytes(activity) / activity.length : 0;
  const recordsPerMonth = routes.reduce((sum, r) => sum + r.perMau * r.activityRecords, 0);
  const lines = costLines(routes, ctx.pageLoad, bytes(user), perRecord * recordsPerMonth);
  // The largest item of each kind the user holds: writes bill per started KB of them.
  const itemSizes: Record<string, number> = {};
  for (const item of [...user, ...activity]) {
    const kind = String(item.entity ?? '?');
    itemSizes[kind] = Math.max(itemSizes[kind] ?? 0, itemBytes(item));
  }
  const perMau = lines.reduce((sum, l) => sum + l.dollars, 0);
  return { routes, lines, perMau, usage: USAGE_MODEL, pageLoad: ctx.pageLoad, baselineCpuMs, itemSizes };
}
