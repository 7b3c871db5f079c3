// The system under test, in its own process (so that the load generator does not share its event
// loop): the local stack in memory, with a DynamoDB middleware that counts round trips and
// consumed capacity while the parent asks it to. Talks to bench/run.ts over IPC.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startLocalStack } from '#local/stack.ts';

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
// per middleware stack, without touching shared/.
const instrumented = new WeakSet<object>();
for (const proto of new Set([
  Object.getPrototypeOf(DynamoDBClient.prototype),
  Object.getPrototypeOf(DynamoDBDocumentClient.prototype),
])) {
  const send = proto.send as (...args: unknown[]) => unknown;
  proto.send = function (this: any, ...args: unknown[]) {
    const stack = this.middlewareStack;
    if (this.config?.serviceId === 'DynamoDB' && stack && !instrumented.has(stack)) {
      instrumented.add(stack);
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
  codeResponseFloorMs: 0,
  authRateLimitPerMinute: 1_000_000_000,
});

process.on('message', async (message: { type: string }) => {
  if (message.type === 'count-start') {
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
