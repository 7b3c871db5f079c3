import { expect } from 'vitest';
import { handler as startHandler } from '#functions/users/start-email-change.ts';
import { handler as verifyHandler } from '#functions/users/verify-email-change.ts';
import { requestEmailChange } from '#shared/account/email-change.ts';
import { anEmail, aStoredUser } from '#test/support/admin.ts';
import {
  ALLOWED,
  aRequest,
  aSessionOf,
  depsKeepingCodes,
  describeUnderFaults,
  type Operation,
  useFaultStack,
} from '#test/support/faults.ts';

/**
 * The e-mail change under DynamoDB faults: POST /users/me/email-change and
 * its verification, each failed at every DynamoDB call in turn (the bearer
 * check's reads included), answer 503 UNAVAILABLE, leave the claims, the
 * profile and the challenge as they were, and work when retried (the same
 * code still verifies).
 */

const {
  tenants: [tenant],
} = useFaultStack();

/** A user of the tenant, signed in. */
async function aSignedInUser() {
  const user = await aStoredUser(tenant);
  return { userId: user.id, token: (await aSessionOf(tenant, user.id)).accessToken };
}

const start: Operation<{ ip: string; token: string; newEmail: string }> = {
  handler: startHandler,
  setup: async (ip) => ({ ip, token: (await aSignedInUser()).token, newEmail: anEmail('moved') }),
  tenant: () => tenant,
  request: (f) =>
    aRequest('POST', '/users/me/email-change', { tenant, ip: f.ip, bearer: f.token, body: { newEmail: f.newEmail } }),
  succeeded: (answer) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({ challengeId: expect.any(String) });
  },
  allowed: [ALLOWED.rateCount, ALLOWED.mailDayCount],
};

const verify: Operation<{ ip: string; token: string; challengeId: string; code: string }> = {
  handler: verifyHandler,
  setup: async (ip) => {
    const caller = await aSignedInUser();
    const { deps, latestCode } = depsKeepingCodes();
    const principal = {
      kind: 'user' as const,
      userId: caller.userId,
      sessionId: 'ses_x',
      roles: [],
      authority: 99,
      authenticatedAt: new Date().toISOString(),
    };
    const { challengeId } = await requestEmailChange(deps, tenant, principal, anEmail('moved'), {
      ip,
      userAgent: 'vitest',
      language: 'en',
    });
    return { ip, token: caller.token, challengeId, code: latestCode() };
  },
  tenant: () => tenant,
  request: (f) =>
    aRequest('POST', '/users/me/email-change/verify', {
      tenant,
      ip: f.ip,
      bearer: f.token,
      body: { challengeId: f.challengeId, code: f.code },
    }),
  succeeded: (answer) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ type: 'EMAIL', status: 'COMPLETED' });
  },
  allowed: [ALLOWED.rateCount, ALLOWED.attemptPlace],
};

const cases: [string, Operation<any>][] = [
  ['POST /users/me/email-change', start],
  ['POST /users/me/email-change/verify', verify],
];

describeUnderFaults(cases, 60_000);
