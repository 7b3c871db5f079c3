import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { StoreClient } from './client.ts';
import { ttlNow } from './ttl.ts';

type Item = Record<string, unknown>;

/**
 * Every item a Query matches, page after page: DynamoDB answers at most 1 MB
 * a request and says where to go on (LastEvaluatedKey).
 */
export async function queryAll(store: StoreClient, input: Omit<QueryCommandInput, 'TableName'>): Promise<Item[]> {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const page = await store.doc.send(
      new QueryCommand({ ...input, TableName: store.tableName, ExclusiveStartKey: start }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * One page of a partition, newest first, `limit` at a time, after the sort key `after` (from a cursor: only the sort
 * key travels, the partition is the caller's), without the items whose TTL has passed (DynamoDB Local never expires
 * them). `after` of the answer is where the next page starts, or null.
 */
export async function newestFirstPage(
  store: StoreClient,
  pk: string,
  limit: number,
  after: string | null,
  now: Date,
): Promise<{ items: Item[]; after: string | null }> {
  const page = await store.doc.send(
    new QueryCommand({
      TableName: store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ScanIndexForward: false,
      Limit: limit,
      ...(after ? { ExclusiveStartKey: { pk, sk: after } } : {}),
    }),
  );
  const live = ttlNow(now);
  return {
    items: (page.Items ?? []).filter((item) => typeof item.ttl !== 'number' || item.ttl > live),
    after: (page.LastEvaluatedKey?.sk as string | undefined) ?? null,
  };
}
