import { activityItem } from '../activity/record.ts';
import type { Deps } from '../deps.ts';
import { fail, failField } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import type { Challenge } from '../store/challenge-repo.ts';
import { challengeRepo } from '../store/challenge-repo.ts';
import { guardRepo } from '../store/guard-repo.ts';
import { transact } from '../store/transact.ts';
import { userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { checkCodeChallenge, codeChallengeOf, liveChallenge } from './challenges.ts';
import { type Attempt, enforceRateLimit, evaluating, reserveAttempt } from './guards.ts';
import { sendNotice } from './mail-delivery.ts';
import { isCommonPassword } from './password-policy.ts';
import { hashPassword } from './passwords.ts';

/**
 * POST /auth/reset-password: the code sets a new password and ends every
 * session of the user: the password, the credential epoch moved on (every
 * session ends, and so does every login that read the profile before), the
 * lockout and the code in one transaction, so a fault never leaves a new
 * password with the old sessions live, nor a used code with the old password.
 */
export async function resetPassword(
  deps: Deps,
  tenant: Merchant,
  body: { challengeId: string; code: string; newPassword: string },
  client: ClientInfo,
) {
  await enforceRateLimit(deps, tenant, client.ip);
  if (isCommonPassword(body.newPassword)) {
    throw failField('newPassword', 'is one of the most common passwords', 'PASSWORD_TOO_COMMON');
  }
  const challenge = await liveChallenge(deps, tenant, body.challengeId, ['PASSWORD_RESET']);
  // Wrong codes count per (tenant, address), across challenges, reserved before the code is looked at
  // (five tries per challenge and a new challenge per request would be no limit at all).
  const attempt = await reserveAttempt(deps, tenant, challenge.email, 'PASSWORD_RESET');
  await evaluating(attempt, () => commitReset(deps, tenant, challenge, body, client, attempt));
}

async function commitReset(
  deps: Deps,
  tenant: Merchant,
  challenge: Challenge,
  body: { code: string; newPassword: string },
  client: ClientInfo,
  attempt: Attempt,
) {
  const answered = await checkCodeChallenge(deps, tenant, challenge, body.code, async () => {
    await attempt.wrong();
  });
  const [passwordHash, user] = await Promise.all([
    hashPassword(deps.config.argon2, body.newPassword),
    userRepo(deps.store).get(tenant, answered.userId),
  ]);
  // ACTIVE users, and COMPROMISED ones, whose voided password this replaces (the reset makes them ACTIVE).
  if (user?.status !== 'ACTIVE' && user?.status !== 'COMPROMISED') throw fail('INVALID_CODE');
  const now = deps.clock.now();
  // The new password, every session ended (the epoch moves on in the same write: one write whatever their
  // number, and a login that read the profile before cannot commit after), the lockout cleared,
  // PASSWORD_RESET recorded and the code used up: all or nothing.
  const failed = await transact(deps.store, {
    user: userRepo(deps.store).updateItem(
      tenant,
      answered.userId,
      { passwordHash, lockedUntil: null, status: 'ACTIVE' },
      { status: user.status },
      {},
    ),
    code: challengeRepo(deps.store).consumeItem(tenant, codeChallengeOf(challenge), now),
    // Whoever was locked out by guessing is no obstacle to the owner who proved the mailbox.
    lockout: guardRepo(deps.store).clearLockoutItem(tenant, answered.email),
    // The owner proved the mailbox: the count of wrong reset codes starts again (this attempt's place with it).
    codeLockout: attempt.clearItem(),
    activity: activityItem(deps, tenant, answered.userId, 'PASSWORD_RESET', { ...client, actorId: answered.userId }),
  });
  // Its status changed meanwhile, or the code used by a racing reset.
  if (failed.size > 0) throw fail('INVALID_CODE');
  // The notice is a courtesy: the reset stands even if it cannot be sent.
  const notice = { kind: 'PASSWORD_RESET_DONE' } as const;
  await sendNotice(deps, tenant, answered.email, notice, client.language).catch((error: unknown) => {
    deps.log.error('reset notice not sent', { errorName: error instanceof Error ? error.name : 'unknown' });
  });
}
