import { activityItem } from '../activity/record.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import type { Challenge } from '../store/challenge-repo.ts';
import { expiredSignupRepo } from '../store/expired-signup-repo.ts';
import { isExpiredSignup, userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { checkCodeChallenge, codeChallengeOf, liveChallenge } from './challenges.ts';
import { type Attempt, enforceRateLimit, evaluating, reserveAttempt } from './guards.ts';
import { startSession } from './session-start.ts';

/**
 * POST /auth/signup/verify: the code activates the user (ACTIVE, VALIDATED,
 * with the details of the signup) and logs them in. The code is used up, the
 * user activated, SIGNUP and LOGIN recorded and the session started in one
 * transaction: if it fails, nothing has changed and the same code still works.
 */
export async function verifySignup(
  deps: Deps,
  tenant: Merchant,
  body: { challengeId: string; code: string },
  client: ClientInfo,
) {
  await enforceRateLimit(deps, tenant, client.ip);
  const challenge = await liveChallenge(deps, tenant, body.challengeId, ['SIGNUP']);
  // Wrong codes count per (tenant, address) across challenges, reserved before the code is looked at
  // (else each signup would open a fresh challenge of 5 tries for an address nobody proved).
  const attempt = await reserveAttempt(deps, tenant, challenge.email, 'SIGNUP');
  return evaluating(attempt, () => activate(deps, tenant, challenge, body.code, client, attempt));
}

async function activate(
  deps: Deps,
  tenant: Merchant,
  challenge: Challenge,
  code: string,
  client: ClientInfo,
  attempt: Attempt,
) {
  const answered = await checkCodeChallenge(deps, tenant, challenge, code, async () => {
    await attempt.wrong();
  });
  const user = await userRepo(deps.store).get(tenant, answered.userId);
  // A signup expired (24 h unverified) is gone, its address free for another: its code no longer verifies it.
  if (user?.status !== 'INACTIVE' || isExpiredSignup(user, deps.clock.now())) throw fail('INVALID_CODE');
  const pending = answered.pending;
  const activation = {
    status: 'ACTIVE' as const,
    emailStatus: 'VALIDATED' as const,
    emailValidationExpiresAt: null,
    ...(pending
      ? {
          passwordHash: pending.passwordHash,
          firstName: pending.firstName,
          lastName: pending.lastName,
          phone: pending.phone,
        }
      : {}),
  };
  const signedUp = activityItem(
    deps,
    tenant,
    user.id,
    'SIGNUP',
    { ...client, actorId: user.id },
    { detail: { via: 'SIGNUP', email: user.email } },
  );
  const started = await startSession(deps, tenant, { ...user, ...activation }, client, {
    consumes: codeChallengeOf(challenge),
    // The mailed code is what proved the address, and the person, just now.
    amr: ['otp'],
    // Verified, the signup no longer lapses: its `ttl` set to null (DynamoDB's TTL skips an item whose `ttl`
    // is not a number; the session's profile write can only SET), and its claim's removed, in the same transaction.
    profile: { ...activation, ttl: null },
    profileStatus: 'INACTIVE',
    // The address is proven: its count of wrong signup codes starts again; its claim no longer lapses.
    items: [signedUp, attempt.clearItem(), expiredSignupRepo(deps.store).keepClaimItem(tenant, user.email, user.id)],
  });
  deps.signals.count('SignupsVerified');
  return started;
}
