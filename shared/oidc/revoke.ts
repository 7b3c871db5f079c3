import { parseRefreshToken } from '../auth/refresh-token.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import type { Merchant } from '../tenancy/types.ts';
import { authenticateClient, type ClientCredentials } from './client-auth.ts';
import { endClientSession } from './client-sessions.ts';
import { issuerOf } from './issuer.ts';
import { verifyOidcAccessToken } from './oidc-tokens.ts';
import type { RevocationRequest } from './protocol-schemas.ts';

/**
 * POST /oidc/revoke (RFC 7009): a refresh token or an access token of this client ends the client's session
 * (its refresh token, and userinfo for its access tokens). 200 whatever the token was (unknown, already
 * revoked, another client's: nothing is said about it, and another client's session is left alone).
 */
export async function revoke(deps: Deps, tenant: Merchant, body: RevocationRequest, credentials: ClientCredentials) {
  const token = body.token;
  if (!token) {
    throw fail('VALIDATION_FAILED', {
      detail: 'token is required',
      errors: [{ path: 'token', message: 'is required' }],
    });
  }
  const client = await authenticateClient(deps, tenant, credentials);
  let owner: { userId: string; sessionId: string } | null = null;
  const refresh = parseRefreshToken(token);
  if (refresh) {
    owner = { userId: refresh.userId, sessionId: refresh.sessionId };
  } else {
    const claims = await verifyOidcAccessToken(deps, issuerOf(deps.config, tenant), token);
    if (claims?.sid && claims.client_id === client.clientId) owner = { userId: claims.sub, sessionId: claims.sid };
  }
  // Only this client's own session; a refresh token's secret need not match (RFC 7009 2.1: revoking is no use of it).
  if (owner) await endClientSession(deps, tenant, owner.userId, owner.sessionId, client.clientId);
}
