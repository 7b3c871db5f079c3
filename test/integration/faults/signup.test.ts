import { expect } from 'vitest';
import { handler as signupHandler } from '#functions/auth/signup.ts';
import { handler as signupVerifyHandler } from '#functions/auth/signup-verify.ts';
import { createInvitation } from '#shared/auth/invitations.ts';
import { signup } from '#shared/auth/signup.ts';
import { anEmail } from '#test/support/admin.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import {
  ALLOWED,
  type Answer,
  aRequest,
  depsKeepingCodes,
  describeUnderFaults,
  type Operation,
  useFaultStack,
} from '#test/support/faults.ts';

/**
 * Sign-up under DynamoDB faults: POST /auth/signup (a new address, and an
 * invitation being accepted) and POST /auth/signup/verify, each failed at
 * every DynamoDB call in turn, answer 503 UNAVAILABLE, leave no half-made
 * user, claim or challenge (only the rate count) and work when retried.
 */

const PASSWORD = 'Monstera-42-leaf';

const {
  tenants: [tenant],
} = useFaultStack();

const signupBody = (email: string, extra: Record<string, string> = {}) => ({
  app: tenant.app,
  mid: tenant.mid,
  email,
  password: PASSWORD,
  firstName: 'Moss',
  lastName: 'Stone',
  ...extra,
});

const openSignup: Operation<{ ip: string; email: string }> = {
  handler: signupHandler,
  setup: async (ip) => ({ ip, email: anEmail('signup') }),
  tenant: () => tenant,
  request: (f) => aRequest('POST', '/auth/signup', { tenant, ip: f.ip, body: signupBody(f.email) }),
  succeeded: (answer: Answer) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toEqual({ success: true, data: { challengeId: expect.any(String) } });
  },
  allowed: [ALLOWED.rateCount, ALLOWED.mailDayCount],
};

const invitedSignup: Operation<{ ip: string; email: string; token: string }> = {
  handler: signupHandler,
  setup: async (ip) => {
    const email = anEmail('invited');
    const invitation = await createInvitation(makeTestDeps(), tenant, { email, invitedBy: tenant.id });
    return { ip, email, token: invitation.invitationToken };
  },
  tenant: () => tenant,
  request: (f) =>
    aRequest('POST', '/auth/signup', { tenant, ip: f.ip, body: signupBody(f.email, { invitationToken: f.token }) }),
  succeeded: (answer: Answer) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toEqual({ success: true, data: null });
  },
  allowed: [ALLOWED.rateCount],
};

const verifySignup: Operation<{ ip: string; challengeId: string; code: string }> = {
  handler: signupVerifyHandler,
  setup: async (ip) => {
    const { deps, latestCode } = depsKeepingCodes();
    const opened = await signup(deps, tenant, signupBody(anEmail('verify')), {
      ip,
      userAgent: 'vitest',
      language: 'en' as const,
    });
    if (!opened) throw new Error('no challenge');
    return { ip, challengeId: opened.challengeId, code: latestCode() };
  },
  tenant: () => tenant,
  request: (f) =>
    aRequest('POST', '/auth/signup/verify', { tenant, ip: f.ip, body: { challengeId: f.challengeId, code: f.code } }),
  succeeded: (answer: Answer) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toMatchObject({
      accessToken: expect.any(String),
      user: { status: 'ACTIVE', emailStatus: 'VALIDATED' },
    });
  },
  allowed: [ALLOWED.rateCount, ALLOWED.attemptPlace],
};

const cases: [string, Operation<any>][] = [
  ['POST /auth/signup with a new address', openSignup],
  ['POST /auth/signup with an invitation', invitedSignup],
  ['POST /auth/signup/verify', verifySignup],
];

describeUnderFaults(cases, 120_000);
