import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { StoreClient } from './client.ts';
import { isConditionFailure } from './errors.ts';
import { keys, type TenantRef } from './keys.ts';
import { getItem } from './prefetch.ts';
import type { TransactItem } from './transact.ts';
import { HOUR_MS, ttlAfter } from './ttl.ts';

export interface LockoutPolicy {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

/** CONTRACT.md, Rules: 5 failed logins within 15 minutes lock the (tenant, e-mail) for 15 minutes. */
export const LOCKOUT: LockoutPolicy = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

/**
 * Counters that guard the auth endpoints: the lockout per (tenant, e-mail) and
 * the rate limit per (tenant, IP). Both are single conditional updates, so
 * concurrent requests count exactly.
 */
export function guardRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    /**
     * When the (tenant, e-mail) is locked, until when; and whether any failure
     * is counted at all (a successful login then has a counter to clear).
     */
    async lockState(t: TenantRef, email: string, now: Date): Promise<{ lockedUntil: Date | null; counted: boolean }> {
      const Item = await getItem(store, keys.lockout(t, email));
      const until = Item?.lockedUntil ? new Date(Item.lockedUntil as string) : null;
      return { lockedUntil: until && until > now ? until : null, counted: Item !== undefined };
    },

    /**
     * Counts one failure and locks when `maxFailures` of them fall within any
     * `windowMs` (a sliding window: failures straddling a fixed window's edge
     * still count together). The append is atomic, so concurrent failures are
     * all counted. Returns the lock's end when this failure started the lock.
     */
    async recordFailure(t: TenantRef, email: string, now: Date, policy = LOCKOUT): Promise<Date | null> {
      const key = keys.lockout(t, email);
      const ttl = ttlAfter(now, policy.windowMs + policy.lockMs + HOUR_MS);
      const { Attributes } = await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key,
          UpdateExpression:
            'SET failedAt = list_append(if_not_exists(failedAt, :empty), :now), #ttl = :ttl ADD failures :one',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':empty': [], ':now': [now.getTime()], ':ttl': ttl, ':one': 1 },
          ReturnValues: 'ALL_NEW',
        }),
      );
      const failedAt = (Attributes?.failedAt as number[] | undefined) ?? [];
      const recent = failedAt.filter((at) => at > now.getTime() - policy.windowMs);
      if (failedAt.length > policy.maxFailures * 2) {
        // Keep the item small: drop what no window can count any more (skipped if another failure got in first).
        await doc
          .send(
            new UpdateCommand({
              TableName: tableName,
              Key: key,
              UpdateExpression: 'SET failedAt = :recent',
              ConditionExpression: 'size(failedAt) = :size',
              ExpressionAttributeValues: { ':recent': recent, ':size': failedAt.length },
            }),
          )
          .catch((error: unknown) => {
            if (!isConditionFailure(error)) throw error;
          });
      }
      const failures = recent.length;
      if (failures < policy.maxFailures) return null;
      const until = new Date(now.getTime() + policy.lockMs);
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: key,
            UpdateExpression: 'SET lockedUntil = :until',
            ConditionExpression: 'attribute_not_exists(lockedUntil) OR lockedUntil <= :now',
            ExpressionAttributeValues: { ':until': until.toISOString(), ':now': now.toISOString() },
          }),
        );
        return until;
      } catch (error) {
        if (isConditionFailure(error)) return null; // another failure locked it first
        throw error;
      }
    },

    /** The lockout's clearing, for the transaction of a change that proves the owner (a password reset). */
    clearLockoutItem(t: TenantRef, email: string): TransactItem {
      return { Delete: { TableName: tableName, Key: keys.lockout(t, email) } };
    },

    /** A successful login clears the count. */
    async clearFailures(t: TenantRef, email: string): Promise<void> {
      await doc.send(new DeleteCommand({ TableName: tableName, Key: keys.lockout(t, email) }));
    },

    /**
     * Counts one request of (tenant, IP) in the current minute; returns the
     * count so far, this one included.
     */
    async countRequest(t: TenantRef, ip: string, now: Date): Promise<number> {
      const minute = Math.floor(now.getTime() / 60_000);
      const { Attributes } = await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.rateWindow(t, ip, minute),
          UpdateExpression: 'ADD requests :one SET #ttl = :ttl',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':one': 1, ':ttl': (minute + 2) * 60 },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Attributes?.requests as number;
    },
  };
}

export type GuardRepo = ReturnType<typeof guardRepo>;
