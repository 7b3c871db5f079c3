/**
 * The OpenID Provider's routes (shared/oidc/README.md): discovery, authorize, token, userinfo, revocation
 * and end-session on each tenant's issuer (its hosted origin: `tenant: 'issuer'`), and the sign-in and
 * sign-out pages' steps (tenant headers, as every page call). The protocol endpoints answer OAuth's errors
 * (`oauth: true`); authorize and end-session answer redirects.
 */
import * as v from 'valibot';
import { BEARER_ERRORS, bearerRoute, type RouteDef, SIGNS_TOKENS } from '#shared/http/route.ts';
import {
  AuthorizationRequestIdParams,
  AuthorizationRequestResponse,
  CancelAuthorizationRequest,
  CompleteAuthorizationRequest,
  LogoutIdParams,
  LogoutRedirectResponse,
  OpenidConfigurationDocument,
  RedirectResponse,
  RevocationRequest,
  TokenRequest,
  TokenResponse,
  UserinfoResponse,
} from '#shared/oidc/protocol-schemas.ts';

const provider = { tag: 'openid-provider', tenant: 'issuer', auth: 'none' } as const satisfies Partial<RouteDef>;

/** What a route that authenticates its client answers besides its own: OAuth's invalid_client and invalid_request. */
const CLIENT_ERRORS = ['INVALID_CLIENT', 'VALIDATION_FAILED', 'UNSUPPORTED_MEDIA_TYPE'] as const;

