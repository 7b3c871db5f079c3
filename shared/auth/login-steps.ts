import { recordActivity } from '../activity/record.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { challengeRepo } from '../store/challenge-repo.ts';
import { userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import type { User } from '../users/types.ts';
import { challengeResponse, openTotpChallenge } from './challenges.ts';
import type { Attempt } from './guards.ts';
import { type SessionCommit, startSession } from './session-start.ts';

/** Statuses that may not log in, checked only after a correct credential (docs/security.md#account-statuses). */
export function assertMayLogIn(user: User): void {
  if (user.status === 'DISABLED' || user.status === 'COMPROMISED') throw fail('ACCOUNT_DISABLED');
  if (user.status === 'INACTIVE' || user.status === 'INVITED') throw fail('ACCOUNT_INACTIVE');
}

/**
 * Counts a failed credential (its reserved attempt becomes a failure); records
 * LOGIN_FAILED (and ACCOUNT_LOCKED) for a real user.
 */
export async function countFailure(
  deps: Deps,
  tenant: Merchant,
  attempt: Attempt,
  userId: string | null,
  client: ClientInfo,
) {
  const context = { ...client, actorId: userId ?? '' };
  deps.signals.count('FailedLogins');
  if (userId) deps.signals.user(userId);
  // In parallel: a known e-mail's extra write must not make its failure measurably slower.
  const [lockedUntil] = await Promise.all([
    attempt.wrong(),
    userId ? recordActivity(deps, tenant, userId, 'LOGIN_FAILED', context) : undefined,
  ]);
  // The address is locked whether or not it has an account (an unknown one is locked alike: no enumeration).
  if (lockedUntil) deps.signals.count('Lockouts');
  if (userId && lockedUntil) {
    await userRepo(deps.store).update(tenant, userId, { lockedUntil: lockedUntil.toISOString() });
    await recordActivity(deps, tenant, userId, 'ACCOUNT_LOCKED', context);
  }
}

/**
 * A login that passed every factor: the session begins, and the failure
 * count is cleared (a success resets the count), its own reserved attempt
 * with it: in the session's transaction when it has one, else (a password
 * login, `commit.device` read) by a plain write beside the session's, and
 * then only when the lock item held a count (else its place is given back).
 */
export async function succeed(
  deps: Deps,
  tenant: Merchant,
  user: User,
  client: ClientInfo,
  attempt: Attempt,
  commit: SessionCommit = {},
) {
  if (commit.device !== undefined)
    return startSession(deps, tenant, user, client, { ...commit, settle: attempt.succeeded });
  return startSession(deps, tenant, user, client, {
    ...commit,
    items: [...(commit.items ?? []), attempt.clearItem()],
  });
}

/**
 * After the first factor: the TOTP step when the user has TOTP, else the
 * session. The failure count is not cleared before the last factor, or a
 * password holder could guess TOTP codes without ever being locked out: only
 * this (right) attempt's place is given back.
 */
export async function afterFirstFactor(
  deps: Deps,
  tenant: Merchant,
  user: User,
  client: ClientInfo,
  attempt: Attempt,
  commit: SessionCommit = {},
) {
  assertMayLogIn(user);
  if (user.totpEnabled) {
    // The TOTP step opens before the e-mail code (if any) is used up: a fault in between leaves the code
    // good for a retry, and of two racing answers with one code, one gets the step (INVALID_CODE for the other).
    // The step carries the credential epoch of the first factor's read: a password change before the
    // second factor ends this login too (login-verify). This right attempt's place is given back meanwhile.
    const [step] = await Promise.all([
      openTotpChallenge(deps, tenant, user.id, user.email, user.credentialEpoch, commit.amr?.[0] ?? 'pwd'),
      attempt.release(),
    ]);
    if (commit.consumes && !(await challengeRepo(deps.store).consume(tenant, commit.consumes, deps.clock.now()))) {
      throw fail('INVALID_CODE');
    }
    return challengeResponse(step);
  }
  return succeed(deps, tenant, user, client, attempt, commit);
}
