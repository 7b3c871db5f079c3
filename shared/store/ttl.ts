/**
 * DynamoDB's TTL attribute is epoch seconds; an item is deleted some time
 * (up to days) after it, never before. Reads that must not see an expired
 * item check their own expiry, or `ttl > now` (DynamoDB Local never deletes).
 */

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** How long records of what happened (activity, audit) are kept. */
export const RECORD_RETENTION_MS = 400 * DAY_MS;

/** The `ttl` of an item that may go `afterMs` after `at` (a Date or an ISO 8601 string). */
export function ttlAfter(at: Date | string, afterMs = 0): number {
  const ms = typeof at === 'string' ? Date.parse(at) : at.getTime();
  return Math.floor((ms + afterMs) / 1000);
}

/** Now, as the `ttl` attribute counts (a read filters `ttl > nowInTtl(now)`). */
export function ttlNow(now: Date): number {
  return ttlAfter(now);
}
