import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { StoreClient } from './client.ts';

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
