import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { StoreClient } from './client.ts';
import { conditionalWrite } from './errors.ts';
import { type FieldNames, fieldsOf } from './fields.ts';
import { keys, type TenantRef } from './keys.ts';
import { getItem } from './prefetch.ts';
import { queryAll } from './query.ts';

/** An admin API key as stored: the secret itself never is, only its SHA-256 (`secretHash`). */
export interface StoredApiKey {
  keyId: string;
  /** The key's first characters, to tell keys apart in a list; nothing of the secret. */
  keyPrefix: string;
  label: string;
  secretHash: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** The acting user id, or `apikey:<keyId>` when a key made it. */
  createdBy: string;
}

const API_KEY_FIELDS: FieldNames<StoredApiKey> = {
  keyId: true,
  keyPrefix: true,
  label: true,
  secretHash: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
  createdBy: true,
};

const toApiKey = (item: Record<string, unknown>) => fieldsOf<StoredApiKey>(item, API_KEY_FIELDS);

/** The admin API keys of a tenant: items `T` / `APIKEY#<keyId>` beside the merchant (shared/store/README.md). */
export function apiKeyRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    /** Stores a new key; a keyId collision (100 random bits) is a fault, never an overwrite. */
    async create(t: TenantRef, key: StoredApiKey): Promise<void> {
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...keys.apiKey(t, key.keyId), entity: 'API_KEY', ...key },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    /** One key of this tenant, strongly consistent: a revoked key is refused by the very next request. */
    async get(t: TenantRef, keyId: string): Promise<StoredApiKey | null> {
      const Item = await getItem(store, keys.apiKey(t, keyId));
      return Item ? toApiKey(Item) : null;
    },

    /** Every key of the tenant (a few items in the tenant's partition), oldest first. */
    async list(t: TenantRef): Promise<StoredApiKey[]> {
      const items = await queryAll(store, {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.merchant(t).pk, ':prefix': keys.apiKeyPrefix },
        ConsistentRead: true,
      });
      const found = items.map(toApiKey);
      return found
        .filter((key) => key.revokedAt === null)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.keyId.localeCompare(b.keyId));
    },

    /** Revokes a key by deleting it (the next request with it finds nothing); false when there was none. */
    async delete(t: TenantRef, keyId: string): Promise<boolean> {
      return conditionalWrite(
        doc.send(
          new DeleteCommand({
            TableName: tableName,
            Key: keys.apiKey(t, keyId),
            ConditionExpression: 'attribute_exists(pk)',
          }),
        ),
      );
    },

    /**
     * Records a use at `now`, at most once per `everyMs` per key: the condition
     * makes concurrent requests write once, and `attribute_exists` keeps a key
     * revoked meanwhile from coming back as a stub. Answers whether it wrote.
     */
    async touch(t: TenantRef, keyId: string, now: Date, everyMs: number): Promise<boolean> {
      return conditionalWrite(
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.apiKey(t, keyId),
            UpdateExpression: 'SET lastUsedAt = :now',
            // ISO 8601 UTC strings of one format sort as the instants they name.
            ConditionExpression:
              'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR attribute_type(lastUsedAt, :null) OR lastUsedAt <= :cutoff)',
            ExpressionAttributeValues: {
              ':now': now.toISOString(),
              ':cutoff': new Date(now.getTime() - everyMs).toISOString(),
              ':null': 'NULL',
            },
          }),
        ),
      );
    },
  };
}
