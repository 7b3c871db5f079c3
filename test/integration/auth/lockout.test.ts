import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { guardRepo, isRefusal, type Reservation } from '#shared/store/guard-repo.ts';
import { keys, type LockPurpose, type TenantRef } from '#shared/store/keys.ts';
import { makeTestDeps } from '#test/support/deps.ts';

const deps = makeTestDeps();
const guards = guardRepo(deps.store);
const MINUTE = 60_000;
const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms);

let counter = 0;
/** A fresh tenant and e-mail per test: no test sees another's counters. */
function fresh(): { tenant: TenantRef; email: string } {
  counter++;
  const suffix = `${process.pid}${Date.now().toString(36)}${counter}`;
  return { tenant: { app: 'app_x', mid: `mid_${suffix}` }, email: `fern-${suffix}@shop.test` };
}

async function lockItem(tenant: TenantRef, email: string) {
  const { Item } = await deps.store.doc.send(
    new GetCommand({ TableName: deps.store.tableName, Key: keys.lockout(tenant, email), ConsistentRead: true }),
  );
  return Item;
}

let nonces = 0;
const reserve = (tenant: TenantRef, email: string, now: Date, purpose: LockPurpose = 'LOGIN') =>
  guards.reserveAttempt(tenant, email, now, `n${++nonces}`, purpose);

/** One wrong guess: its attempt reserved, then counted; the lock end when it engaged the lock. */
async function wrongGuess(tenant: TenantRef, email: string, now: Date, purpose: LockPurpose = 'LOGIN') {
  const outcome = await reserve(tenant, email, now, purpose);
  if (isRefusal(outcome)) throw new Error(`refused: ${JSON.stringify(outcome)}`);
  return guards.recordFailure(outcome, now);
}

describe('guards: wrong guesses', () => {
  it('lock on the 5th within 15 minutes (until now + 15 min), and only on the 5th', async () => {
    const { tenant, email } = fresh();
    const results: (Date | null)[] = [];
    for (let i = 0; i < 5; i++) results.push(await wrongGuess(tenant, email, at(i * MINUTE)));
    expect(results).toEqual([null, null, null, null, at(4 * MINUTE + 15 * MINUTE)]);
    // Locked: the 6th guess is not even reserved, so never evaluated.
    expect(await reserve(tenant, email, at(5 * MINUTE))).toEqual({ locked: true, retryAt: at(19 * MINUTE) });
  });

  it('make lockedUntil answer the lock end until then, and null from then on, when guesses are reserved again', async () => {
    const { tenant, email } = fresh();
    expect((await guards.lockState(tenant, email, at(0))).lockedUntil).toBeNull();
    for (let i = 0; i < 5; i++) await wrongGuess(tenant, email, at(i * 1000));
    const end = at(4000 + 15 * MINUTE);
    expect((await guards.lockState(tenant, email, at(4000))).lockedUntil).toEqual(end);
    expect((await guards.lockState(tenant, email, new Date(end.getTime() - 1))).lockedUntil).toEqual(end);
    expect(isRefusal(await reserve(tenant, email, new Date(end.getTime() - 1)))).toBe(true);
    expect((await guards.lockState(tenant, email, end)).lockedUntil).toBeNull();
    expect(isRefusal(await reserve(tenant, email, end))).toBe(false);
  });

  it('never lock when spread so that no 15 minutes hold 5 of them (the window slides)', async () => {
    const { tenant, email } = fresh();
    for (let i = 0; i < 12; i++) {
      const now = at(i * 4 * MINUTE);
      expect(await wrongGuess(tenant, email, now)).toBeNull();
      expect((await guards.lockState(tenant, email, now)).lockedUntil).toBeNull();
    }
  });

  it('lock on 5 within any 15 minutes, even when they straddle the edge of a fixed window', async () => {
    const { tenant, email } = fresh();
    await wrongGuess(tenant, email, at(0));
    const late = [14 * MINUTE, 14.5 * MINUTE, 15.5 * MINUTE, 16 * MINUTE, 16.5 * MINUTE];
    const results: (Date | null)[] = [];
    for (const ms of late) results.push(await wrongGuess(tenant, email, at(ms)));
    expect(results.filter((until) => until !== null)).toHaveLength(1);
    expect((await guards.lockState(tenant, email, at(16.5 * MINUTE))).lockedUntil).not.toBeNull();
  });

  it('keep one address apart from another, from another tenant, and from another purpose', async () => {
    const { tenant, email } = fresh();
    const other = fresh();
    for (let i = 0; i < 5; i++) await wrongGuess(tenant, email, at(i * 1000));
    expect((await guards.lockState(tenant, email, at(5000))).lockedUntil).not.toBeNull();
    expect((await guards.lockState(tenant, other.email, at(5000))).lockedUntil).toBeNull();
    expect((await guards.lockState(other.tenant, email, at(5000))).lockedUntil).toBeNull();
    for (const purpose of ['PASSWORD_RESET', 'SIGNUP', 'EMAIL_CHANGE'] as const) {
      expect((await guards.lockState(tenant, email, at(5000), purpose)).lockedUntil).toBeNull();
      expect(isRefusal(await reserve(tenant, email, at(5000), purpose))).toBe(false);
    }
  });
});

