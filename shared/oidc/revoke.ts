import type { Deps } from '../deps.ts';
import { failField } from '../errors.ts';
import type { Merchant } from '../tenancy/types.ts';
import { verifyOidcAccessToken } from '../tokens/oidc-tokens.ts';
import { parseRefreshToken } from '../tokens/refresh-token.ts';
import { authenticateClient, type ClientCredentials } from './client-auth.ts';
import { endClientSession } from './client-sessions.ts';
import { issuerOf } from './issuer.ts';
import type { RevocationRequest } from './protocol-schemas.ts';

/**
 * POST /oidc/revoke (RFC 7009): a refresh token or an access token of this client ends the client's session
 * (its refresh token, and userinfo for its access tokens), when that session issued it. 200 whatever the token was
 * (unknown, made up, already revoked, another client's: nothing is said about it, and nothing else ends).
 */
export async function revoke(deps: Deps, tenant: Merchant, body: RevocationRequest, credentials: ClientCredentials) {
  const token = body.token;
  if (!token) {
    throw failField('token', 'is required');
  }
  const client = await authenticateClient(deps, tenant, credentials);
  const refresh = parseRefreshToken(token);
  if (refresh) {
    // Only a refresh token the session issued: its ids are in every ID token, its secret only with the client.
    await endClientSession(deps, tenant, refresh.userId, refresh.sessionId, client.clientId, refresh);
    return;
  }
  const claims = await verifyOidcAccessToken(deps, issuerOf(deps.config, tenant).url, token);
  // Only this client's own session.
  if (claims?.sid && claims.client_id === client.clientId) {
    await endClientSession(deps, tenant, claims.sub, claims.sid, client.clientId);
  }
}
