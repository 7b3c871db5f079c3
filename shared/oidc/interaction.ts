import { hashToken, newOpaqueToken } from '../auth/codes.ts';
import type { UserPrincipal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { normaliseUserAgent } from '../sessions/fingerprint.ts';
import { oidcClientRepo, type StoredOidcClient } from '../store/oidc-client-repo.ts';
import { type AuthorizationRequest, oidcFlowRepo } from '../store/oidc-flow-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { currentUser } from '../users/lookup.ts';
import { isOidcClientId } from './clients.ts';
import { issuerOf, withQuery } from './issuer.ts';
import type { CancelError } from './protocol-schemas.ts';
import { matchRedirectUri } from './schemas.ts';

/** An authorization code may be redeemed for this long (README.md, Codes and tokens). */
export const CODE_TTL_MS = 60 * 1000;

const REQUEST_ID = /^oar_[A-Za-z0-9_-]{32}$/;

async function pending(deps: Deps, tenant: Merchant, requestId: string) {
  const request = REQUEST_ID.test(requestId)
    ? await oidcFlowRepo(deps.store).getRequest(tenant, requestId, deps.clock.now())
    : null;
  const client =
    request && isOidcClientId(request.clientId) ? await oidcClientRepo(deps.store).get(tenant, request.clientId) : null;
  // Expired, used, or its client deleted (or no longer sending there) meanwhile: the page says "start again".
  if (!request || !client || matchRedirectUri(client.redirectUris, request.redirectUri) === undefined) {
    throw fail('NOT_FOUND');
  }
  return { request, client };
}

/** GET /oidc/authorization-requests/{requestId}: what the sign-in page shows (never the redirect URI or PKCE). */
export async function getAuthorizationRequest(deps: Deps, tenant: Merchant, requestId: string) {
  const { request, client } = await pending(deps, tenant, requestId);
  return {
    requestId: request.requestId,
    client: { clientId: client.clientId, name: client.name, firstParty: client.firstParty },
    scopes: request.scopes,
    prompt: request.prompt,
    maxAge: request.maxAge,
    loginHint: request.loginHint,
    expiresAt: request.expiresAt,
  };
}

function answerTo(deps: Deps, tenant: Merchant, request: AuthorizationRequest, answer: Record<string, string>) {
  return {
    redirectTo: withQuery(request.redirectUri, {
      ...answer,
      state: request.state,
      iss: issuerOf(deps.config, tenant).url,
    }),
  };
}

/**
 * Whether the session's authentication is recent enough for this request: `prompt=login` wants a sign-in
 * after the request began, `max_age` one within that many seconds (OIDC Core 3.1.2.1). Otherwise the page
 * asks again (the re-authentication prompt: first factor, and TOTP when the user has it).
 */
function authenticationFitsRequest(request: AuthorizationRequest, authenticatedAt: string | null, now: Date) {
  if (!authenticatedAt) return false;
  const at = Date.parse(authenticatedAt);
  // A sign-in made for this request (after it began) satisfies both, max_age=0 included.
  if (at >= Date.parse(request.createdAt)) return true;
  if (request.prompt === 'login') return false;
  if (request.maxAge !== null && now.getTime() - at > request.maxAge * 1000) return false;
  return true;
}

/** Whether a third-party client needs the user's consent for these scopes (never a first-party client). */
async function needsConsent(deps: Deps, tenant: Merchant, userId: string, client: StoredOidcClient, scopes: string[]) {
  if (client.firstParty) return { needed: false, granted: [] as string[] };
  const stored = await oidcFlowRepo(deps.store).getConsent(tenant, userId, client.clientId);
  const granted = stored?.scopes ?? [];
  return { needed: scopes.some((scope) => !granted.includes(scope)), granted };
}

/**
 * POST /oidc/authorization-requests/{requestId}/complete: the signed-in user (every factor passed: only a
 * full login makes a session) sends the client a code. 403 REAUTHENTICATION_REQUIRED when `prompt=login`
 * or `max_age` ask for a fresher sign-in; 403 CONSENT_REQUIRED when a third-party client needs consent
 * (`consent` answers it; DENIED sends `access_denied`). The request yields one code at most.
 */
export async function completeAuthorization(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  requestId: string,
  body: { consent?: 'GRANTED' | 'DENIED' | undefined },
  client: ClientInfo,
) {
  const now = deps.clock.now();
  const { request, client: oidcClient } = await pending(deps, tenant, requestId);
  if (!authenticationFitsRequest(request, principal.authenticatedAt ?? null, now)) {
    throw fail('REAUTHENTICATION_REQUIRED', 'this app asks for a fresh sign-in');
  }
  const consent = await needsConsent(deps, tenant, principal.userId, oidcClient, request.scopes);
  const promptedConsent = request.prompt === 'consent' || request.promptConsent === true;
  const asked = consent.needed || (promptedConsent && !oidcClient.firstParty);
  if (asked && body.consent === undefined) {
    throw fail('CONSENT_REQUIRED', `${oidcClient.name} needs your consent to see: ${request.scopes.join(' ')}`);
  }
  if (asked && body.consent === 'DENIED') {
    if (!(await oidcFlowRepo(deps.store).takeRequest(tenant, requestId, now))) throw fail('NOT_FOUND');
    return answerTo(deps, tenant, request, { error: 'access_denied', error_description: 'the user said no' });
  }
  const user = await currentUser(deps, tenant, principal);
  const code = newOpaqueToken(32);
  const issued = await oidcFlowRepo(deps.store).issueCode(
    tenant,
    requestId,
    {
      codeHash: hashToken(code),
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      redirectUriGiven: request.redirectUriGiven,
      codeChallenge: request.codeChallenge,
      nonce: request.nonce,
      scopes: request.scopes,
      userId: principal.userId,
      epoch: user.credentialEpoch,
      authenticatedAt: principal.authenticatedAt as string,
      amr: principal.amr ?? ['pwd'],
      ip: client.ip,
      userAgent: normaliseUserAgent(client.userAgent),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + CODE_TTL_MS).toISOString(),
      redeemedAt: null,
      sessionId: null,
    },
    now,
    asked
      ? {
          clientId: oidcClient.clientId,
          scopes: [...new Set([...consent.granted, ...request.scopes])],
          grantedAt: now.toISOString(),
        }
      : null,
  );
  // Completed or cancelled meanwhile (another tab): one code per request.
  if (!issued) throw fail('NOT_FOUND');
  return answerTo(deps, tenant, request, { code });
}

/**
 * POST /oidc/authorization-requests/{requestId}/cancel: the page sends the client an error instead of a
 * code (`prompt=none` without a session or consent; the user walked away). Only to the client's own
 * registered URI, so it needs no credential; the request is used up.
 */
export async function cancelAuthorization(deps: Deps, tenant: Merchant, requestId: string, error: CancelError) {
  const request = REQUEST_ID.test(requestId)
    ? await oidcFlowRepo(deps.store).takeRequest(tenant, requestId, deps.clock.now())
    : null;
  if (!request) throw fail('NOT_FOUND');
  return answerTo(deps, tenant, request, { error });
}
