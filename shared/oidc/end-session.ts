import { newOpaqueToken } from '../auth/codes.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { Reply } from '../http/reply.ts';
import { oidcClientRepo } from '../store/oidc-client-repo.ts';
import { oidcFlowRepo } from '../store/oidc-flow-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { verifyIssued } from '../tokens/oidc-tokens.ts';
import { endClientSession } from './client-sessions.ts';
import { isOidcClientId } from './clients.ts';
import { issuerOf, withQuery } from './issuer.ts';
import { matchRedirectUri } from './schemas.ts';

/** How long the sign-out page has to run before its next step lapses. */
const LOGOUT_TTL_MS = 10 * 60 * 1000;
const LOGOUT_ID = /^olr_[A-Za-z0-9_-]{32}$/;

/**
 * GET /oidc/end-session (OpenID Connect RP-Initiated Logout 1.0). `id_token_hint` (an ID token of this
 * issuer, expired or not) names the client's session, which ends at once. `post_logout_redirect_uri` is
 * followed only when it is one of that client's registered URIs, exactly (with `client_id` or the hint
 * naming the client, and agreeing); otherwise the sign-out page just says "signed out". The browser goes
 * to the hosted sign-out page, which ends the hosted pages' session too.
 */
export async function endSession(deps: Deps, tenant: Merchant, rawQuery: string): Promise<Reply> {
  const issuer = issuerOf(deps.config, tenant);
  const params = new URLSearchParams(rawQuery);
  const single = (name: string) => (params.getAll(name).length === 1 ? params.get(name) || undefined : undefined);
  const hint = single('id_token_hint');
  const claims = hint ? await verifyIssued(deps, issuer.url, hint, { typ: 'JWT', acceptExpired: true }) : null;
  const hintClient = typeof claims?.aud === 'string' ? claims.aud : undefined;
  const named = single('client_id');
  const clientId =
    named !== undefined && hintClient !== undefined && named !== hintClient ? undefined : (named ?? hintClient);
  const client = clientId && isOidcClientId(clientId) ? await oidcClientRepo(deps.store).get(tenant, clientId) : null;

  // The client's session named by a good hint ends now, whatever happens in the browser next.
  if (
    client &&
    claims &&
    hintClient === client.clientId &&
    typeof claims.sub === 'string' &&
    typeof claims.sid === 'string'
  ) {
    await endClientSession(deps, tenant, claims.sub, claims.sid, client.clientId);
  }
  const wanted = single('post_logout_redirect_uri');
  // A hint that is not this issuer's ID token (forged, another tenant's) sends the browser nowhere.
  const hintGood = hint === undefined || claims !== null;
  const registered = hintGood && client && wanted ? matchRedirectUri(client.postLogoutRedirectUris, wanted) : undefined;
  const redirectTo = registered ? withQuery(registered, { state: single('state') }) : null;
  const now = deps.clock.now();
  const logoutId = `olr_${newOpaqueToken(24)}`;
  await oidcFlowRepo(deps.store).createLogout(tenant, {
    logoutId,
    redirectTo,
    expiresAt: new Date(now.getTime() + LOGOUT_TTL_MS).toISOString(),
  });
  return new Reply(undefined, { location: withQuery(`${issuer.url}/sign-out`, { logout: logoutId }) });
}

/** POST /oidc/logout-requests/{logoutId}/complete: where the sign-out page goes next, once. */
export async function completeLogout(deps: Deps, tenant: Merchant, logoutId: string) {
  const logout = LOGOUT_ID.test(logoutId)
    ? await oidcFlowRepo(deps.store).takeLogout(tenant, logoutId, deps.clock.now())
    : null;
  if (!logout) throw fail('NOT_FOUND');
  return { redirectTo: logout.redirectTo };
}
