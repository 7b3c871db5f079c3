import { expect } from 'vitest';
import { handler as reauthenticateHandler } from '#functions/auth/reauthenticate.ts';
import { reauthenticate } from '#shared/auth/reauthenticate.ts';
import { aUser } from '#test/support/auth.ts';
import {
  ALLOWED,
  type Answer,
  aRequest,
  aSessionOf,
  depsKeepingCodes,
  describeUnderFaults,
  type Operation,
  useFaultStack,
} from '#test/support/faults.ts';

/**
 * POST /auth/reauthenticate under DynamoDB faults, at every call in turn: the
 * password and the e-mail-code variants answer 503 UNAVAILABLE, leave the
 * session and the code as they were (the session's proof time and the code's
 * use commit in one transaction), and work when retried.
 */

const {
  tenants: [tenant, codeTenant],
} = useFaultStack({ tenants: [{}, { loginMode: 'OTP_EMAIL' }] });

const sidOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')).sid;

const reauthenticated = (answer: Answer) => expect(answer.status, JSON.stringify(answer.body)).toBe(204);

const withPassword: Operation<{ ip: string; token: string; password: string }> = {
  handler: reauthenticateHandler,
  setup: async (ip) => {
    const user = await aUser(tenant);
    return { ip, token: (await aSessionOf(tenant, user.id)).accessToken, password: user.password };
  },
  tenant: () => tenant,
  request: (f) =>
    aRequest('POST', '/auth/reauthenticate', { tenant, ip: f.ip, bearer: f.token, body: { password: f.password } }),
  succeeded: reauthenticated,
  allowed: [ALLOWED.rateCount, ALLOWED.attemptPlace],
};

const withCode: Operation<{ ip: string; token: string; challengeId: string; code: string }> = {
  handler: reauthenticateHandler,
  setup: async (ip) => {
    const user = await aUser(codeTenant);
    const { accessToken } = await aSessionOf(codeTenant, user.id);
    const { deps, latestCode } = depsKeepingCodes();
    const principal = {
      kind: 'user' as const,
      userId: user.id,
      sessionId: sidOf(accessToken),
      roles: [],
      authority: 99,
    };
    const asked = await reauthenticate(
      deps,
      codeTenant,
      principal,
      { loginMode: 'OTP_EMAIL' },
      { ip, userAgent: 'x', language: 'en' as const },
    );
    if (!asked) throw new Error('no challenge');
    return { ip, token: accessToken, challengeId: asked.challengeId, code: latestCode() };
  },
  tenant: () => codeTenant,
  request: (f) =>
    aRequest('POST', '/auth/reauthenticate', {
      tenant: codeTenant,
      ip: f.ip,
      bearer: f.token,
      body: { challengeId: f.challengeId, code: f.code },
    }),
  succeeded: reauthenticated,
  allowed: [ALLOWED.rateCount, ALLOWED.attemptPlace],
};

describeUnderFaults(
  [
    ['POST /auth/reauthenticate with the password', withPassword],
    ['POST /auth/reauthenticate with an e-mail code', withCode],
  ],
  120_000,
);
