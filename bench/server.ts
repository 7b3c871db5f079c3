// The system under test, in its own process (so that the load generator does not share its event
// loop): the local stack in memory, with a DynamoDB middleware that counts round trips and
// consumed capacity while the parent asks it to. Talks to bench/run.ts over IPC.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import sesStore from 'aws-ses-v2-local/dist/store.js';
import { startLocalStack } from '#local/stack.ts';
import { markObserved } from '#shared/store/direct-read.ts';
import { itemBytes } from './cost.ts';

export interface DynamoCall {
  command: string;
  start: number;
  end: number;
  /** What DynamoDB Local reported (ConsumedCapacity). */
  capacity: number;
  /** What DynamoDB on AWS bills for the call (billedUnits). */
  billed: { reads: number; writes: number };
}

/** The lines the handlers wrote while counting: what CloudWatch Logs would ingest from the functions. */
export interface LoggedLines {
  bytes: number;
  lines: string[];
}

/** Commands that accept ReturnConsumedCapacity. */
const CAPACITY_COMMANDS = new Set([
  'GetItemCommand',
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'QueryCommand',
  'ScanCommand',
  'BatchGetItemCommand',
  'BatchWriteItemCommand',
  'TransactGetItemsCommand',
  'TransactWriteItemsCommand',
  'GetCommand',
  'PutCommand',
  'UpdateCommand',
  'DeleteCommand',
  'BatchGetCommand',
  'BatchWriteCommand',
  'TransactGetCommand',
  'TransactWriteCommand',
]);

let counting = false;
let calls: DynamoCall[] = [];
let logged: LoggedLines = { bytes: 0, lines: [] };
let countCpuStart = 0;

// The functions' log lines (the handlers run in this process and write to stdout and stderr, as on Lambda), kept
// while counting; the parent reads their bytes (CloudWatch Logs bills them) and the summary line's latency.
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (counting) {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
      logged.bytes += Buffer.byteLength(text);
      logged.lines.push(...text.split('\n').filter((line) => line.length > 0));
    }
    return write(chunk, ...rest);
  }) as typeof stream.write;
}

