import { beforeAll, describe, expect, it } from 'vitest';
import { handler as reauthenticateHandler } from '#functions/auth/reauthenticate.ts';
import { reauthenticate } from '#shared/auth/reauthenticate.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import {
  ALLOWED,
  type Answer,
  aRequest,
  aSessionOf,
  fakeSes,
  faultMatrix,
  INTERNAL,
  merchantOf,
  type Operation,
  THROTTLING,
  type Trace,
  traceOf,
} from '#test/support/faults.ts';

/**
 * POST /auth/reauthenticate under DynamoDB faults, at every call in turn: the
 * password and the e-mail-code variants answer 503 UNAVAILABLE, leave the
 * session and the code as they were (the session's proof time and the code's
 * use commit in one transaction), and work when retried.
 */

fakeSes();

let tenant: Merchant;
let codeTenant: Merchant;
beforeAll(async () => {
  [tenant, codeTenant] = await Promise.all([
    aTenantWith().then((t) => merchantOf(t)),
    aTenantWith({ loginMode: 'OTP_EMAIL' }).then((t) => merchantOf(t)),
  ]);
});

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
    let code = '';
    const deps = makeTestDeps({
      mailer: {
        send: async (_t, _to, message) => {
          if ('code' in message) code = message.code;
        },
      },
    });
    const principal = {
      kind: 'user' as const,
      userId: user.id,
      sessionId: sidOf(accessToken),
      roles: [],
      authority: 99,
    };
    const asked = await reauthenticate(deps, codeTenant, principal, { loginMode: 'OTP_EMAIL' }, { ip, userAgent: 'x' });
    if (!asked) throw new Error('no challenge');
    return { ip, token: accessToken, challengeId: asked.challengeId, code };
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

describe.each([
  ['with the password', withPassword],
  ['with an e-mail code', withCode],
] as const)('POST /auth/reauthenticate %s under DynamoDB faults', (_name, operation: Operation<any>) => {
  let trace: Trace;
  beforeAll(async () => {
    trace = await traceOf(operation);
  });

  it('answers 503 UNAVAILABLE, leaves nothing half-written and works on retry, whichever call is throttled', async () => {
    expect(await faultMatrix(operation, THROTTLING, trace)).toEqual([]);
  }, 120_000);

  it('answers 503 UNAVAILABLE, leaves nothing half-written and works on retry, whichever call fails', async () => {
    expect(await faultMatrix(operation, INTERNAL, trace)).toEqual([]);
  }, 120_000);
});
