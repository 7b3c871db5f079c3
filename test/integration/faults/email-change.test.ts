import { beforeAll, describe, expect, it } from 'vitest';
import { handler as startHandler } from '#functions/users/start-email-change.ts';
import { handler as verifyHandler } from '#functions/users/verify-email-change.ts';
import { requestEmailChange } from '#shared/account/email-change.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { anEmail, aStoredUser } from '#test/support/admin.ts';
import { aTenantWith } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import {
  ALLOWED,
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
 * The e-mail change under DynamoDB faults: POST /users/me/email-change and
 * its verification, each failed at every DynamoDB call in turn (the bearer
 * check's reads included), answer 503 UNAVAILABLE, leave the claims, the
 * profile and the challenge as they were, and work when retried (the same
 * code still verifies).
 */

// Mail goes to a fake SES that takes everything: these tests are about DynamoDB.
fakeSes();

let tenant: Merchant;
beforeAll(async () => {
  tenant = await merchantOf(await aTenantWith());
});

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
      userId: caller.userId,
      sessionId: 'ses_x',
      roles: [],
      authority: 99,
      authenticatedAt: new Date().toISOString(),
    };
    const { challengeId } = await requestEmailChange(deps, tenant, principal, anEmail('moved'), {
      ip,
      userAgent: 'vitest',
    });
    return { ip, token: caller.token, challengeId, code };
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

describe.each(cases)('%s under DynamoDB faults', (_name, operation) => {
  let trace: Trace;
  beforeAll(async () => {
    trace = await traceOf(operation);
  });

  it('answers 503 UNAVAILABLE, leaves nothing half-written and works on retry, whichever call is throttled', async () => {
    expect(await faultMatrix(operation, THROTTLING, trace)).toEqual([]);
  }, 60_000);

  it('answers 503 UNAVAILABLE, leaves nothing half-written and works on retry, whichever call fails', async () => {
    expect(await faultMatrix(operation, INTERNAL, trace)).toEqual([]);
  }, 60_000);
});
