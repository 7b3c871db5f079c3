import { recordActivity } from '../activity/record.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import type { Merchant } from '../tenancy/types.ts';
import type { User } from '../users/types.ts';
import { challengeResponse, openTotpChallenge } from './challenges.ts';
import { type SessionCommit, startSession } from './session-start.ts';

/** Statuses that may not log in, checked only after a correct credential (CONTRACT.md, Rules). */
export function assertMayLogIn(user: User): void {
  if (user.status === 'DISABLED' || user.status === 'COMPROMISED') throw fail('ACCOUNT_DISABLED');
  if (user.status === 'INACTIVE' || user.status === 'INVITED') throw fail('ACCOUNT_INACTIVE');
}

/** Counts a failed credential for the lockout; records LOGIN_FAILED (and ACCOUNT_LOCKED) for a real user. */
export async function countFailure(
  deps: Deps,
  tenant: Merchant,
  email: string,
  userId: string | null,
  client: ClientInfo,
) {
  const now = deps.clock.now();
  const context = { ...client, actorId: userId ?? '' };
  // In parallel: a known e-mail's extra write must not make its failure measurably slower.
  const [lockedUntil] = await Promise.all([
    deps.guards.recordFailure(tenant, email, now),
    userId ? recordActivity(deps, tenant, userId, 'LOGIN_FAILED', context) : undefined,
  ]);
  if (userId && lockedUntil) {
    await deps.users.update(tenant, userId, { lockedUntil: lockedUntil.toISOString() });
    await recordActivity(deps, tenant, userId, 'ACCOUNT_LOCKED', context);
  }
}

/** What the lockout read found: whether a failure counter exists to clear on success. */
export interface LockRead {
  failuresCounted: boolean;
}

/**
 * A login that passed every factor: the failure count starts again and the
 * session begins. The counter is deleted only when the lockout read found one
 * (most logins have none: one round trip fewer). A failure counted between
 * that read and this success stays counted, as if it came just after.
 */
export async function succeed(
  deps: Deps,
  tenant: Merchant,
  user: User,
  client: ClientInfo,
  lock: LockRead,
  commit: SessionCommit = {},
) {
  if (lock.failuresCounted) await deps.guards.clearFailures(tenant, user.email);
  return startSession(deps, tenant, user, client, commit);
}

/**
 * After the first factor: the TOTP step when the user has TOTP, else the
 * session. The failure count is not cleared before the last factor, or a
 * password holder could guess TOTP codes without ever being locked out.
 */
export async function afterFirstFactor(
  deps: Deps,
  tenant: Merchant,
  user: User,
  client: ClientInfo,
  lock: LockRead,
  commit: SessionCommit = {},
) {
  assertMayLogIn(user);
  if (user.totpEnabled) {
    // The TOTP step opens before the e-mail code (if any) is used up: a fault in between leaves the code
    // good for a retry, and of two racing answers with one code, one gets the step (INVALID_CODE for the other).
    // The step carries the credential epoch of the first factor's read: a password change before the
    // second factor ends this login too (login-verify).
    const step = await openTotpChallenge(deps, tenant, user.id, user.email, user.credentialEpoch);
    if (commit.consumes && !(await deps.challenges.consume(tenant, commit.consumes, deps.clock.now()))) {
      throw fail('INVALID_CODE');
    }
    return challengeResponse(step);
  }
  return succeed(deps, tenant, user, client, lock, commit);
}
