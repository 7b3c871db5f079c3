import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { User } from '../users/types.ts';
import type { StoreClient } from './client.ts';
import { conditionFailedAt } from './errors.ts';
import { keys, type TenantRef } from './keys.ts';
import { getItem } from './prefetch.ts';
import type { TransactItem } from './transact.ts';
import { ttlNow } from './ttl.ts';
import { isExpiredSignup, newUserItems, userRepo } from './user-repo.ts';

/** The condition under which an expired signup's claim is overwritten, and the stale profile's deletion. */
interface Takeover {
  condition: {
    ConditionExpression: string;
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues: Record<string, unknown>;
  };
  evict: TransactItem | null;
}

/**
 * Addresses held by signups never verified (docs/security.md#unverified-signups): taken over
 * once expired (isExpiredSignup), made permanent when verified. Apart from
 * user-repo.ts so that only the bundles that make users or move addresses
 * (signup, signup verify, invitations, e-mail change) carry it.
 */
export function expiredSignupRepo(store: StoreClient) {
  const { doc, tableName } = store;
  const users = userRepo(store);

  /** An address's claim as stored, and the profile it names, expired signups included. */
  async function claimOf(t: TenantRef, email: string) {
    const claim = await getItem(store, keys.userEmail(t, email));
    return { claim: claim ?? null, user: claim ? await users.get(t, claim.userId as string) : null };
  }

  /**
   * How to take an address over from a signup never verified and expired,
   * or null when its holder is not one: the claim overwritten while it
   * still names that user, the profile deleted while it is still that
   * INACTIVE signup (verified meanwhile, it keeps the address).
   */
  async function takeoverOf(t: TenantRef, email: string, now: Date): Promise<Takeover | null> {
    const held = await claimOf(t, email);
    if (!held.claim) return null;
    if (held.user && isExpiredSignup(held.user, now)) {
      const stale: User = held.user;
      return {
        condition: { ConditionExpression: 'userId = :stale', ExpressionAttributeValues: { ':stale': stale.id } },
        evict: {
          Delete: {
            TableName: tableName,
            Key: keys.user(t, stale.id),
            ConditionExpression: '#status = :inactive AND registeredAt = :registeredAt',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':inactive': 'INACTIVE', ':registeredAt': stale.registeredAt },
          },
        },
      };
    }
    if (!held.user && typeof held.claim.ttl === 'number' && held.claim.ttl <= ttlNow(now)) {
      // A lapsed claim whose profile DynamoDB's TTL already took (the two are deleted apart): free too.
      return {
        condition: {
          ConditionExpression: 'userId = :stale AND #ttl <= :now',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':stale': held.claim.userId, ':now': ttlNow(now) },
        },
        evict: null,
      };
    }
    return null;
  }

  return {
    /**
     * users.create where it found the address held: in place of an expired
     * signup (its claim overwritten, its profile deleted, the new user and
     * `also` in one transaction), else EMAIL_TAKEN as before. `user`'s
     * registeredAt is the request's now (the injected clock's).
     */
    async createInPlace(t: TenantRef, user: User, also: readonly TransactItem[]): Promise<'CREATED' | 'EMAIL_TAKEN'> {
      const takeover = await takeoverOf(t, user.email, new Date(user.registeredAt));
      if (!takeover) return 'EMAIL_TAKEN';
      const { profile, emailClaim } = newUserItems(t, user);
      const evicts = takeover.evict ? [takeover.evict] : [];
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: tableName, Item: emailClaim, ...takeover.condition } },
              { Put: { TableName: tableName, Item: profile, ConditionExpression: 'attribute_not_exists(pk)' } },
              ...evicts,
              ...also,
            ],
          }),
        );
        return 'CREATED';
      } catch (error) {
        // Taken over by another signup first, or verified meanwhile: held after all.
        if (conditionFailedAt(error, 0) || (evicts.length > 0 && conditionFailedAt(error, 2))) return 'EMAIL_TAKEN';
        throw error;
      }
    },

    /**
     * The writes that claim an address for `userId`: while nobody holds it,
     * or in place of an expired signup (then `evict` deletes it).
     */
    async claimItems(
      t: TenantRef,
      email: string,
      userId: string,
      now: Date,
    ): Promise<{ claim: TransactItem; evict: TransactItem | null }> {
      const takeover = await takeoverOf(t, email, now);
      if (!takeover) return { claim: users.claimEmailItem(t, email, userId), evict: null };
      const Item = { ...keys.userEmail(t, email), entity: 'USER_EMAIL', userId };
      return { claim: { Put: { TableName: tableName, Item, ...takeover.condition } }, evict: takeover.evict };
    },

    /** A verified signup's claim made permanent: its `ttl` removed, while it is this user's. */
    keepClaimItem(t: TenantRef, email: string, userId: string): TransactItem {
      return {
        Update: {
          TableName: tableName,
          Key: keys.userEmail(t, email),
          UpdateExpression: 'REMOVE #ttl',
          ConditionExpression: 'userId = :me',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':me': userId },
        },
      };
    },
  };
}
