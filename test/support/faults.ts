import {
  InternalServerError,
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { SESv2Client, SESv2ServiceException, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityRouteList } from '#functions/routes.ts';
import { startSession } from '#shared/auth/session-start.ts';
import type { Deps } from '#shared/deps.ts';
import type { ContextWithDeps } from '#shared/http/invocation-deps.ts';
import { type RouteDef, tableActionsOf } from '#shared/http/route.ts';
import { markObserved } from '#shared/store/direct-read.ts';
import { keys, type TenantRef } from '#shared/store/keys.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { queryAll } from '#shared/store/query.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { signingKeys } from '#shared/tokens/signing-keys.ts';
import { aTenantWith } from './auth.ts';
import { makeTestDeps } from './deps.ts';
import { aContext, anEvent } from './events.ts';
import { iamActionsOf } from './iam-actions.ts';

/**
 * Fault injection for test/integration/faults: deps whose DynamoDB client
 * records every call and fails the one asked for the way DynamoDB does when it
 * is throttled or broken (after the SDK's own retries, which the fault skips by
 * failing before them); a before-and-after picture of every tenant partition
 * the request wrote, read from the real store; and an SES that records or fails.
 */

export type FaultKind =
  | 'throttled'
  /** Throttled from that call on: the call and every later call of the same operation fail (retries included). */
  | 'throttled from then on'
  | 'internal'
  | 'transaction throttled'
  /** A batch with part of it left unprocessed (see partlyUnprocessed). */
  | 'batch unprocessed';

/** The faults by which DynamoDB says "too much, retry": each must answer 503 with Retry-After. */
export const THROTTLING: FaultKind[] = [
  'throttled',
  'throttled from then on',
  'transaction throttled',
  'batch unprocessed',
];
/** DynamoDB failing on its side (InternalServerError). */
export const INTERNAL: FaultKind[] = ['internal'];

/** Which faults a call can meet: every call can be throttled or fail; transactions and batches have their own. */
export function faultsFor(command: string): FaultKind[] {
  const kinds: FaultKind[] = ['throttled', 'throttled from then on', 'internal'];
  if (command === 'TransactWriteItems') kinds.push('transaction throttled');
  if (command === 'BatchGetItem' || command === 'BatchWriteItem') kinds.push('batch unprocessed');
  return kinds;
}

const metadata = (httpStatusCode: number) => ({ httpStatusCode, requestId: 'FAULTINJECTED', attempts: 3 });

/** The error DynamoDB answers (as the SDK raises it) for a fault, or null when the fault is an answer. */
function errorFor(kind: FaultKind, input: Record<string, unknown>): Error | null {
  switch (kind) {
    case 'throttled':
    case 'throttled from then on':
      return new ProvisionedThroughputExceededException({
        message: 'The level of configured provisioned throughput for the table was exceeded.',
        $metadata: metadata(400),
      });
    case 'internal':
      return new InternalServerError({ message: 'Internal server error', $metadata: metadata(500) });
    case 'transaction throttled': {
      // What DynamoDB sends for a throttled transaction: a cancellation whose reasons name the throttled item.
      const items = (input.TransactItems as unknown[] | undefined) ?? [];
      return new TransactionCanceledException({
        message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [ThrottlingError]',
        $metadata: metadata(400),
        CancellationReasons: items.map((_, i) =>
          i === 0
            ? { Code: 'ThrottlingError', Message: 'Throughput exceeds the current capacity of your table or index.' }
            : { Code: 'None' },
        ),
      });
    }
    case 'batch unprocessed':
      return null;
  }
}

type Next = (args: { input: unknown }) => Promise<{ output: any }>;

/**
 * A batch answered with its last request left unprocessed (the others done):
 * how DynamoDB throttles BatchGetItem and BatchWriteItem short of failing
 * them whole. A batch of one comes back with nothing done.
 */
async function partlyUnprocessed(command: string, args: { input: any }, next: Next) {
  const [table, requests] = Object.entries(args.input.RequestItems as Record<string, any>)[0] as [string, any];
  const gets = command === 'BatchGetItem';
  const all: unknown[] = gets ? requests.Keys : requests;
  const [done, left] = [all.slice(0, -1), all.slice(-1)];
  const asked = (list: unknown[]) => ({ [table]: gets ? { ...requests, Keys: list } : list });
  const output =
    done.length === 0
      ? { ...(gets ? { Responses: { [table]: [] } } : {}), $metadata: metadata(200) }
      : (await next({ ...args, input: { ...args.input, RequestItems: asked(done) } })).output;
  return { output: { ...output, [gets ? 'UnprocessedKeys' : 'UnprocessedItems']: asked(left) }, response: {} };
}

type Item = Record<string, unknown>;

/** The partition keys a command names, and whether it writes them (input as lib-dynamodb has it, unmarshalled). */
function partitionsOf(command: string, input: Record<string, any>): { partitions: string[]; writes: boolean } {
  const pk = (item: Item | undefined) => (typeof item?.pk === 'string' ? [item.pk] : []);
  switch (command) {
    case 'PutItem':
      return { partitions: pk(input.Item), writes: true };
    case 'UpdateItem':
    case 'DeleteItem':
      return { partitions: pk(input.Key), writes: true };
    case 'TransactWriteItems':
      return {
        partitions: (input.TransactItems as Item[]).flatMap((t: any) =>
          pk(t.Put?.Item ?? t.Update?.Key ?? t.Delete?.Key ?? t.ConditionCheck?.Key),
        ),
        writes: true,
      };
    case 'BatchWriteItem':
      return {
        partitions: Object.values(input.RequestItems as Record<string, any[]>)
          .flat()
          .flatMap((r) => pk(r.PutRequest?.Item ?? r.DeleteRequest?.Key)),
        writes: true,
      };
    case 'GetItem':
      return { partitions: pk(input.Key), writes: false };
    case 'BatchGetItem':
      return {
        partitions: Object.values(input.RequestItems as Record<string, { Keys: Item[] }>).flatMap((r) =>
          r.Keys.flatMap(pk),
        ),
        writes: false,
      };
    default: {
      const named = input.ExpressionAttributeValues?.[':pk'];
      return { partitions: typeof named === 'string' ? [named] : [], writes: false };
    }
  }
}

/** One DynamoDB call of a request: the operation (`GetItem`, `TransactWriteItems`, ...) and the partitions it names. */
export interface StoreCall {
  command: string;
  partitions: string[];
  writes: boolean;
  /** The IAM actions it needs: a transaction needs those of its items (there is no TransactWriteItems action). */
  actions: string[];
}

/** A tenant item that differs after the request from before it. */
export interface Change {
  /** `<partition without the tenant prefix> / <sort key>`. */
  key: string;
  sk: string;
  before: Item | undefined;
  after: Item | undefined;
}

/**
 * Deps against the test table whose DynamoDB client (a fresh one: nothing
 * shared with other tests) records each call, pictures every partition of the
 * tenant before the request's first write to it, and fails call `fault.at`.
 */
export function instrumentedDeps(tenant: TenantRef, fault?: { at: number; kind: FaultKind }) {
  const deps = makeTestDeps();
  const errorsLogged: string[] = [];
  deps.log = { info: () => {}, error: (message) => errorsLogged.push(message) };
  // The pictures are read with a client of their own, so they are never counted or failed.
  const reader = makeTestDeps().store;
  const prefix = keys.merchant(tenant).pk;
  const ownedByTenant = (pk: string) => pk === prefix || pk.startsWith(`${prefix}#`);
  const readPartition = (pk: string): Promise<Item[]> =>
    queryAll(reader, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
    });
  const before = new Map<string, Promise<Item[]>>();
  const calls: StoreCall[] = [];

  deps.store.doc.middlewareStack.add(
    (next, context) => async (args) => {
      const command = (context.commandName ?? '?').replace(/Command$/, '');
      const input = args.input as Record<string, unknown>;
      const { partitions, writes } = partitionsOf(command, input);
      const index = calls.length;
      calls.push({ command, partitions, writes, actions: iamActionsOf(command, input) });
      if (writes) {
        // Nothing of this request has reached these partitions yet: this is how they were before it.
        for (const pk of partitions.filter(ownedByTenant)) if (!before.has(pk)) before.set(pk, readPartition(pk));
        await Promise.all(before.values());
      }
      const failing =
        fault &&
        (fault.at === index ||
          (fault.kind === 'throttled from then on' && index > fault.at && calls[fault.at]?.command === command));
      if (failing) {
        const error = errorFor(fault.kind, input);
        if (error) throw error;
        return (await partlyUnprocessed(command, args, next as unknown as Next)) as never;
      }
      return next(args);
    },
    { step: 'initialize', name: 'faultInjection' },
  );
  markObserved(deps.store.doc);

  return {
    deps,
    calls,
    errorsLogged,
    /** Every item of a written tenant partition that is not as it was before the request. */
    async changes(): Promise<Change[]> {
      const changes: Change[] = [];
      for (const [pk, picture] of before) {
        const was = new Map((await picture).map((item) => [item.sk as string, item]));
        const now = new Map((await readPartition(pk)).map((item) => [item.sk as string, item]));
        for (const sk of new Set([...was.keys(), ...now.keys()])) {
          const [b, a] = [was.get(sk), now.get(sk)];
          if (!sameItem(b, a)) {
            changes.push({ key: `${pk.slice(prefix.length) || 'T'} / ${sk}`, sk, before: b, after: a });
          }
        }
      }
      return changes;
    },
  };
}

