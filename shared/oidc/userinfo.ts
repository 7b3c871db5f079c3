import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { isLiveSession } from '../sessions/live-session.ts';
import { userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { verifyOidcAccessToken } from '../tokens/oidc-tokens.ts';
import { issuerOf } from './issuer.ts';
import { claimsFor } from './scopes.ts';

/** RFC 6750 3: the challenge says why, so a client knows to refresh or sign in again. */
const INVALID_TOKEN = { 'www-authenticate': 'Bearer error="invalid_token"' };

/**
 * GET or POST /oidc/userinfo (OIDC Core 5.3): the claims of the access token's user that its scopes allow.
 * The token must be this issuer's, and its client's session still live: revoked in the account page,
 * signed out everywhere, the password changed or the user disabled, and userinfo says 401 at once.
 */
export async function userinfo(deps: Deps, tenant: Merchant, authorization: string | undefined) {
  const match = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(authorization ?? '');
  if (!match?.[1]) {
    throw fail('UNAUTHENTICATED', {
      detail: 'send the access token as a Bearer',
      headers: { 'www-authenticate': 'Bearer' },
    });
  }
  const claims = await verifyOidcAccessToken(deps, issuerOf(deps.config, tenant).url, match[1]);
  // A client's own token (client_credentials) speaks for no user.
  if (!claims?.sid || claims.sub === claims.client_id) {
    throw fail('UNAUTHENTICATED', { detail: 'the access token is not valid', headers: INVALID_TOKEN });
  }
  const { user, session } = await userRepo(deps.store).getWithSession(tenant, claims.sub, claims.sid);
  const now = deps.clock.now();
  // The API's rule of a live session, and the session this client's own.
  if (!isLiveSession(user, session, now) || session?.clientId !== claims.client_id) {
    throw fail('SESSION_REVOKED', { detail: 'the session has ended', headers: INVALID_TOKEN });
  }
  const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
  return { sub: user.id, ...claimsFor(user, scopes, now) };
}
