import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { effectiveRoles } from '../roles/authority.ts';
import { isLiveSession } from '../sessions/live-session.ts';
import { keys, type TenantRef } from '../store/keys.ts';
import { merchantRepo } from '../store/merchant-repo.ts';
import type { TenantCache } from '../store/tenant-cache.ts';
import { toUser, userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { type AccessTokenClaims, verifyAccessToken } from '../tokens/access-token.ts';
import type { User } from '../users/types.ts';
import { authenticateApiKey } from './api-keys.ts';
import type { Authenticators, PrefetchedBearer, UserPrincipal } from './principal.ts';

/**
 * The bearer check of every protected route: the JWT verified strictly
 * (tokens.ts: ES256 only, iss, exp, kid), its tenant equal to the request's
 * (403 TENANT_MISMATCH), and its session still live (401 SESSION_REVOKED),
 * read with the user in one round trip. Authority comes from the user's
 * current grants, not from the token's `roles` claim (that is for resource servers).
 */
export async function authenticateBearer(deps: Deps, token: string, tenant: Merchant): Promise<UserPrincipal | null> {
  const claims = await verifyAccessToken(deps, token);
  if (!claims) return null;
  if (claims.app !== tenant.app || claims.mid !== tenant.mid) throw fail('TENANT_MISMATCH');
  const { user, session } = await userRepo(deps.store).getWithSession(tenant, claims.sub, claims.sid);
  return principalOf(deps, claims, user, session);
}

/**
 * The bearer check of a request whose tenant is not read yet: one BatchGetItem
 * reads the merchant with the session and the user (GET /users/me is one
 * round trip). Only for a good token of the request's tenant; otherwise null,
 * and the usual stages answer (404 for an unknown tenant before 401/403).
 */
export async function authenticateBearerWithTenant(
  deps: Deps,
  token: string,
  tenant: TenantRef,
  cache?: TenantCache,
): Promise<PrefetchedBearer | null> {
  const claims = await verifyAccessToken(deps, token);
  if (!claims || claims.app !== tenant.app || claims.mid !== tenant.mid) return null;
  // The tenant read that every request makes, with the session and the profile in it.
  const userKey = keys.user(tenant, claims.sub);
  const sessionKey = keys.session(tenant, claims.sub, claims.sid);
  const { merchant, prefetched } = await merchantRepo(deps.store).getWith(tenant, [userKey, sessionKey], cache);
  const profile = prefetched.take(userKey);
  const session = prefetched.take(sessionKey) ?? null;
  return { tenant: merchant, principal: () => principalOf(deps, claims, profile ? toUser(profile) : null, session) };
}

function principalOf(
  deps: Deps,
  claims: AccessTokenClaims,
  user: User | null,
  session: Record<string, unknown> | null,
): UserPrincipal {
  const now = deps.clock.now();
  if (!session || !isLiveSession(user, session, now)) {
    throw fail('SESSION_REVOKED', { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } });
  }
  const { names, authority } = effectiveRoles(user, now);
  // Carried to the guarded operations (recent-authentication.ts); a session without it predates the field.
  const authenticatedAt = typeof session.authenticatedAt === 'string' ? session.authenticatedAt : null;
  const amr = Array.isArray(session.amr) ? (session.amr as string[]) : null;
  return { kind: 'user', userId: user.id, sessionId: claims.sid, roles: names, authority, authenticatedAt, amr, user };
}

/** The identity service's credential checks, for httpHandler's `authenticators` option. */
/** The checks of a user's route (`auth: 'bearer'`): an access token only. */
export const userAuthenticators: Authenticators = {
  bearer: (token, tenant, deps) => authenticateBearer(deps, token, tenant),
  prefetchBearer: (token, tenant, deps, cache) => authenticateBearerWithTenant(deps, token, tenant, cache),
};

/**
 * The checks of an admin route: an admin's access token or an API key (its code only in these bundles). Written
 * out rather than spread from userAuthenticators: esbuild keeps a spread (it may run getters), and with it the API
 * key code, in every user's bundle.
 */
export const identityAuthenticators: Authenticators = {
  bearer: (token, tenant, deps) => authenticateBearer(deps, token, tenant),
  prefetchBearer: (token, tenant, deps, cache) => authenticateBearerWithTenant(deps, token, tenant, cache),
  apiKey: (key, tenant, deps) => authenticateApiKey(deps, key, tenant),
};
