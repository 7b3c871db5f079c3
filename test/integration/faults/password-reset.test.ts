import { expect } from 'vitest';
import { handler as resetPasswordHandler } from '#functions/auth/reset-password.ts';
import { forgotPassword } from '#shared/auth/forgot-password.ts';
import { verifyPassword } from '#shared/auth/passwords.ts';
import { sessionRepo } from '#shared/store/session-repo.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import { aStoredUser } from '#test/support/admin.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import {
  ALLOWED,
  aRequest,
  aSessionOf,
  depsKeepingCodes,
  describeAnswer,
  describeUnderFaults,
  type Operation,
  useFaultStack,
} from '#test/support/faults.ts';

/**
 * POST /auth/reset-password under DynamoDB faults, at every call in turn:
 * 503 UNAVAILABLE with the password, the lockout and the code as they were
 * (the same code works on retry), or, once the new password is committed,
 * 204 with every session that was live before the reset revoked.
 */

const NEW_PASSWORD = 'Philodendron-7-vine';

const {
  tenants: [tenant],
} = useFaultStack();

type Fixture = { ip: string; userId: string; challengeId: string; code: string };

const reset: Operation<Fixture> = {
  handler: resetPasswordHandler,
  setup: async (ip) => {
    // No password yet (none to hash): the reset sets the first one, as it would any other.
    const user = await aStoredUser(tenant);
    // A session started before the reset (the one a reset is meant to end).
    await aSessionOf(tenant, user.id);
    const { deps, latestCode } = depsKeepingCodes();
    const { challengeId } = await forgotPassword(deps, tenant, user.email, {
      ip,
      userAgent: 'vitest',
      language: 'en' as const,
    });
    return { ip, userId: user.id, challengeId, code: latestCode() };
  },
  tenant: () => tenant,
  request: (f) =>
    aRequest('POST', '/auth/reset-password', {
      tenant,
      ip: f.ip,
      body: { challengeId: f.challengeId, code: f.code, newPassword: NEW_PASSWORD },
    }),
  succeeded: (answer) => expect(answer.status, JSON.stringify(answer.body)).toBe(204),
  // The sessions end in the reset's own transaction (the credential epoch): nothing is written before it.
  allowed: [ALLOWED.rateCount, ALLOWED.attemptPlace],
  afterCommit: {
    // The transaction that sets the password and uses the code up (the one that names the challenge).
    commitAt: (calls) =>
      calls.findIndex(
        (call) => call.command === 'TransactWriteItems' && call.partitions.some((pk) => pk.includes('#CH#')),
      ),
    async check(run) {
      const problems: string[] = [];
      if (run.answer.status !== 204)
        problems.push(`answered ${describeAnswer(run.answer)}, not 204: the password is set`);
      const user = await userRepo(makeTestDeps().store).get(tenant, run.fixture.userId);
      if (!(await verifyPassword(user?.passwordHash ?? '', NEW_PASSWORD))) problems.push('the new password is not set');
      const live = await sessionRepo(makeTestDeps().store).listLive(
        tenant,
        run.fixture.userId,
        new Date(),
        user?.credentialEpoch ?? 0,
      );
      if (live.length > 0) problems.push(`${live.length} session(s) from before the reset still live`);
      return problems;
    },
  },
};

describeUnderFaults([['POST /auth/reset-password', reset]], 120_000);
