import type { StoreClient } from './client.ts';
import { type FieldNames, fieldsOf } from './fields.ts';
import { keys, type TenantRef } from './keys.ts';
import { getItem } from './prefetch.ts';
import type { TransactItem } from './transact.ts';
import { DAY_MS, ttlAfter } from './ttl.ts';

/** An invitation, found by the SHA-256 of its token (the token itself is never stored). */
export interface Invitation {
  userId: string;
  email: string;
  invitedBy: string;
  /** The inviter's name as the invitation mail gave it; null for an API key, a user without a name, or an older invitation. */
  inviterName: string | null;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

const INVITATION_FIELDS: FieldNames<Invitation> = {
  userId: true,
  email: true,
  invitedBy: true,
  inviterName: true,
  createdAt: true,
  expiresAt: true,
  usedAt: true,
};

export function invitationRepo(store: StoreClient) {
  const { tableName } = store;
  return {
    async get(t: TenantRef, tokenHash: string): Promise<Invitation | null> {
      const Item = await getItem(store, keys.invitation(t, tokenHash));
      return Item ? fieldsOf<Invitation>(Item, INVITATION_FIELDS) : null;
    },

    /** The write of a new invitation, for the transaction that makes its INVITED user. */
    putItem(t: TenantRef, tokenHash: string, invitation: Invitation): TransactItem {
      return {
        Put: {
          TableName: tableName,
          Item: {
            ...keys.invitation(t, tokenHash),
            entity: 'INVITATION',
            ...invitation,
            ttl: ttlAfter(invitation.expiresAt, DAY_MS),
          },
        },
      };
    },

    /** The write that uses an invitation up: single use is the condition's job (of two signups with one token, one gets it). */
    useItem(t: TenantRef, tokenHash: string, now: Date): TransactItem {
      return {
        Update: {
          TableName: tableName,
          Key: keys.invitation(t, tokenHash),
          UpdateExpression: 'SET usedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(usedAt) OR usedAt = :null)',
          ExpressionAttributeValues: { ':now': now.toISOString(), ':null': null },
        },
      };
    },

    deleteItem(t: TenantRef, tokenHash: string): TransactItem {
      return { Delete: { TableName: tableName, Key: keys.invitation(t, tokenHash) } };
    },
  };
}
