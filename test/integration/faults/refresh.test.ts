import { beforeAll, describe, expect, it } from 'vitest';
import { handler as refreshHandler } from '#functions/auth/refresh.ts';
import { refreshMacKey } from '#shared/tokens/refresh-successor.ts';
import { aStoredUser } from '#test/support/admin.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import {
  ALLOWED,
  aRequest,
  aSessionOf,
  faultMatrix,
  type Operation,
  type Trace,
  traceOf,
  useFaultStack,
} from '#test/support/faults.ts';

/**
 * POST /auth/refresh under DynamoDB faults, at every call in turn: 503
 * UNAVAILABLE, the session and its refresh token as they were (the presented
 * token is not rotated out), so the client's retry with the same token works
 * instead of being taken for a replay.
 */

const {
  tenants: [tenant],
} = useFaultStack();
beforeAll(async () => {
  // The successor key exists, as it does after the first refresh anywhere: the trace is the usual
  // refresh's. (Its first-use creation comes before the rotation, so a fault there rotates nothing either.)
  await refreshMacKey(makeTestDeps());
});

const refresh: Operation<{ ip: string; refreshToken: string }> = {
  handler: refreshHandler,
  setup: async (ip) => {
    const user = await aStoredUser(tenant);
    return { ip, refreshToken: (await aSessionOf(tenant, user.id)).refreshToken };
  },
  tenant: () => tenant,
  request: (f) => aRequest('POST', '/auth/refresh', { tenant, ip: f.ip, body: { refreshToken: f.refreshToken } }),
  succeeded: (answer) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String) });
  },
  // Nothing but the rate count is written before the rotation: a failed refresh leaves no other change.
  allowed: [ALLOWED.rateCount],
};

describe('POST /auth/refresh under DynamoDB faults', () => {
  let trace: Trace;
  beforeAll(async () => {
    trace = await traceOf(refresh);
  });

  it('answers 503 UNAVAILABLE, rotates nothing and works on retry with the same token, whichever call is throttled', async () => {
    expect(await faultMatrix(refresh, ['throttled', 'transaction throttled', 'batch unprocessed'], trace)).toEqual([]);
  }, 60_000);

  it('answers 503 UNAVAILABLE, rotates nothing and works on retry with the same token, whichever call fails', async () => {
    expect(await faultMatrix(refresh, ['internal'], trace)).toEqual([]);
  }, 60_000);
});