export const oidcProviderRoutes = {
  getOidcConfiguration: {
    ...provider,
    operationId: 'getOidcConfiguration',
    throttle: 'session',
    method: 'GET',
    path: '/oidc/openid-configuration',
    entry: 'functions/oidc/get-oidc-configuration.ts',
    summary:
      "The tenant's OpenID Provider metadata (also at <issuer>/.well-known/openid-configuration and /.well-known/oauth-authorization-server)",
    oauth: true,
    status: 200,
    response: OpenidConfigurationDocument,
    errors: ['TENANT_NOT_FOUND'],
    table: [],
  },
  authorize: {
    ...provider,
    operationId: 'authorize',
    method: 'GET',
    path: '/oidc/authorize',
    entry: 'functions/oidc/authorize.ts',
    bundleSdk: true,
    summary:
      'Authorization endpoint (code flow, PKCE S256): 302 to the hosted sign-in page, to the client with an error, or to the hosted error page for an unknown client or redirect URI',
    status: 302,
    errors: ['TENANT_NOT_FOUND'],
    table: ['GetItem', 'PutItem'],
  },
  getAuthorizationRequest: {
    tag: 'openid-provider',
    tenant: 'headers',
    auth: 'none',
    operationId: 'getAuthorizationRequest',
    method: 'GET',
    path: '/oidc/authorization-requests/{requestId}',
    entry: 'functions/oidc/get-authorization-request.ts',
    summary:
      'A pending authorization request, as the hosted sign-in page shows it (the client, the scopes, the prompt)',
    status: 200,
    params: AuthorizationRequestIdParams,
    response: AuthorizationRequestResponse,
    errors: ['NOT_FOUND'],
    table: ['GetItem'],
  },
  completeAuthorization: {
    ...bearerRoute({ tag: 'openid-provider' }),
    operationId: 'completeAuthorization',
    method: 'POST',
    path: '/oidc/authorization-requests/{requestId}/complete',
    entry: 'functions/oidc/complete-authorization.ts',
    summary:
      "The signed-in user sends the client a code: → the client's redirect URI (403 REAUTHENTICATION_REQUIRED for prompt=login or max_age, 403 CONSENT_REQUIRED for a third-party client)",
    status: 200,
    params: AuthorizationRequestIdParams,
    body: CompleteAuthorizationRequest,
    response: RedirectResponse,
    errors: [...BEARER_ERRORS, 'REAUTHENTICATION_REQUIRED', 'CONSENT_REQUIRED', 'NOT_FOUND'],
    // The request and client (GetItem), the consent (GetItem); the code Put, the request Delete, the consent Put.
    table: ['GetItem', 'PutItem', 'DeleteItem'],
  },
  cancelAuthorization: {
    tag: 'openid-provider',
    tenant: 'headers',
    auth: 'none',
    operationId: 'cancelAuthorization',
    method: 'POST',
    path: '/oidc/authorization-requests/{requestId}/cancel',
    entry: 'functions/oidc/cancel-authorization.ts',
    summary:
      'Send the client an error instead of a code (prompt=none without a session or consent): → its redirect URI',
    status: 200,
    params: AuthorizationRequestIdParams,
    body: CancelAuthorizationRequest,
    response: RedirectResponse,
    errors: ['NOT_FOUND'],
    table: ['DeleteItem'],
  },
  oidcToken: {
    ...provider,
    operationId: 'oidcToken',
    throttle: 'session',
    method: 'POST',
    path: '/oidc/token',
    entry: 'functions/oidc/oidc-token.ts',
    bundleSdk: true,
    summary: 'Token endpoint: authorization_code (PKCE), refresh_token (rotating, reuse detected), client_credentials',
    oauth: true,
    bodyType: 'form',
    status: 200,
    body: TokenRequest,
    response: TokenResponse,
    errors: [...CLIENT_ERRORS, 'INVALID_GRANT', 'UNAUTHORIZED_CLIENT', 'UNSUPPORTED_GRANT_TYPE', 'TENANT_NOT_FOUND'],
    // Client and code (GetItem), the user and session (GetItem); the session's transaction (Put the session,
    // Update device, profile and code, Put the activity); the refresh rotation (Update, Put the used hash);
    // a replayed code's session read with its user (BatchGetItem) and revoked (Update); the signing keys (Query,
    // and PutItem on first use).
    table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'],
    kms: [...SIGNS_TOKENS, 'refresh-mac:encrypt', 'refresh-mac:decrypt'],
  },
  oidcUserinfo: {
    ...provider,
    operationId: 'oidcUserinfo',
    throttle: 'session',
    method: 'GET',
    path: '/oidc/userinfo',
    entry: 'functions/oidc/oidc-userinfo.ts',
    summary:
      "UserInfo endpoint: the access token's user's claims, by its scopes (Authorization: Bearer <access token>)",
    oauth: true,
    status: 200,
    response: UserinfoResponse,
    errors: ['UNAUTHENTICATED', 'SESSION_REVOKED', 'TENANT_NOT_FOUND'],
    // The signing keys (Query), the user with the session (BatchGetItem).
    table: ['Query', 'BatchGetItem'],
  },
  oidcUserinfoPost: {
    ...provider,
    operationId: 'oidcUserinfoPost',
    throttle: 'session',
    method: 'POST',
    path: '/oidc/userinfo',
    entry: 'functions/oidc/oidc-userinfo-post.ts',
    summary: 'UserInfo endpoint by POST (OIDC Core 5.3.1), as GET',
    oauth: true,
    status: 200,
    response: UserinfoResponse,
    errors: ['UNAUTHENTICATED', 'SESSION_REVOKED', 'TENANT_NOT_FOUND'],
    table: ['Query', 'BatchGetItem'],
  },
  oidcRevoke: {
    ...provider,
    operationId: 'oidcRevoke',
    method: 'POST',
    path: '/oidc/revoke',
    entry: 'functions/oidc/oidc-revoke.ts',
    summary:
      "Revocation endpoint (RFC 7009): a refresh or access token of this client ends the client's session; 200 always",
    oauth: true,
    bodyType: 'form',
    status: 200,
    body: RevocationRequest,
    errors: [...CLIENT_ERRORS, 'TENANT_NOT_FOUND'],
    // The client (GetItem), the signing keys (Query), the user with the session (BatchGetItem), the revocation.
    table: ['GetItem', 'Query', 'BatchGetItem', 'UpdateItem'],
  },
  endSession: {
    ...provider,
    operationId: 'endSession',
    method: 'GET',
    path: '/oidc/end-session',
    entry: 'functions/oidc/end-session.ts',
    summary:
      "RP-initiated logout: ends the client's session named by id_token_hint, then 302 to the hosted sign-out page",
    status: 302,
    errors: ['TENANT_NOT_FOUND'],
    table: ['GetItem', 'Query', 'BatchGetItem', 'UpdateItem', 'PutItem'],
  },
  completeLogout: {
    tag: 'openid-provider',
    tenant: 'headers',
    auth: 'none',
    operationId: 'completeLogout',
    method: 'POST',
    path: '/oidc/logout-requests/{logoutId}/complete',
    entry: 'functions/oidc/complete-logout.ts',
    summary: "Where the hosted sign-out page goes next: the client's post-logout URI with its state, or null",
    status: 200,
    params: LogoutIdParams,
    body: v.strictObject({}),
    response: LogoutRedirectResponse,
    errors: ['NOT_FOUND'],
    table: ['DeleteItem'],
  },
} as const satisfies Record<string, RouteDef>;

export const oidcProviderSchemas = {
  TokenResponse,
  UserinfoResponse,
  AuthorizationRequestResponse,
};
