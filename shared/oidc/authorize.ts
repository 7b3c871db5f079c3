import { newOpaqueToken } from '../auth/codes.ts';
import type { Deps } from '../deps.ts';
import { fail, isAppError } from '../errors.ts';
import { oauthErrorFields } from '../http/oauth-error.ts';
import { Reply } from '../http/reply.ts';
import { type Language, matchLanguage } from '../i18n/languages.ts';
import { oidcClientRepo, type StoredOidcClient } from '../store/oidc-client-repo.ts';
import { type AuthorizationRequest, oidcFlowRepo, type Prompt } from '../store/oidc-flow-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { isOidcClientId } from './clients.ts';
import { type Issuer, issuerOf, withQuery } from './issuer.ts';
import { matchRedirectUri } from './schemas.ts';
import { knownScopes } from './scopes.ts';

/** How long the user has to sign in before the request lapses (the client starts again). */
export const AUTHORIZATION_REQUEST_TTL_MS = 10 * 60 * 1000;

/** Errors the hosted page explains, for requests that cannot be sent back to the client (RFC 6749 4.1.2.1). */
export type AuthorizePageError = 'INVALID_REQUEST' | 'UNKNOWN_CLIENT' | 'REDIRECT_URI_MISMATCH';

/** A S256 challenge is base64url(SHA-256): 43 characters (RFC 7636 4.2). */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_AGE = /^\d{1,9}$/;
/** Bounds on what is stored and echoed back. */
const MAX_STATE = 2048;
const MAX_NONCE = 512;
const MAX_LOGIN_HINT = 256;

/** The query's parameters, each at most once (RFC 6749 3.1: a repeated parameter is an error). */
function parametersOf(rawQuery: string) {
  const params = new URLSearchParams(rawQuery);
  const repeated = [...new Set([...params.keys()].filter((name) => params.getAll(name).length > 1))];
  return {
    repeated,
    get: (name: string): string | undefined => {
      const value = params.get(name);
      return value === null || value === '' ? undefined : value;
    },
  };
}

function pageError(issuer: Issuer, error: AuthorizePageError, language: Language | null): Reply {
  return new Reply(undefined, { location: withQuery(`${issuer.url}/authorize`, { error, ...pageLanguage(language) }) });
}

/**
 * `ui_locales` (OIDC Core 3.1.2.1): the first of its tags we write in goes to the hosted page as `ui_locales`, which
 * shows itself and the rest of the sign-in in it (its mails follow the page); tags we do not write in are passed
 * over, and a request naming none of ours gets the pages' own choice. Never an error: the parameter is a wish.
 */
function pageLanguage(language: Language | null): Record<string, string> {
  return language ? { ui_locales: language } : {};
}

/**
 * GET /oidc/authorize (README.md, Authorize): the code flow with PKCE S256, checked in the RFC's order. A
 * request whose client or redirect URI cannot be trusted never redirects to it: the hosted error page says
 * why. Any other problem goes back to the client's redirect URI with `error`, `state` and `iss`. A good
 * request is stored, and the browser goes to the hosted sign-in page.
 */
export async function authorize(deps: Deps, tenant: Merchant, rawQuery: string): Promise<Reply> {
  const issuer = issuerOf(deps.config, tenant);
  const params = parametersOf(rawQuery);
  const uiLocales = params.get('ui_locales');
  const language = uiLocales ? matchLanguage({ uiLocales }) : null;
  const clientId = params.get('client_id');
  const requestedUri = params.get('redirect_uri');
  if (!clientId || params.repeated.includes('client_id') || params.repeated.includes('redirect_uri')) {
    return pageError(issuer, 'INVALID_REQUEST', language);
  }
  const client = isOidcClientId(clientId) ? await oidcClientRepo(deps.store).get(tenant, clientId) : null;
  if (!client) return pageError(issuer, 'UNKNOWN_CLIENT', language);
  // Compared serialized (loopback IPs on any port); a client with one registered URI may leave it out (RFC 6749
  // 3.1.2.3). Every answer goes to the registered URI, never to the text the request gave.
  if (requestedUri === undefined && client.redirectUris.length !== 1)
    return pageError(issuer, 'INVALID_REQUEST', language);
  const redirectUri =
    requestedUri === undefined ? client.redirectUris[0] : matchRedirectUri(client.redirectUris, requestedUri);
  if (!redirectUri) return pageError(issuer, 'REDIRECT_URI_MISMATCH', language);

  // From here on the redirect URI is the client's own: every answer goes there, with the state echoed exactly.
  const state = params.repeated.includes('state') ? undefined : params.get('state');
  const back = (answer: Record<string, string>) =>
    new Reply(undefined, {
      location: withQuery(redirectUri, { ...answer, state: state?.slice(0, MAX_STATE), iss: issuer.url }),
    });
  let request: AuthorizationRequest;
  try {
    request = checkedRequest(params, client, redirectUri, requestedUri !== undefined, state, deps.clock.now());
  } catch (error) {
    // The checks are pure: what they throw is the request's fault, named by OAuth's word for our code.
    if (isAppError(error)) return back(oauthErrorFields(error));
    throw error;
  }
  await oidcFlowRepo(deps.store).createRequest(tenant, request);
  return new Reply(undefined, {
    location: withQuery(`${issuer.url}/authorize`, { request: request.requestId, ...pageLanguage(language) }),
  });
}

