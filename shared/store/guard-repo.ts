import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { StoreClient } from './client.ts';
import { isConditionFailure } from './errors.ts';
import { keys, type LockPurpose, type TenantRef } from './keys.ts';
import { getItem } from './prefetch.ts';
import type { TransactItem } from './transact.ts';
import { HOUR_MS, ttlAfter } from './ttl.ts';

export interface LockoutPolicy {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

/**
 * 5 failures within 15 minutes lock the (tenant, address,
 * purpose) for 15 minutes: wrong passwords and login codes (LOGIN), and wrong
 * reset, signup and e-mail-change codes, each purpose on its own.
 */
export const LOCKOUT: LockoutPolicy = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

/**
 * One attempt's place in the lock item: slot attribute `a<i>` holding
 * `<13-digit ms>#<nonce>` while its guess is being evaluated, `<ms>#F` once
 * it was wrong. A slot is free when absent or older than the window.
 */
export interface Reservation {
  key: { pk: string; sk: string };
  slot: string;
  value: string;
  /**
   * Whether the lock item, as this reservation found it, held anything to clear: a failure or a lock (or it was
   * not read: the write went blind). A success with nothing counted only gives its own place back.
   */
  counted: boolean;
}

/** Why a reservation was refused, and when to try again. */
export interface Refusal {
  locked: boolean;
  retryAt: Date;
}

const FAILED = 'F';
const stamp = (ms: number) => String(ms).padStart(13, '0');
const timeOf = (value: string) => Number(value.slice(0, 13));
const slotNames = (policy: LockoutPolicy) => Array.from({ length: policy.maxFailures }, (_, i) => `a${i}`);

/** How many contested reservation writes one request makes before it answers as refused. */
const RESERVE_TRIES = 8;

/**
 * Counters that guard the auth endpoints: the lockout per (tenant, address,
 * purpose) and the rate limit per (tenant, IP). Every count is one
 * conditional update, so concurrent requests count exactly.
 */
export function guardRepo(store: StoreClient) {
  const { doc, tableName } = store;
  /** One more in a fixed window's counter item (`field`), kept until `ttl` (epoch seconds); the window's count. */
  const countInWindow = async (key: { pk: string; sk: string }, field: string, ttl: number): Promise<number> => {
    const { Attributes } = await doc.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'ADD #count :one SET #ttl = :ttl',
        ExpressionAttributeNames: { '#count': field, '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':one': 1, ':ttl': ttl },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Attributes?.[field] as number;
  };

  /** The item as stored (consistent), after a reservation write met another request's. */
  const reread = async (key: { pk: string; sk: string }) =>
    (await doc.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;

  return {
    /**
     * When the (tenant, address, purpose) is locked, until when; and whether
     * anything is counted at all (a successful login then has an item to clear).
     */
    async lockState(
      t: TenantRef,
      email: string,
      now: Date,
      purpose: LockPurpose = 'LOGIN',
    ): Promise<{ lockedUntil: Date | null; counted: boolean }> {
      const Item = await getItem(store, keys.lockout(t, email, purpose));
      const until = Item?.lockedUntil ? new Date(Item.lockedUntil as string) : null;
      return { lockedUntil: until && until > now ? until : null, counted: Item !== undefined };
    },

    /**
     * Reserves the right to evaluate one guess, before it is evaluated
     * (docs/security.md#lockouts): one conditional write takes a free slot of the
     * lock item, so of any burst at most `maxFailures` guesses are evaluated
     * per window; the others are refused without their guess being looked at.
     * The first write goes blind (or from what the route prefetched); only a
     * taken slot costs a consistent read and another write.
     */
    async reserveAttempt(
      t: TenantRef,
      email: string,
      now: Date,
      nonce: string,
      purpose: LockPurpose = 'LOGIN',
      policy = LOCKOUT,
    ): Promise<Reservation | Refusal> {
      const key = keys.lockout(t, email, purpose);
      const nowMs = now.getTime();
      const cutoff = stamp(nowMs - policy.windowMs);
      const value = `${stamp(nowMs)}#${nonce}`;
      // What the route read with its tenant, if it did (null: there is none); otherwise start blind (undefined), as if
      // the item were empty.
      let item: Record<string, unknown> | null | undefined = store.prefetched?.take(key);
      for (let tries = 0; tries < RESERVE_TRIES; tries++) {
        const lockedUntil = item?.lockedUntil ? Date.parse(item.lockedUntil as string) : 0;
        if (lockedUntil > nowMs) return { locked: true, retryAt: new Date(lockedUntil) };
        const taken = slotNames(policy).filter((s) => typeof item?.[s] === 'string' && (item[s] as string) >= cutoff);
        const free = slotNames(policy).filter((s) => !taken.includes(s));
        if (free.length === 0) return { locked: false, retryAt: whenASlotFrees(item ?? {}, taken, nowMs, policy) };
        // A random free slot: concurrent requests that read the same item rarely pick the same one.
        const slot = free[Math.floor(Math.random() * free.length)] as string;
        try {
          await doc.send(
            new UpdateCommand({
              TableName: tableName,
              Key: key,
              UpdateExpression: 'SET #slot = :value, #ttl = :ttl',
              ConditionExpression:
                '(attribute_not_exists(lockedUntil) OR lockedUntil <= :now) AND (attribute_not_exists(#slot) OR #slot < :cutoff)',
              ExpressionAttributeNames: { '#slot': slot, '#ttl': 'ttl' },
              ExpressionAttributeValues: {
                ':value': value,
                ':now': now.toISOString(),
                ':cutoff': cutoff,
                ':ttl': ttlAfter(now, policy.windowMs + policy.lockMs + HOUR_MS),
              },
            }),
          );
          return { key, slot, value, counted: item === undefined || holdsACount(item) };
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
          item = (await reread(key)) ?? null; // the slot was taken meanwhile, or the lock engaged: look again
        }
      }
      // Only a burst far past the limit gets here: it is refused like one.
      return { locked: false, retryAt: new Date(nowMs + 1000) };
    },

    /**
     * The reserved guess was wrong: its slot becomes a failure (counted in
     * `failures` too). When the window then holds `maxFailures` failures the
     * lock engages; answers its end when this failure engaged it. A slot that
     * is no longer this reservation's (a success cleared the count meanwhile)
     * counts nothing: the success came after.
     */
    async recordFailure(r: Reservation, now: Date, policy = LOCKOUT): Promise<Date | null> {
      let Attributes: Record<string, unknown> | undefined;
      try {
        ({ Attributes } = await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: r.key,
            UpdateExpression: 'SET #slot = :failed ADD failures :one',
            ConditionExpression: '#slot = :mine',
            ExpressionAttributeNames: { '#slot': r.slot },
            ExpressionAttributeValues: { ':failed': `${stamp(now.getTime())}#${FAILED}`, ':mine': r.value, ':one': 1 },
            ReturnValues: 'ALL_NEW',
          }),
        ));
      } catch (error) {
        if (isConditionFailure(error)) return null;
        throw error;
      }
      const cutoff = stamp(now.getTime() - policy.windowMs);
      const failures = slotNames(policy).filter((s) => {
        const v = Attributes?.[s];
        return typeof v === 'string' && v >= cutoff && v.endsWith(`#${FAILED}`);
      }).length;
      if (failures < policy.maxFailures) return null;
      const until = new Date(now.getTime() + policy.lockMs);
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: r.key,
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

    /** The reserved guess was right, or never evaluated: its slot is free again (if it is still its own). */
    async releaseAttempt(r: Reservation): Promise<void> {
      await doc
        .send(
          new UpdateCommand({
            TableName: tableName,
            Key: r.key,
            UpdateExpression: 'REMOVE #slot',
            ConditionExpression: '#slot = :mine',
            ExpressionAttributeNames: { '#slot': r.slot },
            ExpressionAttributeValues: { ':mine': r.value },
          }),
        )
        .catch((error: unknown) => {
          if (!isConditionFailure(error)) throw error;
        });
    },

    /** The count's clearing, for the transaction of a success that proves the owner (a login, a reset, a code). */
    clearLockoutItem(t: TenantRef, email: string, purpose: LockPurpose = 'LOGIN'): TransactItem {
      return { Delete: { TableName: tableName, Key: keys.lockout(t, email, purpose) } };
    },

    /** A successful login clears the count. */
    async clearFailures(t: TenantRef, email: string, purpose: LockPurpose = 'LOGIN'): Promise<void> {
      await doc.send(new DeleteCommand({ TableName: tableName, Key: keys.lockout(t, email, purpose) }));
    },

    /**
     * Counts one request of (tenant, IP) in the current minute; returns the
     * count so far, this one included.
     */
    async countRequest(t: TenantRef, ip: string, now: Date): Promise<number> {
      const minute = Math.floor(now.getTime() / 60_000);
      return countInWindow(keys.rateWindow(t, ip, minute), 'requests', (minute + 2) * 60);
    },

    /** Counts one open signup of (tenant, IP) in the current hour; answers the hour's count, this one included. */
    async countSignup(t: TenantRef, ip: string, now: Date): Promise<number> {
      const hour = Math.floor(now.getTime() / HOUR_MS);
      return countInWindow(keys.signupWindow(t, ip, hour), 'signups', ((hour + 2) * HOUR_MS) / 1000);
    },
  };
}

/** A failure still in a slot (within the window or not: a clear removes it), or a lock set. */
function holdsACount(item: Record<string, unknown> | null): boolean {
  if (!item) return false;
  return (
    item.lockedUntil !== undefined || Object.values(item).some((v) => typeof v === 'string' && v.endsWith(`#${FAILED}`))
  );
}

/**
 * Every slot is taken: a guess still being evaluated frees its slot within
 * moments (1 s); otherwise the oldest failure leaves the window.
 */
function whenASlotFrees(item: Record<string, unknown>, taken: string[], nowMs: number, policy: LockoutPolicy): Date {
  const values = taken.map((s) => item[s] as string);
  if (values.some((v) => !v.endsWith(`#${FAILED}`))) return new Date(nowMs + 1000);
  const oldest = Math.min(...values.map(timeOf));
  return new Date(Math.max(nowMs + 1000, oldest + policy.windowMs + 1));
}

export function isRefusal(outcome: Reservation | Refusal): outcome is Refusal {
  return 'retryAt' in outcome;
}
