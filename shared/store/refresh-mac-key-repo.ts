import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { StoreClient } from './client.ts';
import { isConditionFailure } from './errors.ts';
import { keys } from './keys.ts';
import { getItem } from './prefetch.ts';

/** The refresh-successor key as stored: only encrypted by the key vault. */
export interface StoredRefreshMacKey {
  encryptedKey: string;
  createdAt: string;
}

/** The one server key of the `KEYS` partition that derives refresh-token successors. */
export function refreshMacKeyRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    /** Consistent: a key another function stored a moment ago is seen (a request's prefetch may answer it). */
    async get(): Promise<StoredRefreshMacKey | null> {
      const item = await getItem(store, keys.refreshMacKey);
      if (!item || typeof item.encryptedKey !== 'string' || typeof item.createdAt !== 'string') return null;
      return { encryptedKey: item.encryptedKey, createdAt: item.createdAt };
    },

    /**
     * Stores the key unless one is there: of cold starts racing to make it, one
     * wins; the others get LOST and read the winner's (every process derives
     * the same successors).
     */
    async create(key: StoredRefreshMacKey): Promise<'CREATED' | 'LOST'> {
      try {
        await doc.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...keys.refreshMacKey, entity: 'REFRESH_MAC_KEY', ...key },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return 'CREATED';
      } catch (error) {
        if (isConditionFailure(error)) return 'LOST';
        throw error;
      }
    },
  };
}
