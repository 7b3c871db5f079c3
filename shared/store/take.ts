import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { StoreClient } from './client.ts';
import { isConditionFailure } from './errors.ts';

/**
 * Deletes a short-lived item (one with `expiresAt`) that is still live, answering it as it was: its one reader takes it,
 * so of two racing readers one gets it. Null when it was not there, was taken, or has expired.
 */
export async function takeLiveItem(
  store: StoreClient,
  key: { pk: string; sk: string },
  now: Date,
): Promise<Record<string, unknown> | null> {
  try {
    const { Attributes } = await store.doc.send(
      new DeleteCommand({
        TableName: store.tableName,
        Key: key,
        ConditionExpression: 'attribute_exists(pk) AND expiresAt > :now',
        ExpressionAttributeValues: { ':now': now.toISOString() },
        ReturnValues: 'ALL_OLD',
      }),
    );
    return Attributes ?? null;
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}
