// The system under test, in its own process (so that the load generator does not share its event
// loop): the local stack in memory, with a DynamoDB middleware that counts round trips and
// consumed capacity while the parent asks it to. Talks to bench/run.ts over IPC.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import sesStore from 'aws-ses-v2-local/dist/store.js';
import { startLocalStack } from '#local/stack.ts';
import { markObserved } from '#shared/store/direct-read.ts';

export interface DynamoCall {
  command: string;
  start: number;
  end: number;
  capacity: number;
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

function capacityOf(output: unknown): number {
  const consumed = (output as { ConsumedCapacity?: unknown } | undefined)?.ConsumedCapacity;
  const list = Array.isArray(consumed) ? consumed : consumed ? [consumed] : [];
  return list.reduce((sum: number, c: { CapacityUnits?: number }) => sum + (c.CapacityUnits ?? 0), 0);
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
          if (CAPACITY_COMMANDS.has(command)) mwArgs.input.ReturnConsumedCapacity = 'TOTAL';
          const start = performance.now();
          const result = await next(mwArgs);
          calls.push({ command, start, end: performance.now(), capacity: capacityOf(result.output) });
          return result;
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
    counting = true;
    process.send?.({ type: 'count-started' });
  } else if (message.type === 'count-stop') {
    counting = false;
    process.send?.({ type: 'counted', calls });
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