interface Consumed {
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

const consumedOf = (output: unknown): Consumed[] => {
  const consumed = (output as { ConsumedCapacity?: Consumed | Consumed[] } | undefined)?.ConsumedCapacity;
  return Array.isArray(consumed) ? consumed : consumed ? [consumed] : [];
};

function capacityOf(output: unknown): number {
  return consumedOf(output).reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
}

const WRITES = /^(Put|Update|Delete|BatchWrite|TransactWrite)/;

/** A client of its own for the sizes of a transaction's items: never counted (its stack is marked as done). */
let sizer: DynamoDBDocumentClient | undefined;

/** An AttributeValue map (the low-level command's) or a plain one (the document command's), as plain values. */
const plain = (map: Record<string, any>) =>
  Object.values(map).some((v) => v && typeof v === 'object' && ('S' in v || 'N' in v)) ? unmarshall(map) : map;

/**
 * A transaction's billed writes: each item twice the KB of the larger of itself before and after (at least 1),
 * read around the transaction by a client that is not counted.
 */
async function transactionSizes(input: any): Promise<{ writes: () => Promise<number> }> {
  const targets: { table: string; key: Record<string, unknown> }[] = [];
  for (const entry of input?.TransactItems ?? []) {
    const action = entry.Put ?? entry.Update ?? entry.Delete ?? entry.ConditionCheck;
    if (!action) continue;
    const key = plain(entry.Put ? { pk: entry.Put.Item.pk, sk: entry.Put.Item.sk } : action.Key);
    targets.push({ table: action.TableName, key: { pk: key.pk, sk: key.sk } });
  }
  const sizes = () =>
    Promise.all(
      targets.map(async ({ table, key }) => {
        const { Item } = await (sizer as DynamoDBDocumentClient).send(
          new GetCommand({ TableName: table, Key: key, ConsistentRead: true }),
        );
        return Item ? itemBytes(Item) : 0;
      }),
    );
  const before = await sizes();
  return {
    writes: async () => {
      const after = await sizes();
      return before.reduce((sum, size, i) => sum + 2 * Math.max(1, Math.ceil(Math.max(size, after[i] ?? 0) / 1024)), 0);
    },
  };
}

/**
 * What DynamoDB on AWS bills for one call, from what DynamoDB Local reports (which already rounds item sizes, 1 KB
 * for a write, the larger of the item before and after, 4 KB for a read, and counts index writes) and what it
 * leaves out:
 * - a transactional item costs twice (2 units per KB written, 2 per 4 KB read), whatever its kind (a ConditionCheck
 *   too); DynamoDB Local reports a transaction's Puts once and its Updates twice, so its writes are reckoned here
 *   from the sizes of its items before and after (transactionWrites); index writes it causes are plain writes;
 * - a key BatchGetItem asks for and does not find still costs a read (1 unit, 0.5 eventually consistent), as a
 *   GetItem of a missing item does;
 * - a conditional write whose condition fails still costs a write (1 unit: the items here are under 1 KB), and a
 *   cancelled transaction the writes of its items.
 */
function billedUnits(command: string, input: any, output: unknown, error: unknown): DynamoCall['billed'] {
  const name = command.replace(/(Item)?(Items)?Command$/, '');
  if (error) {
    const kind = (error as { name?: string }).name;
    if (kind === 'ConditionalCheckFailedException') return { reads: 0, writes: 1 };
    if (kind === 'TransactionCanceledException') return { reads: 0, writes: 2 * (input?.TransactItems?.length ?? 0) };
    return { reads: 0, writes: 0 };
  }
  let table = 0;
  let indexes = 0;
  for (const c of consumedOf(output)) {
    const onIndexes = Object.values(c.GlobalSecondaryIndexes ?? {}).reduce((sum, i) => sum + (i.CapacityUnits ?? 0), 0);
    indexes += onIndexes;
    table += c.Table?.CapacityUnits ?? (c.CapacityUnits ?? 0) - onIndexes;
  }
  if (name.startsWith('TransactWrite')) return { reads: 0, writes: indexes };
  if (WRITES.test(name)) return { reads: 0, writes: table + indexes };
  if (name.startsWith('TransactGet')) return { reads: 2 * table, writes: 0 };
  if (name.startsWith('BatchGet')) {
    let missing = 0;
    let perMissing = 1;
    for (const [tableName, request] of Object.entries(input?.RequestItems ?? {}) as [string, any][]) {
      const found = (output as any)?.Responses?.[tableName]?.length ?? 0;
      const unprocessed = (output as any)?.UnprocessedKeys?.[tableName]?.Keys?.length ?? 0;
      missing += Math.max(0, (request.Keys?.length ?? 0) - found - unprocessed);
      if (!request.ConsistentRead) perMissing = 0.5;
    }
    return { reads: table + indexes + missing * perMissing, writes: 0 };
  }
  return { reads: table + indexes, writes: 0 };
}

// Every DynamoDB client the handlers build (and the document clients over them, which share the
// inner client's middleware stack) goes through the smithy Client.prototype.send: hook it once
// per middleware stack, without touching shared/, on its first call while counting.
const instrumented = new WeakSet<object>();
for (const proto of new Set([
  Object.getPrototypeOf(DynamoDBClient.prototype),
  Object.getPrototypeOf(DynamoDBDocumentClient.prototype),
])) {
  const send = proto.send as (...args: unknown[]) => unknown;
  proto.send = function (this: any, ...args: unknown[]) {
    const stack = this.middlewareStack;
    // Only once the parent counts: an observed client has no direct reads (shared/store/direct-read.ts), and the
    // load parts measure the clients as Lambda runs them.
    if (counting && this.config?.serviceId === 'DynamoDB' && stack && !instrumented.has(stack)) {
      instrumented.add(stack);
      markObserved(this);
      stack.add(
        (next: any, context: any) => async (mwArgs: any) => {
          if (!counting) return next(mwArgs);
          const command = String(context.commandName ?? '?');
          if (CAPACITY_COMMANDS.has(command)) mwArgs.input.ReturnConsumedCapacity = 'INDEXES';
          const transaction = command.startsWith('TransactWrite') ? await transactionSizes(mwArgs.input) : undefined;
          const start = performance.now();
          try {
            const result = await next(mwArgs);
            const end = performance.now();
            const billed = billedUnits(command, mwArgs.input, result.output, undefined);
            if (transaction) billed.writes += await transaction.writes();
            calls.push({ command, start, end, capacity: capacityOf(result.output), billed });
            return result;
          } catch (error) {
            const billed = billedUnits(command, mwArgs.input, undefined, error);
            calls.push({ command, start, end: performance.now(), capacity: 0, billed });
            throw error;
          }
        },
        { step: 'initialize', name: 'benchCountRoundTrips', priority: 'high' },
      );
    }
    return send.apply(this, args);
  };
}

const stack = await startLocalStack({
  port: 0,
  sesPort: 0,
  plantsPort: 0,
  secretsKey: process.env.BENCH_SECRETS_KEY as string,
  answerFloorMs: 0,
  authRateLimitPerMinute: 1_000_000_000,
  // The bench measures throughput, not the tenant's mail budget (the code-login flow mails thousands of codes).
  mailDailyBudgetPerTenant: 1_000_000_000,
  signupMailDailyBudgetPerTenant: 1_000_000_000,
  signupsPerIpPerHour: 1_000_000_000,
});

{
  const client = new DynamoDBClient({
    endpoint: stack.dynamoEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  instrumented.add(client.middlewareStack);
  sizer = DynamoDBDocumentClient.from(client);
}

// --- CPU accounting: this process (handlers, gateway, argon2's threads) and DynamoDB Local's JVM ----
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (ms) of this process's DynamoDB Local JVM: the java child, read from /proc. */
function jvmCpuMs(): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields[1] is the parent pid; utime and stime are fields 14 and 15 of stat (11, 12 here).
      if (Number(fields[1]) !== process.pid || !stat.includes('(java)')) continue;
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
    } catch {
      // The process ended while we read.
    }
  }
  return 0;
}

const processCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const inspector = new Session();
inspector.connect();
let cpuStart = { process: 0, jvm: 0, at: 0 };

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** Where the main thread's samples fall: by package (or our folder), and the top functions by self time. */
function summarise(profile: { nodes: ProfileNode[]; samples?: number[]; startTime: number; endTime: number }) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const hits = new Map<number, number>();
  for (const id of profile.samples ?? []) hits.set(id, (hits.get(id) ?? 0) + 1);
  const total = profile.samples?.length ?? 0;
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, count] of hits) {
    const { functionName, url, lineNumber } = (byId.get(id) as ProfileNode).callFrame;
    const group = groupOf(functionName, url);
    groups.set(group, (groups.get(group) ?? 0) + count);
    const name = `${functionName || '(anonymous)'} ${shortUrl(url)}${url ? `:${lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + count);
  }
  const share = (entries: Map<string, number>, top: number) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, count]) => ({ name, percent: Math.round((count / Math.max(total, 1)) * 1000) / 10 }));
  return { samples: total, groups: share(groups, 12), functions: share(functions, 15) };
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) return url.slice(modules + 'node_modules/'.length);
  for (const folder of ['/shared/', '/functions/', '/local/', '/bench/']) {
    const at = url.lastIndexOf(folder);
    if (at >= 0) return url.slice(at + 1);
  }
  return url;
}

function groupOf(functionName: string, url: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return 'node: (core)';
  for (const folder of ['shared', 'functions', 'local', 'bench']) if (url.includes(`/${folder}/`)) return `${folder}/`;
  return url;
}

/**
 * The e-mail code login's code, as a mail reader would find it: the latest mail the SES emulator
 * (in this process) holds for the address. The bench asks over IPC instead of polling the
 * emulator's /store over HTTP, which answers every mail ever sent and would load the machine.
 */
function latestCodeTo(to: string): string | undefined {
  const { emails } = (
    sesStore as { getStoreReadonly(): { emails: { destination: { to: string[] }; body: { text?: string } }[] } }
  ).getStoreReadonly();
  for (let i = emails.length - 1; i >= 0; i--) {
    const mail = emails[i];
    if (mail?.destination.to.some((recipient) => recipient.includes(to))) {
      return /^\s*(\d{6})\s*$/m.exec(mail.body.text ?? '')?.[1];
    }
  }
  return undefined;
}

process.on('message', async (message: { type: string; profile?: boolean; to?: string; id?: number }) => {
  if (message.type === 'mail-code') {
    process.send?.({ type: 'mail-code', id: message.id, code: latestCodeTo(message.to ?? '') });
  } else if (message.type === 'clear-mail') {
    (sesStore as { clearStore(): void }).clearStore();
  } else if (message.type === 'measure-start') {
    if (message.profile) {
      await inspector.post('Profiler.enable');
      await inspector.post('Profiler.setSamplingInterval', { interval: 500 });
      await inspector.post('Profiler.start');
    }
    cpuStart = { process: processCpuMs(), jvm: jvmCpuMs(), at: performance.now() };
    process.send?.({ type: 'measure-started' });
  } else if (message.type === 'measure-stop') {
    const cpu = {
      wallMs: performance.now() - cpuStart.at,
      serverCpuMs: processCpuMs() - cpuStart.process,
      jvmCpuMs: jvmCpuMs() - cpuStart.jvm,
    };
    let profile: ReturnType<typeof summarise> | undefined;
    if (message.profile) {
      const { profile: raw } = await inspector.post('Profiler.stop');
      await inspector.post('Profiler.disable');
      profile = summarise(raw as never);
      // BENCH_PROFILE_DIR: the raw profile too, for Chrome DevTools (Performance, load profile) or a closer look.
      if (process.env.BENCH_PROFILE_DIR) {
        mkdirSync(process.env.BENCH_PROFILE_DIR, { recursive: true });
        writeFileSync(join(process.env.BENCH_PROFILE_DIR, `server-${Date.now()}.cpuprofile`), JSON.stringify(raw));
      }
    }
    process.send?.({ type: 'measured', cpu, profile });
  } else if (message.type === 'count-start') {
    calls = [];
    logged = { bytes: 0, lines: [] };
    countCpuStart = processCpuMs();
    counting = true;
    process.send?.({ type: 'count-started' });
  } else if (message.type === 'count-stop') {
    counting = false;
    process.send?.({ type: 'counted', calls, logged, cpuMs: processCpuMs() - countCpuStart });
  } else if (message.type === 'stop') {
    await stack.stop();
    process.exit(0);
  }
});

process.send?.({
  type: 'ready',
  apiUrl: stack.apiUrl,
  plantsUrl: stack.plantsUrl,
  dynamoEndpoint: stack.dynamoEndpoint,
  tableName: stack.tableName,
});
