import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBStreamEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { handler as deliverWebhooks } from '#functions/webhooks/deliver-webhooks.ts';
import { handler as dispatchEvents } from '#functions/webhooks/dispatch-events.ts';
import type { Deps } from '#shared/deps.ts';
import type { DeliveryMessage, DeliveryQueue } from '#shared/webhooks/queue.ts';
import { passesStreamFilter } from '#shared/webhooks/stream-filter.ts';

/** How often the stream is read: about Lambda's own polling of a stream (four times a second). */
const POLL_MS = 250;
/** The deliveries queue's redrive: a message whose handling threw this many times goes to the dead letters. */
const MAX_RECEIVES = 5;

export interface LocalWebhooks {
  /** Deliveries given up (their 24 hours of retries spent) or whose handling kept throwing: the dead-letter queue. */
  readonly deadLetters: readonly DeliveryMessage[];
  stop(): Promise<void>;
}

const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * What AWS does for the webhooks (infra/webhooks.ts), on the local stack: the table's stream read as Lambda's event
 * source mapping reads it (its filter, batches of new images) into the dispatcher function, and an in-process queue
 * in place of SQS (delays, redrive after five failed receives, a dead-letter list) into the deliverer function. The
 * functions are the deployed ones, handed the stack's deps and this queue with each invocation.
 */
export async function startLocalWebhooks(options: {
  dynamoEndpoint: string;
  tableName: string;
  deps: () => Deps;
}): Promise<LocalWebhooks> {
  const dynamo = new DynamoDBClient({
    endpoint: options.dynamoEndpoint,
    region: 'us-east-1',
    credentials: localCredentials,
  });
  const streams = new DynamoDBStreamsClient({
    endpoint: options.dynamoEndpoint,
    region: 'us-east-1',
    credentials: localCredentials,
  });
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: options.tableName }));
  dynamo.destroy();
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`table ${options.tableName} has no stream: create it with { stream: true }`);

  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const deadLetters: DeliveryMessage[] = [];
  let sequence = 0;

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!stopped) run();
    }, ms);
    timers.add(timer);
  };

  const receive = (message: DeliveryMessage, receives: number) => {
    const messageId = `local-${++sequence}`;
    const event = { Records: [{ messageId, body: JSON.stringify(message) }] } as unknown as SQSEvent;
    void (
      deliverWebhooks(event, {
        awsRequestId: messageId,
        deps: options.deps(),
        queue,
      } as never) as Promise<SQSBatchResponse>
    )
      .then((answer) => answer.batchItemFailures.length > 0)
      .catch(() => true)
      .then((failed) => {
        if (!failed) return;
        // Visible again after a while, as SQS does when a receive was not deleted; set aside after five.
        if (receives + 1 >= MAX_RECEIVES) deadLetters.push(message);
        else later(1000, () => receive(message, receives + 1));
      });
  };

  const queue: DeliveryQueue = {
    async send(messages) {
      for (const { message, delaySeconds } of messages) later(delaySeconds * 1000, () => receive(message, 0));
    },
    async deadLetter(message) {
      deadLetters.push(message);
    },
  };

  // Shards by id, with where reading goes on. Shards there at the start are read from their end (Lambda's LATEST);
  // those that open later from their beginning.
  const iterators = new Map<string, string | null>();
  const listShards = async (fromStart: boolean) => {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      if (!shard.ShardId || iterators.has(shard.ShardId)) continue;
      const open = shard.SequenceNumberRange?.EndingSequenceNumber === undefined;
      if (!fromStart && !open) {
        iterators.set(shard.ShardId, null);
        continue;
      }
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shard.ShardId,
          ShardIteratorType: fromStart ? 'TRIM_HORIZON' : 'LATEST',
        }),
      );
      iterators.set(shard.ShardId, ShardIterator ?? null);
    }
  };
  await listShards(false);

  /**
   * A shard's reading started again from its oldest record: its iterator expired, or what it pointed at was trimmed.
   * Records read before may come again: the same events, with the same ids (delivery is at least once). A shard that
   * fails again at once is read from its end.
   */
  const restarted = new Set<string>();
  const restart = async (shardId: string) => {
    const again = restarted.has(shardId);
    restarted.add(shardId);
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ShardIteratorType: again ? 'LATEST' : 'TRIM_HORIZON',
      }),
    );
    iterators.set(shardId, ShardIterator ?? null);
  };

  const poll = async () => {
    const records: _Record[] = [];
    for (const [shardId, iterator] of iterators) {
      if (!iterator) continue;
      try {
        const answer = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
        records.push(...(answer.Records ?? []));
        iterators.set(shardId, answer.NextShardIterator ?? null);
        restarted.delete(shardId);
      } catch (error) {
        const name = (error as { name?: string }).name;
        if (name !== 'TrimmedDataAccessException' && name !== 'ExpiredIteratorException') throw error;
        await restart(shardId);
      }
    }
    await listShards(true);
    const passing = records.filter((record) => passesStreamFilter(record));
    if (passing.length === 0) return;
    const event = { Records: passing } as unknown as DynamoDBStreamEvent;
    // A failing batch is logged and dropped here; on AWS it is retried, then set aside (the dispatch dead letters).
    await dispatchEvents(event, { awsRequestId: `stream-${++sequence}`, deps: options.deps(), queue } as never);
  };

  let running: Promise<void> = Promise.resolve();
  const loop = () => {
    if (stopped) return;
    running = poll()
      .catch((error: unknown) => {
        if (!stopped) options.deps().log.error('local webhooks: the stream batch failed', { error: String(error) });
      })
      .then(() => later(POLL_MS, loop));
  };
  loop();

  return {
    deadLetters,
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await running.catch(() => {});
      streams.destroy();
    },
  };
}