function checkedRequest(
  params: ReturnType<typeof parametersOf>,
  client: StoredOidcClient,
  redirectUri: string,
  redirectUriGiven: boolean,
  state: string | undefined,
  now: Date,
): AuthorizationRequest {
  if (params.repeated.length > 0) {
    throw fail('VALIDATION_FAILED', `${params.repeated.join(', ')}: sent more than once`);
  }
  if (params.get('request')) throw fail('REQUEST_NOT_SUPPORTED', 'request objects are not supported');
  if (params.get('request_uri')) {
    throw fail('REQUEST_URI_NOT_SUPPORTED', 'request_uri is not supported');
  }
  const responseType = params.get('response_type');
  if (!responseType) throw fail('VALIDATION_FAILED', 'response_type is required');
  // Implicit (`token`, `id_token`) and hybrid (`code id_token`, …) flows put tokens in the URL: only `code`.
  if (responseType !== 'code') {
    throw fail('UNSUPPORTED_RESPONSE_TYPE', 'only the authorization code flow (response_type=code)');
  }
  const responseMode = params.get('response_mode');
  if (responseMode !== undefined && responseMode !== 'query') {
    throw fail('VALIDATION_FAILED', 'response_mode: only query');
  }
  if (!client.grantTypes.includes('authorization_code')) {
    throw fail('UNAUTHORIZED_CLIENT', 'this client may not use the authorization code grant');
  }
  const requested = (params.get('scope') ?? '').split(' ').filter(Boolean);
  if (!requested.includes('openid')) throw fail('INVALID_SCOPE', 'scope must include openid');
  const codeChallenge = params.get('code_challenge');
  const method = params.get('code_challenge_method');
  if (!codeChallenge) throw fail('VALIDATION_FAILED', 'code_challenge is required (PKCE, S256)');
  if (method !== 'S256') throw fail('VALIDATION_FAILED', 'code_challenge_method must be S256');
  if (!S256_CHALLENGE.test(codeChallenge)) throw fail('VALIDATION_FAILED', 'code_challenge is malformed');
  if (state !== undefined && state.length > MAX_STATE) throw fail('VALIDATION_FAILED', 'state is too long');
  const nonce = params.get('nonce');
  if (nonce !== undefined && nonce.length > MAX_NONCE) throw fail('VALIDATION_FAILED', 'nonce is too long');
  const maxAge = params.get('max_age');
  if (maxAge !== undefined && !MAX_AGE.test(maxAge)) {
    throw fail('VALIDATION_FAILED', 'max_age must be a number of seconds');
  }
  const loginHint = params.get('login_hint');
  return {
    requestId: `oar_${newOpaqueToken(24)}`,
    clientId: client.clientId,
    redirectUri,
    redirectUriGiven,
    state: state ?? null,
    nonce: nonce ?? null,
    codeChallenge,
    scopes: knownScopes(requested),
    ...promptOf(params.get('prompt')),
    maxAge: maxAge === undefined ? null : Number(maxAge),
    loginHint: loginHint && loginHint.length <= MAX_LOGIN_HINT ? loginHint : null,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + AUTHORIZATION_REQUEST_TTL_MS).toISOString(),
  };
}

/**
 * `prompt` (OIDC Core 3.1.2.1), a space-separated list in which every value applies: `none` alone, or `login`
 * and/or `consent`; `select_account` asks for a sign-in (one account per session here). `login consent` asks
 * for a fresh sign-in, then for consent even where it is remembered.
 */
function promptOf(value: string | undefined): { prompt: Prompt | null; promptConsent: boolean } {
  if (value === undefined) return { prompt: null, promptConsent: false };
  const values = new Set(value.split(' ').filter(Boolean));
  const known = ['none', 'login', 'consent', 'select_account'];
  if ([...values].some((v) => !known.includes(v))) throw fail('VALIDATION_FAILED', 'prompt: unknown value');
  if (values.has('none')) {
    if (values.size > 1) throw fail('VALIDATION_FAILED', 'prompt=none cannot be combined');
    return { prompt: 'none', promptConsent: false };
  }
  const consent = values.has('consent');
  if (values.has('login') || values.has('select_account')) return { prompt: 'login', promptConsent: consent };
  return { prompt: consent ? 'consent' : null, promptConsent: consent };
}
