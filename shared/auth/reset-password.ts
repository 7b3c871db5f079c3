import { recordActivity } from '../activity/record.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import type { Merchant } from '../tenancy/types.ts';
import { answerCodeChallenge, liveChallenge } from './challenges.ts';
import { enforceRateLimit } from './guards.ts';
import { isCommonPassword } from './password-policy.ts';
import { hashPassword } from './passwords.ts';
import type { RequestInfo } from './refresh-token.ts';

/** POST /auth/reset-password: the code sets a new password and revokes every session of the user. */
export async function resetPassword(
  deps: Deps,
  tenant: Merchant,
  body: { challengeId: string; code: string; newPassword: string },
  request: RequestInfo,
) {
  await enforceRateLimit(deps, tenant, request.ip);
  if (isCommonPassword(body.newPassword)) {
    throw fail('PASSWORD_TOO_COMMON', {
      detail: 'newPassword: is one of the most common passwords',
      errors: [{ path: 'newPassword', message: 'is one of the most common passwords' }],
    });
  }
  const challenge = await liveChallenge(deps, tenant, body.challengeId, ['PASSWORD_RESET']);
  const answered = await answerCodeChallenge(deps, tenant, challenge, body.code);
  const passwordHash = await hashPassword(body.newPassword);
  if (!(await deps.users.update(tenant, answered.userId, { passwordHash, lockedUntil: null }, 'ACTIVE')))
    throw fail('INVALID_CODE');
  const now = deps.clock.now();
  await deps.sessions.revokeAll(tenant, answered.userId, now);
  // Whoever was locked out by guessing is no obstacle to the owner who proved the mailbox.
  await deps.guards.clearFailures(tenant, answered.email);
  await recordActivity(deps, tenant, answered.userId, 'PASSWORD_RESET', { ...request, actorId: answered.userId });
  // The notice is a courtesy: the reset stands even if it cannot be sent.
  await deps.mailer.send(tenant, answered.email, { kind: 'PASSWORD_RESET_DONE' }).catch((error: unknown) => {
    deps.log.error('reset notice not sent', { errorName: error instanceof Error ? error.name : 'unknown' });
  });
}