describe('guards.reserveAttempt: the attempt reserved before the guess is evaluated', () => {
  it('reserves exactly 5 of 20 concurrent attempts; the 5 wrong ones count exactly and one of them locks', async () => {
    const { tenant, email } = fresh();
    const now = at(0);
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => reserve(tenant, email, now)));
    const reserved = outcomes.filter((o) => !isRefusal(o)) as Reservation[];
    expect(reserved).toHaveLength(5);
    for (const refused of outcomes.filter(isRefusal)) expect(refused.locked).toBe(false);
    const locks = (await Promise.all(reserved.map((r) => guards.recordFailure(r, now)))).filter(Boolean);
    expect(locks).toEqual([at(15 * MINUTE)]);
    expect((await lockItem(tenant, email))?.failures).toBe(5);
    expect(await reserve(tenant, email, now)).toEqual({ locked: true, retryAt: at(15 * MINUTE) });
  });

  it('gives a released place back: a right guess (or one never evaluated) does not count', async () => {
    const { tenant, email } = fresh();
    const first = await reserve(tenant, email, at(0));
    for (let i = 1; i < 5; i++) await wrongGuess(tenant, email, at(i * 1000));
    expect(await reserve(tenant, email, at(6000))).toMatchObject({ locked: false });
    await guards.releaseAttempt(first as Reservation);
    const next = await reserve(tenant, email, at(7000));
    expect(isRefusal(next)).toBe(false);
    expect(await guards.recordFailure(next as Reservation, at(7000))).toEqual(at(7000 + 15 * MINUTE));
    expect((await lockItem(tenant, email))?.failures).toBe(5);
  });

  it('reads the lock item it was handed by the route (prefetch) and goes blind otherwise, finding a taken slot', async () => {
    const { tenant, email } = fresh();
    // Four failures fill four of the five places; a blind reservation must still find the free one.
    for (let i = 0; i < 4; i++) await wrongGuess(tenant, email, at(i * 1000));
    for (let i = 0; i < 3; i++) {
      const r = await reserve(tenant, email, at(5000));
      expect(isRefusal(r)).toBe(false);
      await guards.releaseAttempt(r as Reservation);
    }
  });

  it('counts nothing for a guess whose count a success cleared meanwhile', async () => {
    const { tenant, email } = fresh();
    const r = (await reserve(tenant, email, at(0))) as Reservation;
    await guards.clearFailures(tenant, email);
    expect(await guards.recordFailure(r, at(1000))).toBeNull();
    expect(await lockItem(tenant, email)).toBeUndefined();
  });
});

describe('guards.clearFailures', () => {
  it('starts the count again: 4 failures, a clear, then 4 more do not lock, a 5th does', async () => {
    const { tenant, email } = fresh();
    for (let i = 0; i < 4; i++) await wrongGuess(tenant, email, at(i * 1000));
    await guards.clearFailures(tenant, email);
    expect((await guards.lockState(tenant, email, at(3500))).counted).toBe(false);
    for (let i = 4; i < 8; i++) expect(await wrongGuess(tenant, email, at(i * 1000))).toBeNull();
    expect((await guards.lockState(tenant, email, at(8000))).lockedUntil).toBeNull();
    expect(await wrongGuess(tenant, email, at(9000))).toEqual(at(9000 + 15 * MINUTE));
  });
});

describe('guards.countRequest', () => {
  it('counts 20 concurrent requests of one (tenant, IP) in one minute exactly: 1 to 20', async () => {
    const { tenant } = fresh();
    const now = at(10_000);
    const counts = await Promise.all(Array.from({ length: 20 }, () => guards.countRequest(tenant, '203.0.113.7', now)));
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('starts again at 1 in a new minute, and per IP', async () => {
    const { tenant } = fresh();
    expect(await guards.countRequest(tenant, '203.0.113.7', at(0))).toBe(1);
    expect(await guards.countRequest(tenant, '203.0.113.7', at(59_999))).toBe(2);
    expect(await guards.countRequest(tenant, '203.0.113.7', at(MINUTE))).toBe(1);
    expect(await guards.countRequest(tenant, '203.0.113.8', at(MINUTE))).toBe(1);
  });
});
