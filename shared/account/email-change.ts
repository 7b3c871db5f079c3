import { activityItem } from '../activity/record.ts';
import { checkCodeChallenge, codeChallengeOf, liveChallenge, openCodeChallenge } from '../auth/challenges.ts';
import { type Attempt, enforceRateLimit, evaluating, reserveAttempt } from '../auth/guards.ts';
import { sendNotice } from '../auth/mail-delivery.ts';
import { sendOrUndo } from '../auth/mail-or-undo.ts';
import type { UserPrincipal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { fail, failField } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { requireRecentAuthentication } from '../sessions/recent-authentication.ts';
import type { Challenge } from '../store/challenge-repo.ts';
import { challengeRepo } from '../store/challenge-repo.ts';
import { expiredSignupRepo } from '../store/expired-signup-repo.ts';
import { transact } from '../store/transact.ts';
import { userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { currentUser } from '../users/lookup.ts';

/**
 * POST /users/me/email-change: mails a code to the new address, and a notice
 * to the current one. Whether the address is taken is not said here (that
 * would let any user probe the tenant's addresses); only someone holding that
 * mailbox learns it, at verify. Needs a recent authentication (403
 * REAUTHENTICATION_REQUIRED); the verify step does not ask again: its
 * challenge could only be opened by a recently authenticated session, and it
 * lives 10 minutes.
 */
export async function requestEmailChange(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  newEmail: string,
  client: ClientInfo,
) {
  // The new address takes over recovery (forgot-password): a stolen access token alone must not move it.
  requireRecentAuthentication(deps, principal);
  await enforceRateLimit(deps, tenant, client.ip);
  const user = await currentUser(deps, tenant, principal);
  if (newEmail === user.email) {
    throw failField('newEmail', 'is already your address');
  }
  const opened = await openCodeChallenge(deps, tenant, {
    type: 'EMAIL_CHANGE',
    userId: user.id,
    email: user.email,
    newEmail,
  });
  // The owner hears of it when it is asked for, not only once it is done (by then recovery has moved): sent
  // first and through sendOrUndo, so a change the owner could not be told about never gets a usable code.
  // Both in the language of the signed-in user's request: the new address has no reader of its own yet.
  const notice = { kind: 'EMAIL_CHANGE_REQUESTED', newEmail } as const;
  await sendOrUndo(deps, tenant, opened.challenge.id, user.email, notice, client.language);
  const code = { kind: 'EMAIL_CHANGE_CODE', code: opened.code } as const;
  await sendOrUndo(deps, tenant, opened.challenge.id, newEmail, code, client.language);
  return { challengeId: opened.challenge.id };
}

/**
 * POST /users/me/email-change/verify: commits the new address in one
 * transaction: the old claim released, the new one taken (its condition is
 * the uniqueness guarantee: of two users verifying the same address, one
 * wins; the other gets 409 CONFLICT), the profile changed, EMAIL_CHANGE
 * recorded and the code used up.
 */
export async function verifyEmailChange(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  body: { challengeId: string; code: string },
  client: ClientInfo,
) {
  await enforceRateLimit(deps, tenant, client.ip);
  const challenge = await liveChallenge(deps, tenant, body.challengeId, ['EMAIL_CHANGE']);
  // A challenge is its requester's alone.
  if (challenge.userId !== principal.userId || !challenge.newEmail) throw fail('INVALID_CODE');
  const newEmail = challenge.newEmail;
  // Wrong codes count per (tenant, new address) across challenges, reserved before the code is looked at
  // (otherwise an account could claim any unregistered address by guessing).
  const attempt = await reserveAttempt(deps, tenant, newEmail, 'EMAIL_CHANGE');
  return evaluating(attempt, () =>
    commitEmailChange(deps, tenant, principal, challenge, newEmail, body.code, client, attempt),
  );
}

async function commitEmailChange(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  challenge: Challenge,
  newEmail: string,
  code: string,
  client: ClientInfo,
  attempt: Attempt,
) {
  const answered = await checkCodeChallenge(deps, tenant, challenge, code, async () => {
    await attempt.wrong();
  });
  const oldEmail = answered.email;
  const now = deps.clock.now();
  // The new address, or a signup there never verified and expired (taken over: its profile deleted).
  const taking = await expiredSignupRepo(deps.store).claimItems(tenant, newEmail, principal.userId, now);
  // The new address claimed (unique per tenant: of two users racing for it, one gets it), the old one
  // released, the profile moved while its address is still the old one, recorded, and the code used up
  // with the change, so a change that fails leaves it good for a retry.
  const failed = await transact(
    deps.store,
    {
      claim: taking.claim,
      evict: taking.evict,
      release: userRepo(deps.store).releaseEmailItem(tenant, oldEmail, principal.userId),
      user: userRepo(deps.store).updateItem(
        tenant,
        principal.userId,
        { email: newEmail, emailStatus: 'VALIDATED' },
        { email: oldEmail },
      ),
      activity: activityItem(
        deps,
        tenant,
        principal.userId,
        'EMAIL_CHANGE',
        { ...client, actorId: principal.userId },
        { detail: { email: newEmail, previousEmail: oldEmail } },
      ),
      code: challengeRepo(deps.store).consumeItem(tenant, codeChallengeOf(challenge), now),
      // The new address is proven: its count of wrong codes starts again.
      codeLockout: attempt.clearItem(),
    },
    { retryConflicts: true },
  );
  // Of two answers racing with one code, one changes the address; the other finds the code used.
  if (failed.has('code')) throw fail('INVALID_CODE');
  if (failed.size > 0) throw fail('CONFLICT', 'the address belongs to another account, or yours changed meanwhile');
  // The old address hears of it: if this was not its owner, they know at once.
  const notice = { kind: 'EMAIL_CHANGED', newEmail } as const;
  await sendNotice(deps, tenant, oldEmail, notice, client.language).catch((error: unknown) => {
    deps.log.error('e-mail change notice not sent', { errorName: error instanceof Error ? error.name : 'unknown' });
  });
  return { challengeId: challenge.id, type: 'EMAIL' as const, status: 'COMPLETED' as const };
}
