import type { Deps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import type { Merchant } from '../tenancy/types.ts';

/**
 * Per (tenant, IP): at most AUTH_RATE_LIMIT_PER_MINUTE login, signup and code
 * requests a minute (CONTRACT.md, Details) → 429 RATE_LIMITED with Retry-After.
 */
export async function enforceRateLimit(deps: Deps, tenant: Merchant, ip: string): Promise<void> {
  const now = deps.clock.now();
  const count = await deps.guards.countRequest(tenant, ip || 'unknown', now);
  if (count > deps.config.authRateLimitPerMinute) {
    const retryAfter = 60 - Math.floor((now.getTime() % 60_000) / 1000);
    throw fail('RATE_LIMITED', { headers: { 'retry-after': String(retryAfter) } });
  }
}

/**
 * While a (tenant, e-mail) is locked, every login attempt answers 429,
 * whatever the credential. Says whether failures are counted, so that a
 * success clears the counter only when there is one (a round trip saved).
 */
export async function enforceNotLocked(
  deps: Deps,
  tenant: Merchant,
  email: string,
): Promise<{ failuresCounted: boolean }> {
  const now = deps.clock.now();
  const { lockedUntil, counted } = await deps.guards.lockState(tenant, email, now);
  if (lockedUntil) {
    const retryAfter = Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000));
    throw fail('TOO_MANY_ATTEMPTS', { headers: { 'retry-after': String(retryAfter) } });
  }
  return { failuresCounted: counted };
}

/**
 * For a proof asked of a signed-in user (current password, TOTP or backup
 * code): the per-IP rate limit, the account's lockout, and a wrong answer
 * counted against it, so that a stolen access token cannot be used to guess
 * a second factor or the password at leisure.
 */
export async function guardProof(deps: Deps, tenant: Merchant, email: string, ip: string) {
  await enforceRateLimit(deps, tenant, ip);
  await enforceNotLocked(deps, tenant, email);
  return {
    wrong: async () => {
      await deps.guards.recordFailure(tenant, email, deps.clock.now());
    },
  };
}
