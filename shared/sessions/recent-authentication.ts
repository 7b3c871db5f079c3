import type { Principal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { REAUTHENTICATION_WINDOW_MS } from '../lifetimes.ts';

/**
 * Whether the caller's session proved its first factor (login, or POST
 * /auth/reauthenticate) within REAUTHENTICATION_WINDOW_MS. A session stored
 * before `authenticatedAt` was recorded has none and is never recent: its
 * owner reauthenticates once.
 */
export function isRecentlyAuthenticated(
  deps: Pick<Deps, 'clock'>,
  authenticatedAt: string | null | undefined,
): boolean {
  if (!authenticatedAt) return false;
  const at = Date.parse(authenticatedAt);
  return Number.isFinite(at) && deps.clock.now().getTime() - at <= REAUTHENTICATION_WINDOW_MS;
}

/**
 * For the operations that would turn a stolen access token into a lasting
 * takeover (e-mail change, TOTP init/verify/disable, API key creation, OpenID
 * client registration and secrets): the caller must have proven the first factor within
 * the last 10 minutes, else 403 REAUTHENTICATION_REQUIRED. 403, not 401: a
 * 401 would start the client's refresh, and a refresh cannot help (it never
 * renews authenticatedAt). Called before anything is read or written, so a
 * refused request changes nothing. API keys never reach here (they cannot
 * create keys, and /users/me refuses them).
 */
export function requireRecentAuthentication(deps: Pick<Deps, 'clock'>, principal: Principal): void {
  if (principal.kind !== 'user' || !isRecentlyAuthenticated(deps, principal.authenticatedAt)) {
    throw fail('REAUTHENTICATION_REQUIRED', 'prove it is you again: POST /auth/reauthenticate, then retry');
  }
}

/**
 * For the admin powers a stolen admin session would use to take a tenant over (granting or revoking ADMIN or
 * SUPER_ADMIN, changing a user's status, deleting a user, resetting their TOTP): a session must be recent, as above. An API key passes: it was made by a recently signed-in admin, acts with that
 * admin's standing read at every use, and never reaches SUPER_ADMIN's powers; what a key may never do at all is
 * refused where it is asked (403 FORBIDDEN).
 */
export function requireRecentSession(deps: Pick<Deps, 'clock'>, principal: Principal): void {
  if (principal.kind === 'user') requireRecentAuthentication(deps, principal);
}
