import { BatchGetItemCommand, DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { verify } from '@node-rs/argon2';

export interface OpsFigures {
  opsPerSecond: number;
  p50: number;
  p99: number;
  ops: number;
}

/** The p-th percentile (0–100) of ascending values. */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

/** `loops` async loops calling `op` for `seconds`: ops/s and latency percentiles (ms). */
export async function loops(loopCount: number, seconds: number, op: () => Promise<unknown>): Promise<OpsFigures> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: loopCount }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        await op();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    opsPerSecond: Math.round((latencies.length / elapsed) * 10) / 10,
    p50: Math.round(percentile(latencies, 50) * 100) / 100,
    p99: Math.round(percentile(latencies, 99) * 100) / 100,
    ops: latencies.length,
  };
}

/** argon2id verify of one PHC hash (the configured parameters), 2 at a time (@node-rs/argon2 runs off-thread). */
export function argon2Limit(phc: string, password: string, seconds: number): Promise<OpsFigures> {
  return loops(2, seconds, async () => {
    if (!(await verify(phc, password))) throw new Error('argon2 verify failed');
  });
}

/**
 * One GetItem (the first key) / one BatchGetItem (every key: the bearer check's merchant, user and
 * session) round trip from a bare client, at `concurrency`.
 */
export async function dynamoLimits(
  endpoint: string,
  tableName: string,
  keysToRead: Record<string, string>[],
  concurrency: number,
  seconds: number,
) {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const marshalled = keysToRead.map((k) => marshall(k)) as never[];
  const a = marshalled[0] as never;
  const getItem = await loops(concurrency, seconds, () =>
    client.send(new GetItemCommand({ TableName: tableName, Key: a, ConsistentRead: true })),
  );
  const batchGetItem = await loops(concurrency, seconds, () =>
    client.send(new BatchGetItemCommand({ RequestItems: { [tableName]: { Keys: marshalled, ConsistentRead: true } } })),
  );
  client.destroy();
  return { getItem, batchGetItem };
}
