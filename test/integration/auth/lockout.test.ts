import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys, type TenantRef } from '#shared/store/keys.ts';
import { makeTestDeps } from '#test/support/deps.ts';

const deps = makeTestDeps();
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

describe('guards.recordFailure', () => {
  it('returns the lock end (now + 15 min) on the 5th failure within 15 minutes, and only on the 5th', async () => {
    const { tenant, email } = fresh();
    const results: (Date | null)[] = [];
    for (let i = 0; i < 7; i++) results.push(await deps.guards.recordFailure(tenant, email, at(i * MINUTE)));
    expect(results).toEqual([null, null, null, null, at(4 * MINUTE + 15 * MINUTE), null, null]);
  });

  it('makes lockedUntil answer the lock end until then, and null from then on', async () => {
    const { tenant, email } = fresh();
    expect((await deps.guards.lockState(tenant, email, at(0))).lockedUntil).toBeNull();
    for (let i = 0; i < 5; i++) await deps.guards.recordFailure(tenant, email, at(i * 1000));
    const end = at(4000 + 15 * MINUTE);
    expect((await deps.guards.lockState(tenant, email, at(4000))).lockedUntil).toEqual(end);
    expect((await deps.guards.lockState(tenant, email, new Date(end.getTime() - 1))).lockedUntil).toEqual(end);
    expect((await deps.guards.lockState(tenant, email, end)).lockedUntil).toBeNull();
    expect((await deps.guards.lockState(tenant, email, new Date(end.getTime() + MINUTE))).lockedUntil).toBeNull();
  });

  it('never locks failures spread so that no 15 minutes hold 5 of them (the window restarts)', async () => {
    const { tenant, email } = fresh();
    for (let i = 0; i < 12; i++) {
      const now = at(i * 4 * MINUTE);
      expect(await deps.guards.recordFailure(tenant, email, now)).toBeNull();
      expect((await deps.guards.lockState(tenant, email, now)).lockedUntil).toBeNull();
    }
  });

  it('locks on 5 failures within any 15 minutes, even when they straddle the start of a new counting window', async () => {
    const { tenant, email } = fresh();
    // One failure opens a window at 0; five more come 14 to 16.5 minutes later: 5 failures within 2.5 minutes.
    await deps.guards.recordFailure(tenant, email, at(0));
    const late = [14 * MINUTE, 14.5 * MINUTE, 15.5 * MINUTE, 16 * MINUTE, 16.5 * MINUTE];
    const results: (Date | null)[] = [];
    for (const ms of late) results.push(await deps.guards.recordFailure(tenant, email, at(ms)));
    expect(results.filter((until) => until !== null)).toHaveLength(1);
    expect((await deps.guards.lockState(tenant, email, at(16.5 * MINUTE))).lockedUntil).not.toBeNull();
  });

  it('counts 10 concurrent failures exactly, and exactly one of them starts the lock', async () => {
    const { tenant, email } = fresh();
    const now = at(0);
    const results = await Promise.all(Array.from({ length: 10 }, () => deps.guards.recordFailure(tenant, email, now)));
    const locks = results.filter((until) => until !== null);
    expect(locks).toEqual([at(15 * MINUTE)]);
    expect((await lockItem(tenant, email))?.failures).toBe(10);
    expect((await deps.guards.lockState(tenant, email, now)).lockedUntil).toEqual(at(15 * MINUTE));
  });

  it('keeps the counters of one e-mail apart from another e-mail and from another tenant', async () => {
    const { tenant, email } = fresh();
    const other = fresh();
    for (let i = 0; i < 5; i++) await deps.guards.recordFailure(tenant, email, at(i * 1000));
    expect((await deps.guards.lockState(tenant, email, at(5000))).lockedUntil).not.toBeNull();
    expect((await deps.guards.lockState(tenant, other.email, at(5000))).lockedUntil).toBeNull();
    expect((await deps.guards.lockState(other.tenant, email, at(5000))).lockedUntil).toBeNull();
  });
});

describe('guards.lockState', () => {
  it('says whether any failure is counted, so that a success clears only a counter that exists', async () => {
    const { tenant, email } = fresh();
    expect(await deps.guards.lockState(tenant, email, at(0))).toEqual({ lockedUntil: null, counted: false });
    await deps.guards.recordFailure(tenant, email, at(1000));
    expect(await deps.guards.lockState(tenant, email, at(2000))).toEqual({ lockedUntil: null, counted: true });
    await deps.guards.clearFailures(tenant, email);
    expect((await deps.guards.lockState(tenant, email, at(3000))).counted).toBe(false);
  });
});

describe('guards.clearFailures', () => {
  it('starts the count again: 4 failures, a clear, then 4 more do not lock', async () => {
    const { tenant, email } = fresh();
    for (let i = 0; i < 4; i++) await deps.guards.recordFailure(tenant, email, at(i * 1000));
    await deps.guards.clearFailures(tenant, email);
    for (let i = 4; i < 8; i++) expect(await deps.guards.recordFailure(tenant, email, at(i * 1000))).toBeNull();
    expect((await deps.guards.lockState(tenant, email, at(8000))).lockedUntil).toBeNull();
    expect(await deps.guards.recordFailure(tenant, email, at(9000))).toEqual(at(9000 + 15 * MINUTE));
  });
});

describe('guards.countRequest', () => {
  it('counts 20 concurrent requests of one (tenant, IP) in one minute exactly: 1 to 20', async () => {
    const { tenant } = fresh();
    const now = at(10_000);
    const counts = await Promise.all(
      Array.from({ length: 20 }, () => deps.guards.countRequest(tenant, '203.0.113.7', now)),
    );
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('starts again at 1 in a new minute, and per IP', async () => {
    const { tenant } = fresh();
    expect(await deps.guards.countRequest(tenant, '203.0.113.7', at(0))).toBe(1);
    expect(await deps.guards.countRequest(tenant, '203.0.113.7', at(59_999))).toBe(2);
    expect(await deps.guards.countRequest(tenant, '203.0.113.7', at(MINUTE))).toBe(1);
    expect(await deps.guards.countRequest(tenant, '203.0.113.8', at(MINUTE))).toBe(1);
  });
});
