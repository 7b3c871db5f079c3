import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { StoreClient } from './client.ts';
import { conditionFailedAt } from './errors.ts';
import { type FieldNames, fieldsOf } from './fields.ts';
import { keys } from './keys.ts';
import { queryAll } from './query.ts';

/** An ES256 public key as the JWKS publishes it (RFC 7518 6.2: P-256). */
export interface EcPublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid: string;
  alg: 'ES256';
  use: 'sig';
}

/** An RS256 public key as the JWKS publishes it (RFC 7518 6.3: modulus and exponent only). */
export interface RsaPublicJwk {
  kty: 'RSA';
  n: string;
  e: string;
  kid: string;
  alg: 'RS256';
  use: 'sig';
}

/**
 * A public key as the JWKS publishes it. Its `alg` is the key's algorithm: the
 * item has no field of its own for it (keys stored before RS256 existed are ES256).
 */
export type PublicJwk = EcPublicJwk | RsaPublicJwk;

/** A token-signing key as stored: its private half only encrypted by the key vault. */
export interface StoredSigningKey {
  kid: string;
  publicJwk: PublicJwk;
  encryptedPrivateKey: string;
  createdAt: string;
  retiredAt: string | null;
}

const SIGNING_KEY_FIELDS: FieldNames<StoredSigningKey> = {
  kid: true,
  publicJwk: true,
  encryptedPrivateKey: true,
  createdAt: true,
  retiredAt: true,
};

const toStoredKey = (item: Record<string, unknown>) => fieldsOf<StoredSigningKey>(item, SIGNING_KEY_FIELDS);

function itemOf(key: StoredSigningKey): Record<string, unknown> {
  return { ...keys.signingKey(key.kid), entity: 'SIGNING_KEY', ...key };
}

/** The signing keys of the `KEYS` partition (one issuer for every tenant). */
export function signingKeyRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    async list(): Promise<StoredSigningKey[]> {
      const items = await queryAll(store, {
        // The partition holds other server keys too (REFRESH_MAC): only the signing ones.
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.signingKeysPartition, ':prefix': keys.signingKeyPrefix },
        // A key written a moment ago by another function must be seen.
        ConsistentRead: true,
      });
      return items.map(toStoredKey);
    },

    /** Stores a new key; the condition only guards against a kid collision. */
    async create(key: StoredSigningKey): Promise<void> {
      await doc.send(
        new PutCommand({ TableName: tableName, Item: itemOf(key), ConditionExpression: 'attribute_not_exists(pk)' }),
      );
    },

    /**
     * Stores every key of `created` (one per algorithm) and retires every key of
     * `current`, in one transaction; a retired key may be deleted by DynamoDB
     * from `deleteAfter` on. RACED (nothing written) when another rotation
     * retired one of them first.
     */
    async rotate(
      created: readonly StoredSigningKey[],
      current: readonly StoredSigningKey[],
      retiredAt: Date,
      deleteAfter: Date,
    ): Promise<'ROTATED' | 'RACED'> {
      // Rounded up: never deleted while it may still be published.
      const ttl = Math.ceil(deleteAfter.getTime() / 1000);
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              ...created.map((k) => ({
                Put: { TableName: tableName, Item: itemOf(k), ConditionExpression: 'attribute_not_exists(pk)' },
              })),
              ...current.map((k) => ({
                Update: {
                  TableName: tableName,
                  Key: keys.signingKey(k.kid),
                  UpdateExpression: 'SET retiredAt = :retiredAt, #ttl = :ttl',
                  // A concurrent rotation cancels this one whole: nothing is half-rotated.
                  ConditionExpression: 'attribute_exists(pk) AND attribute_type(retiredAt, :null)',
                  ExpressionAttributeNames: { '#ttl': 'ttl' },
                  ExpressionAttributeValues: { ':retiredAt': retiredAt.toISOString(), ':ttl': ttl, ':null': 'NULL' },
                },
              })),
            ],
          }),
        );
        return 'ROTATED';
      } catch (error) {
        if (conditionFailedAt(error)) return 'RACED';
        throw error;
      }
    },
  };
}
