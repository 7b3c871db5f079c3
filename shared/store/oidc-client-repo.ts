import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { StoreClient } from './client.ts';
import { conditionalWrite, isConditionFailure } from './errors.ts';
import { type FieldNames, fieldsOf } from './fields.ts';
import { keys, type TenantRef } from './keys.ts';
import { getItem } from './prefetch.ts';
import { queryAll } from './query.ts';

/** An OpenID Connect client as stored: its secret never is, only the secret's SHA-256 (`secretHash`). */
export interface StoredOidcClient {
  clientId: string;
  name: string;
  type: 'public' | 'confidential';
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  grantTypes: ('authorization_code' | 'refresh_token' | 'client_credentials')[];
  firstParty: boolean;
  accessTokenLifetimeSeconds: number;
  refreshTokenLifetimeSeconds: number;
  idTokenSigningAlg: 'ES256' | 'RS256';
  createdAt: string;
  updatedAt: string;
  /** SHA-256 (hex) of the whole secret; null for a public client. */
  secretHash: string | null;
  secretCreatedAt: string | null;
  createdBy: string;
}

/** What PATCH may change: never the id, the type, the secret or the creation. */
export type OidcClientChanges = Partial<
  Pick<
    StoredOidcClient,
    | 'name'
    | 'redirectUris'
    | 'postLogoutRedirectUris'
    | 'grantTypes'
    | 'firstParty'
    | 'accessTokenLifetimeSeconds'
    | 'refreshTokenLifetimeSeconds'
    | 'idTokenSigningAlg'
  >
>;

const OIDC_CLIENT_FIELDS: FieldNames<StoredOidcClient> = {
  clientId: true,
  name: true,
  type: true,
  redirectUris: true,
  postLogoutRedirectUris: true,
  grantTypes: true,
  firstParty: true,
  accessTokenLifetimeSeconds: true,
  refreshTokenLifetimeSeconds: true,
  idTokenSigningAlg: true,
  createdAt: true,
  updatedAt: true,
  secretHash: true,
  secretCreatedAt: true,
  createdBy: true,
};

const toClient = (item: Record<string, unknown>) => fieldsOf<StoredOidcClient>(item, OIDC_CLIENT_FIELDS);

/** Whether a change was written, or why not: the client is gone, or changed since it was read. */
export type OidcClientWrite = 'UPDATED' | 'NOT_FOUND' | 'CHANGED';

/**
 * The OpenID Connect clients of a tenant: items `T` / `OIDCCLIENT#<clientId>`
 * beside the merchant (shared/store/README.md). Each change is one item, so
 * no transaction: a conditional write on `updatedAt` keeps a change from
 * overwriting one made since its read.
 */
export function oidcClientRepo(store: StoreClient) {
  const { doc, tableName } = store;

  async function conditional(t: TenantRef, clientId: string, send: () => Promise<unknown>): Promise<OidcClientWrite> {
    try {
      await send();
      return 'UPDATED';
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return (await getItem(store, keys.oidcClient(t, clientId))) ? 'CHANGED' : 'NOT_FOUND';
    }
  }

  return {
    /** Stores a new client; a clientId collision (100 random bits) is a fault, never an overwrite. */
    async create(t: TenantRef, client: StoredOidcClient): Promise<void> {
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...keys.oidcClient(t, client.clientId), entity: 'OIDC_CLIENT', ...client },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    /** One client of this tenant, strongly consistent; null when this tenant has none of that id. */
    async get(t: TenantRef, clientId: string): Promise<StoredOidcClient | null> {
      const Item = await getItem(store, keys.oidcClient(t, clientId));
      return Item ? toClient(Item) : null;
    },

    /** Every client of the tenant, oldest first. */
    async list(t: TenantRef): Promise<StoredOidcClient[]> {
      const items = await queryAll(store, {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.merchant(t).pk, ':prefix': keys.oidcClientPrefix },
        ConsistentRead: true,
      });
      return items
        .map(toClient)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.clientId.localeCompare(b.clientId));
    },

    /** The fields given and `updatedAt`, if the client is still as read (`seenUpdatedAt`). */
    update(
      t: TenantRef,
      clientId: string,
      changes: OidcClientChanges,
      seenUpdatedAt: string,
      updatedAt: string,
    ): Promise<OidcClientWrite> {
      const fields = Object.entries({ ...changes, updatedAt }).filter(([, value]) => value !== undefined);
      const names = Object.fromEntries(fields.map(([field], i) => [`#f${i}`, field]));
      const values = Object.fromEntries(fields.map(([, value], i) => [`:v${i}`, value]));
      return conditional(t, clientId, () =>
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.oidcClient(t, clientId),
            UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
            ConditionExpression: 'attribute_exists(pk) AND updatedAt = :seen',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: { ...values, ':seen': seenUpdatedAt },
          }),
        ),
      );
    },

    /** A confidential client's new secret hash: the old secret stops matching at once. */
    replaceSecret(
      t: TenantRef,
      clientId: string,
      secretHash: string,
      seenUpdatedAt: string,
      at: string,
    ): Promise<OidcClientWrite> {
      return conditional(t, clientId, () =>
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.oidcClient(t, clientId),
            UpdateExpression: 'SET secretHash = :hash, secretCreatedAt = :at, updatedAt = :at',
            ConditionExpression: 'attribute_exists(pk) AND #type = :confidential AND updatedAt = :seen',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: {
              ':hash': secretHash,
              ':at': at,
              ':confidential': 'confidential',
              ':seen': seenUpdatedAt,
            },
          }),
        ),
      );
    },

    /** Deletes a client; false when this tenant had none of that id. */
    async delete(t: TenantRef, clientId: string): Promise<boolean> {
      return conditionalWrite(
        doc.send(
          new DeleteCommand({
            TableName: tableName,
            Key: keys.oidcClient(t, clientId),
            ConditionExpression: 'attribute_exists(pk)',
          }),
        ),
      );
    },
  };
}
