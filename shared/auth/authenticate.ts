import type { Deps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import type { Merchant } from '../tenancy/types.ts';
import { effectiveRoles } from '../users/view.ts';
import { authenticateApiKey } from './api-keys.ts';
import type { Authenticators, Principal } from './principal.ts';
import { verifyAccessToken } from './tokens.ts';

/**
 * The bearer check of every protected route: the JWT verified strictly
 * (tokens.ts: ES256 only, iss, exp, kid), its tenant equal to the request's
 * (403 TENANT_MISMATCH), and its session still live (401 SESSION_REVOKED),
 * read with the user in one round trip. Authority comes from the user's
 * current grants, not from the token's `roles` claim (that is for resource servers).
 */
export async function authenticateBearer(deps: Deps, token: string, tenant: Merchant): Promise<Principal | null> {
  const claims = await verifyAccessToken(deps, token);
  if (!claims) return null;
  if (claims.app !== tenant.app || claims.mid !== tenant.mid) throw fail('TENANT_MISMATCH');
  const { user, session } = await deps.users.getWithSession(tenant, claims.sub, claims.sid);
  const now = deps.clock.now();
  if (
    !user ||
    !session ||
    session.revokedAt ||
    Date.parse(session.refreshExpiresAt as string) <= now.getTime() ||
    user.status !== 'ACTIVE'
  ) {
    throw fail('SESSION_REVOKED', { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } });
  }
  const { names, authority } = effectiveRoles(user, now);
  return { kind: 'user', userId: user.id, sessionId: claims.sid, roles: names, authority, user };
}

/** The identity service's credential checks, for httpHandler's `authenticators` option. */
export const identityAuthenticators: Authenticators = {
  bearer: (token, tenant, deps) => authenticateBearer(deps, token, tenant),
  apiKey: (key, tenant, deps) => authenticateApiKey(deps, key, tenant),
};