/** Equal field by field, whatever the order the store gives the fields in. */
function sameItem(a: Item | undefined, b: Item | undefined): boolean {
  if (!a || !b) return a === b;
  const fields = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...fields].every((f) => JSON.stringify(a[f]) === JSON.stringify(b[f]));
}

/**
 * A change that a request makes, by design, before its work can fail, and
 * that a failed request therefore leaves behind. Each names why.
 */
export interface Allowance {
  why: string;
  covers(change: Change): boolean;
}

/** Changes every auth request may leave behind. */
export const ALLOWED = {
  rateCount: {
    why: "the per-IP request count of the minute (and an open signup's count of the hour) goes up first: a request counts against the limit whether or not it then succeeds, or failing requests would be free to an attacker",
    covers: (c: Change) => c.sk === 'RATE' || c.sk === 'SIGNUPRATE',
  },
  mailDayCount: {
    why: "the tenant's mail count of the day (its account budget, or its signup budget for a signup) goes up before a mail is sent, so that a burst cannot pass the budget, and is shared by every request of the tenant; a mail not sent is given back (unless the store fails that too: then the day counts one more), and the count item stays (at 0 when it was new)",
    covers: (c: Change) => c.sk === 'MAILDAY' || c.sk === 'MAILDAY#SIGNUP',
  },
  lockoutCleared: {
    why: 'a correct credential clears the failed-login count before the session is written; only the holder of the credential can do that, and the count protects nobody from them',
    covers: (c: Change) => c.sk === 'LOCK' && c.after === undefined,
  },
  attemptPlace: {
    why: 'a guess is reserved in its lockout before it is evaluated, so a fault after the reservation leaves its place, taken or given back, in the lock item: no failure counted, no lock, and the place leaves the 15-minute window by itself',
    covers: (c: Change) =>
      /^LOCK(#|$)/.test(c.sk) &&
      changedFields(c).every((f) => /^a\d$/.test(f) || f === 'ttl' || f === 'pk' || f === 'sk'),
  },
} satisfies Record<string, Allowance>;

function changedFields(c: Change): string[] {
  return Object.keys({ ...c.before, ...c.after }).filter(
    (f) => JSON.stringify(c.before?.[f]) !== JSON.stringify(c.after?.[f]),
  );
}

/** Changes not covered by an allowance, shown briefly: which item, and what happened to it. */
export function unexplained(changes: Change[], allowances: readonly Allowance[]): string[] {
  return changes
    .filter((c) => !allowances.some((a) => a.covers(c)))
    .map((c) => {
      if (!c.before) return `${c.key}: added (${String(c.after?.entity)})`;
      if (!c.after) return `${c.key}: removed (${String(c.before.entity)})`;
      return `${c.key}: changed ${changedFields(c).join(', ')}`;
    });
}

/** An answer of a handler, its body parsed. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

type LambdaHandler = (event: APIGatewayProxyEventV2, context: ContextWithDeps) => Promise<unknown>;

/** Calls a handler as Lambda does; with `deps`, on its context, as the local gateway does. */
export async function invoke(handler: LambdaHandler, event: APIGatewayProxyEventV2, deps?: Deps): Promise<Answer> {
  const result = (await handler(event, { ...aContext(), ...(deps && { deps }) })) as {
    statusCode: number;
    headers?: Record<string, string>;
    body?: string;
  };
  return {
    status: result.statusCode,
    headers: result.headers ?? {},
    body: result.body ? JSON.parse(result.body) : undefined,
  };
}

let ipCounter = 0;
/** A documentation address of its own (RFC 3849), so each request has its own rate-limit count. */
export const anIp = () => `2001:db8::${(++ipCounter).toString(16)}:${(process.pid % 0xffff).toString(16)}`;

/** A JSON request to the identity API as API Gateway hands it over, from `ip`. */
export function aRequest(
  method: string,
  path: string,
  options: {
    tenant: TenantRef;
    ip: string;
    body?: unknown;
    bearer?: string;
    pathParameters?: Record<string, string>;
  },
): APIGatewayProxyEventV2 {
  const event = anEvent({
    method,
    path: `/api/v1${path}`,
    headers: {
      'content-type': 'application/json',
      'x-app-id': options.tenant.app,
      'x-mid-key': options.tenant.mid,
      ...(options.bearer ? { authorization: `Bearer ${options.bearer}` } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    ...(options.pathParameters ? { pathParameters: options.pathParameters } : {}),
  });
  event.requestContext.http.sourceIp = options.ip;
  return event;
}

/** The contract's answer to an overloaded or failing dependency. */
export function expectUnavailable(answer: Answer, label = '') {
  expect({ status: answer.status, code: answer.body?.code }, label).toEqual({ status: 503, code: 'UNAVAILABLE' });
  expect(answer.headers['content-type'], label).toBe('application/problem+json');
  expect(Number(answer.headers['retry-after']), label).toBeGreaterThan(0);
}

/** A short description of an answer, for failure messages. */
export const describeAnswer = (a: Answer) => `${a.status} ${a.body?.code ?? ''}`.trim();

/**
 * One multi-item operation under test, driven through its Lambda handler:
 * a fresh fixture for each run, the request it sends, and what success is.
 */
export interface Operation<F> {
  handler: LambdaHandler;
  /** A fresh fixture (made with plain deps); `ip` is the run's own source address. */
  setup(ip: string): Promise<F>;
  tenant(fixture: F): TenantRef;
  /** The request; `attempt` is 0 for the first, 1 for the retry after a fault. */
  request(fixture: F, attempt: number): APIGatewayProxyEventV2;
  /** Asserts that an answer is this operation's success. */
  succeeded(answer: Answer, fixture: F): void;
  /** Changes a failed request may leave behind by design, besides none. */
  allowed?: readonly Allowance[];
  /** True for a change another run made in a partition that runs share (the tenant's audit records). */
  othersChange?(change: Change, fixture: F): boolean;
  /**
   * For an operation with work after its commit point: the index of the
   * committing call in a run's calls, and what a fault after it must give
   * (the problems found; none when it is what a demanding client expects).
   */
  afterCommit?: {
    commitAt(calls: readonly StoreCall[]): number;
    check(run: Run<F>, trace: Trace): Promise<string[]>;
  };
}

export interface Run<F> {
  fixture: F;
  answer: Answer;
  calls: StoreCall[];
  changes: Change[];
  errorsLogged: string[];
}

/** Runs the operation once on a fresh fixture, failing call `fault.at` if asked. */
export async function runOnce<F>(operation: Operation<F>, fault?: { at: number; kind: FaultKind }): Promise<Run<F>> {
  const fixture = await operation.setup(anIp());
  const probe = instrumentedDeps(operation.tenant(fixture), fault);
  const answer = await invokeWith(probe.deps, operation.handler, operation.request(fixture, 0));
  const changes = (await probe.changes()).filter((change) => !operation.othersChange?.(change, fixture));
  return { fixture, answer, calls: probe.calls, changes, errorsLogged: probe.errorsLogged };
}

/** The same request again on the same fixture, with nothing failing: the operation must not be wedged. */
export async function retry<F>(operation: Operation<F>, fixture: F): Promise<Answer> {
  return invokeWith(instrumentedDeps(operation.tenant(fixture)).deps, operation.handler, operation.request(fixture, 1));
}

/**
 * Calls a real Lambda handler with these deps, on the invocation's context as the local gateway hands a stack's deps
 * to its functions (shared/http/invocation-deps.ts): runs go on concurrently, each with the deps of its own.
 */
export function invokeWith(deps: Deps, handler: LambdaHandler, event: APIGatewayProxyEventV2): Promise<Answer> {
  return invoke(handler, event, deps);
}

/**
 * The calls of the operation when nothing fails, from one run that must
 * succeed. A signing key exists first: creating the very first one is a
 * once-per-deployment write, not a step of the operation.
 */
export async function traceOf<F>(operation: Operation<F>): Promise<Trace> {
  await signingKeys(makeTestDeps()).active();
  const run = await runOnce(operation);
  operation.succeeded(run.answer, run.fixture);
  // Every DynamoDB action the run used is one the route's row grants (tableActionsOf: its IAM policy on AWS,
  // where DynamoDB Local checks nothing): a transaction item or a repo added without its grant fails here.
  const event = operation.request(run.fixture, 0);
  const route = routeOfRequest(event.requestContext.http.method, event.rawPath);
  const granted = new Set<string>(tableActionsOf(route));
  const used = [...new Set(run.calls.flatMap((call) => call.actions))].sort();
  expect(
    used.filter((action) => !granted.has(action)),
    `DynamoDB actions ${route.operationId} uses that its route row does not grant`,
  ).toEqual([]);
  const effect = effectOf(run.changes);
  expect(effect.length, 'a run without faults writes something').toBeGreaterThan(0);
  return { calls: run.calls, effect };
}

/** The identity route a request goes to, by method and path (the row's `{param}` segments match any). */
function routeOfRequest(method: string, rawPath: string): RouteDef {
  const path = rawPath.replace(/^\/api\/v1/, '');
  const route = identityRouteList.find(
    (r) => r.method === method && new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
  );
  if (!route) throw new Error(`no route for ${method} ${rawPath}`);
  return route;
}

/** The calls of an operation when nothing fails, and the shape of what it writes. */
export interface Trace {
  calls: StoreCall[];
  /** What the writes do, item by item, ids left out (see effectOf). */
  effect: string[];
}

/** The shape of a request's writes: per item, its entity and what happened to it, without keys, ids or times. */
export function effectOf(changes: readonly Change[]): string[] {
  return changes
    .map((c) => {
      const entity = String((c.after ?? c.before)?.entity);
      // The tenant's mail count of the day is one item for every run: the first adds it, the others change it. So is
      // the per-IP count of the minute for the runs within one minute; a run in the next minute adds a new one.
      if (entity === 'MAIL_DAY') return `${entity} counted`;
      if (c.sk === 'RATE' || c.sk === 'SIGNUPRATE') return `${c.sk} counted`;
      if (!c.before) return `${entity} added`;
      if (!c.after) return `${entity} removed`;
      return `${entity} changed ${changedFields(c).join(', ')}`;
    })
    .sort();
}

/** Runs `work` on every item, at most `limit` at once. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Runs the operation with each fault at each of its calls (learnt from a run
 * without faults, so the suite follows the code when its calls change) and
 * returns, per run that went wrong, what went wrong: an answer other than 503
 * UNAVAILABLE, a change the allowances do not explain, or a retry that fails.
 * After the operation's commit point (if it has one), `afterCommit.check` judges instead.
 */
export async function faultMatrix<F>(
  operation: Operation<F>,
  kinds: readonly FaultKind[],
  trace: Trace,
): Promise<string[]> {
  const problems: string[] = [];
  const allowances = [...(operation.allowed ?? [])];
  const commitAt = operation.afterCommit?.commitAt(trace.calls) ?? trace.calls.length;
  const plan = trace.calls.flatMap((call, at) =>
    faultsFor(call.command)
      .filter((kind) => kinds.includes(kind))
      .map((kind) => ({ at, kind, command: call.command })),
  );
  // Each run has its own users, addresses and challenges, so runs can overlap.
  await eachLimited(plan, 4, async (step) => {
    const label = `call ${step.at} ${step.command} ${step.kind}`;
    const run = await runOnce(operation, { at: step.at, kind: step.kind });
    const failedCall = run.calls[step.at]?.command;
    if (failedCall !== step.command) {
      problems.push(`${label}: the calls changed (call ${step.at} was ${failedCall ?? 'never made'})`);
      return;
    }
    if (step.at > commitAt && operation.afterCommit) {
      for (const problem of await operation.afterCommit.check(run, trace)) problems.push(`${label}: ${problem}`);
      return;
    }
    if (succeeded(operation, run)) {
      // The request got over the fault itself (it read again): then its effect must be whole.
      const effect = effectOf(run.changes);
      if (JSON.stringify(effect) !== JSON.stringify(trace.effect)) {
        problems.push(
          `${label}: answered success but wrote ${effect.join('; ')} (without faults: ${trace.effect.join('; ')})`,
        );
      }
      return;
    }
    const unavailable =
      run.answer.status === 503 &&
      run.answer.body?.code === 'UNAVAILABLE' &&
      run.answer.headers['content-type'] === 'application/problem+json' &&
      Number(run.answer.headers['retry-after']) > 0;
    if (!unavailable) problems.push(`${label}: answered ${describeAnswer(run.answer)}, not 503 UNAVAILABLE`);
    for (const change of unexplained(run.changes, allowances)) problems.push(`${label}: left ${change}`);
    const again = await retry(operation, run.fixture);
    if (!succeeded(operation, { ...run, answer: again })) {
      problems.push(`${label}: the retry answered ${describeAnswer(again)}`);
    }
  });
  return problems.sort();
}

function succeeded<F>(operation: Operation<F>, run: Pick<Run<F>, 'answer' | 'fixture'>): boolean {
  try {
    operation.succeeded(run.answer, run.fixture);
    return true;
  } catch {
    return false;
  }
}

/** The 6-digit code in a mail's text. */
export function codeIn(text: string): string {
  const code = /^\s*(\d{6})\s*$/m.exec(text)?.[1];
  if (!code) throw new Error('no code in the mail');
  return code;
}

/** The invitation token in a mail's text (`invitationToken=<token>`). */
export function invitationTokenIn(text: string): string {
  const token = /invitationToken=([A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!token) throw new Error('no invitation token in the mail');
  return token;
}

/**
 * The SES client, faked (every SESv2Client, until the test file is done): each SendEmail
 * is recorded, and refused as SES refuses when throttled for addresses
 * `refuse` names, until `accept`. Refused mails are recorded too: they hold
 * the code that never reached anyone.
 */
export function fakeSes() {
  const attempts: { to: string; text: string; delivered: boolean }[] = [];
  const refused = new Set<string>();
  const ses = mockClient(SESv2Client);
  // The files of the integration project share one module graph per worker: the next file gets the real client back.
  afterAll(() => ses.restore());
  ses.on(SendEmailCommand).callsFake((input: SendEmailCommand['input']) => {
    const to = input.Destination?.ToAddresses?.[0] ?? '';
    const text = input.Content?.Simple?.Body?.Text?.Data ?? '';
    attempts.push({ to, text, delivered: !refused.has(to) });
    if (refused.has(to)) {
      throw new SESv2ServiceException({
        name: 'TooManyRequestsException',
        $fault: 'client',
        $metadata: { httpStatusCode: 429 },
        message: 'Maximum sending rate exceeded.',
      });
    }
    return { MessageId: `msg-${attempts.length}`, $metadata: {} };
  });
  return {
    refuse: (to: string) => refused.add(to),
    accept: (to: string) => refused.delete(to),
    /** Every mail sent or refused to an address, oldest first. */
    attemptsTo: (to: string) => attempts.filter((m) => m.to === to),
    /** The text of the latest mail delivered to an address. */
    latestTo(to: string): string {
      const mail = attempts.filter((m) => m.to === to && m.delivered).at(-1);
      if (!mail) throw new Error(`no mail delivered to ${to}`);
      return mail.text;
    },
  };
}

/** A session of an existing user, as a login would start it (no password needed): its tokens. */
export async function aSessionOf(tenant: TenantRef, userId: string, deps: Deps = makeTestDeps()) {
  const [merchant, user] = await Promise.all([
    merchantRepo(deps.store).get(tenant),
    userRepo(deps.store).get(tenant, userId),
  ]);
  if (!merchant || !user) throw new Error(`no user ${userId} in ${tenant.app}`);
  return startSession(deps, merchant, user, { ip: '192.0.2.1', userAgent: 'vitest' });
}

/** The merchant of a tenant, as the handlers read it. */
export async function merchantOf(tenant: TenantRef, deps: Deps = makeTestDeps()) {
  const merchant = await merchantRepo(deps.store).get(tenant);
  if (!merchant) throw new Error(`no tenant ${tenant.app}`);
  return merchant;
}

type TenantOptions = NonNullable<Parameters<typeof aTenantWith>[0]>;

/**
 * An object that a `beforeAll` fills in: the operations of a fault-suite file name it when the file loads and read
 * it while tests run. Reading it before it is filled throws, rather than reading nothing.
 */
function filledBeforeAll<T extends object>(what: string): { value: T; fill(value: T): void } {
  let filled = false;
  const target = {} as T;
  const value = new Proxy(target, {
    get(object, key, receiver) {
      if (!filled) throw new Error(`${what} is made before the tests run: read it in a test, a hook or an operation`);
      return Reflect.get(object, key, receiver);
    },
  });
  return {
    value,
    fill(made) {
      Object.assign(target, made);
      filled = true;
    },
  };
}

/**
 * The scaffold of a fault-suite file: SES faked for the whole file (it takes every mail unless told to refuse an
 * address: most of these files are about DynamoDB), and the tenants the file asks for, one per options object
 * (default: one tenant with the default policy), made once before its tests, each as the handlers read it.
 * `admin.token`, with `signedInAdmin`: an access token of the first tenant's first admin (a SUPER_ADMIN).
 */
export function useFaultStack<const Wanted extends readonly TenantOptions[] = [TenantOptions]>(
  options: { tenants?: Wanted; signedInAdmin?: boolean } = {},
) {
  const ses = fakeSes();
  const wanted: readonly TenantOptions[] = options.tenants ?? [{}];
  const slots = wanted.map((_, i) => filledBeforeAll<Merchant>(`Tenant ${i}`));
  const admin = filledBeforeAll<{ token: string }>('The signed-in admin');
  beforeAll(async () => {
    const created = await Promise.all(
      wanted.map(async (tenantOptions, i) => {
        const tenant = await aTenantWith(tenantOptions);
        slots[i]?.fill(await merchantOf(tenant));
        return tenant;
      }),
    );
    const [first] = created;
    if (options.signedInAdmin && first) admin.fill({ token: (await aSessionOf(first, first.adminUserId)).accessToken });
  });
  return {
    ses,
    tenants: slots.map((slot) => slot.value) as { [K in keyof Wanted]: Merchant },
    admin: admin.value,
  };
}

/**
 * Each operation under every fault of a kind at each of its calls (learnt first from a run without faults): the
 * two tests every operation of the suite passes, throttling and failure, each within `timeout` ms.
 */
export function describeUnderFaults(cases: readonly (readonly [string, Operation<any>])[], timeout: number) {
  describe.each(cases)('%s under DynamoDB faults', (_name, operation) => {
    let trace: Trace;
    beforeAll(async () => {
      trace = await traceOf(operation);
    });

    it(
      'answers 503 UNAVAILABLE, leaves nothing half-written and works on retry, whichever call is throttled',
      async () => {
        expect(await faultMatrix(operation, THROTTLING, trace)).toEqual([]);
      },
      timeout,
    );

    it(
      'answers 503 UNAVAILABLE, leaves nothing half-written and works on retry, whichever call fails',
      async () => {
        expect(await faultMatrix(operation, INTERNAL, trace)).toEqual([]);
      },
      timeout,
    );
  });
}

/** Deps whose mailer sends nothing and keeps the code of the latest mail that carried one: `latestCode()`. */
export function depsKeepingCodes() {
  let code = '';
  const deps = makeTestDeps({
    mailer: {
      send: async (_tenant, _to, message) => {
        if ('code' in message) code = message.code;
      },
    },
  });
  return { deps, latestCode: () => code };
}
