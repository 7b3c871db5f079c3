import type { Deps } from '../deps.ts';
import { type ErrorCode, fail } from '../errors.ts';
import { guardRepo, isRefusal } from '../store/guard-repo.ts';
import type { LockPurpose } from '../store/keys.ts';
import type { TransactItem } from '../store/transact.ts';
import type { Merchant } from '../tenancy/types.ts';

/**
 * Per (tenant, IP): at most AUTH_RATE_LIMIT_PER_MINUTE login, signup and code
 * requests a minute (docs/security.md#rate-limits-per-ip) → 429 RATE_LIMITED with Retry-After.
 */
export async function enforceRateLimit(deps: Deps, tenant: Merchant, ip: string): Promise<void> {
  const now = deps.clock.now();
  const count = await guardRepo(deps.store).countRequest(tenant, ip || 'unknown', now);
  refuseOver(count, deps.config.authRateLimitPerMinute, 60_000, now);
}

/** 429 RATE_LIMITED past `limit` in a fixed window of `windowMs`, Retry-After the window's end. */
function refuseOver(count: number, limit: number, windowMs: number, now: Date): void {
  if (count <= limit) return;
  const retryAfter = (windowMs - (now.getTime() % windowMs)) / 1000;
  throw fail('RATE_LIMITED', { headers: { 'retry-after': String(Math.ceil(retryAfter)) } });
}

/**
 * Per (tenant, IP): at most SIGNUPS_PER_IP_PER_HOUR open signups an hour (a fixed window of the clock's hour) →
 * 429 RATE_LIMITED with Retry-After. Each open signup mails an address nobody has proven and, unverified, keeps a
 * profile for 24 h: one IP must neither spend the tenant's signup mail nor fill its user list. Invitations are not
 * counted: an admin chose each invited address.
 */
export async function enforceSignupLimit(deps: Deps, tenant: Merchant, ip: string): Promise<void> {
  const now = deps.clock.now();
  const count = await guardRepo(deps.store).countSignup(tenant, ip || 'unknown', now);
  refuseOver(count, deps.config.signupsPerIpPerHour, 3_600_000, now);
}

function tooManyAttempts(retryAt: Date, now: Date) {
  const retryAfter = Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000));
  return fail('TOO_MANY_ATTEMPTS', { headers: { 'retry-after': String(retryAfter) } });
}

/**
 * While a (tenant, e-mail) is locked, every login request answers 429,
 * whatever it holds: for the requests that evaluate nothing (asking for an
 * e-mail code). A request that evaluates a guess reserves it (reserveAttempt).
 */
export async function enforceNotLocked(deps: Deps, tenant: Merchant, email: string): Promise<void> {
  const now = deps.clock.now();
  const { lockedUntil } = await guardRepo(deps.store).lockState(tenant, email, now);
  if (lockedUntil) throw tooManyAttempts(lockedUntil, now);
}

/** One guess's reserved place in its lockout: it ends as a failure, or is given back. */
export interface Attempt {
  /** The guess was wrong: counted; the lock's end when this failure engaged it. */
  wrong(): Promise<Date | null>;
  /**
   * The guess was right (the count stays), or never evaluated: its place is
   * free again. Never throws: a place not given back (a fault) only leaves
   * the window with time, and must not fail what the guess allowed.
   */
  release(): Promise<void>;
  /** The whole count cleared, in the transaction of the success it belongs to (a login, a used code). */
  clearItem(): TransactItem;
  /**
   * The guess was right and what it allowed is stored (a password login's session): the count cleared by a plain
   * write when the lock item held one, else only this place given back, as release does. Never throws, as release.
   */
  succeeded(): Promise<void>;
}

/**
 * Reserves the evaluation of one guess (password, e-mail code, TOTP or backup
 * code) of a (tenant, address, purpose) BEFORE it is evaluated: one
 * conditional write, so a burst of any size evaluates at most 5 guesses per
 * window and the rest answer 429 TOO_MANY_ATTEMPTS unseen (a lock read
 * first and counted after would let every request of a burst through).
 * Wrong codes count per address across challenges: a new
 * challenge never resets the count, as NIST 800-63B §3.2.2 asks.
 */
export async function reserveAttempt(
  deps: Deps,
  tenant: Merchant,
  email: string,
  purpose: LockPurpose = 'LOGIN',
): Promise<Attempt> {
  const now = deps.clock.now();
  const guards = guardRepo(deps.store);
  const outcome = await guards.reserveAttempt(tenant, email, now, deps.random.token(12), purpose);
  if (isRefusal(outcome)) throw tooManyAttempts(outcome.retryAt, now);
  let settled = false;
  return {
    async wrong() {
      if (settled) return null;
      settled = true;
      return guards.recordFailure(outcome, deps.clock.now());
    },
    async release() {
      if (settled) return;
      settled = true;
      await guards.releaseAttempt(outcome).catch((error: unknown) => {
        deps.log.error('attempt place not given back', { errorName: error instanceof Error ? error.name : 'unknown' });
      });
    },
    clearItem: () => guards.clearLockoutItem(tenant, email, purpose),
    async succeeded() {
      if (settled) return;
      settled = true;
      const write = outcome.counted ? guards.clearFailures(tenant, email, purpose) : guards.releaseAttempt(outcome);
      await write.catch((error: unknown) => {
        deps.log.error('lockout not cleared after a login', {
          errorName: error instanceof Error ? error.name : 'unknown',
        });
      });
    },
  };
}

/**
 * Runs the evaluation of a reserved guess; whatever it throws before settling
 * the attempt (a disabled account, a fault) gives the place back, so only
 * wrong guesses fill the window. The success path settles it itself.
 */
export async function evaluating<T>(attempt: Attempt, evaluate: () => Promise<T>): Promise<T> {
  try {
    return await evaluate();
  } catch (error) {
    await attempt.release();
    throw error;
  }
}

/**
 * For a proof asked of a signed-in user (current password, TOTP or backup
 * code): the per-IP rate limit, then the attempt reserved in the account's
 * login lockout, so that a stolen access token cannot be used to guess a
 * second factor or the password at leisure, nor in a burst.
 */
export async function guardProof(deps: Deps, tenant: Merchant, email: string, ip: string): Promise<Attempt> {
  await enforceRateLimit(deps, tenant, ip);
  return reserveAttempt(deps, tenant, email);
}

/**
 * A proof asked of a signed-in user, guarded (guardProof) and judged in its
 * reserved attempt: `verdict` answers the refusal of a wrong proof (counted,
 * then thrown) or null for a right one (its place given back; the count stays).
 * Everything `verdict` checks is one guess; a check that counts and throws by
 * itself (checkCodeChallenge's `onWrong`) is handed the attempt.
 */
export async function proveSignedIn(
  deps: Deps,
  tenant: Merchant,
  email: string,
  ip: string,
  verdict: (attempt: Attempt) => Promise<ErrorCode | null>,
): Promise<void> {
  const proof = await guardProof(deps, tenant, email, ip);
  await evaluating(proof, async () => {
    const refusal = await verdict(proof);
    if (refusal) {
      await proof.wrong();
      throw fail(refusal);
    }
    await proof.release();
  });
}
