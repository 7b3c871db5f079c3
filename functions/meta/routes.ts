/**
 * Routes of the service itself: health, its OpenAPI document, CORS preflight, the token keys and
 * issuer metadata, and the `$default` route that answers every unmatched method and path.
 */
import * as v from 'valibot';
import type { RouteDef } from '#shared/http/route.ts';
import { HealthResponse, ProxyPathParams } from '#shared/http/schemas.ts';

/**
 * RFC 7517 JWK Set of the token-signing keys: ES256 (EC P-256, RFC 7518 6.2)
 * and RS256 (RSA, RFC 7518 6.3) public keys. Public members only: strict
 * objects, so an answer carrying a private member (`d`, `p`, `q`, `dp`, `dq`,
 * `qi`) or anything else breaks the contract.
 */
const EcJwk = v.strictObject({
  kty: v.literal('EC'),
  crv: v.literal('P-256'),
  x: v.string(),
  y: v.string(),
  kid: v.string(),
  alg: v.literal('ES256'),
  use: v.literal('sig'),
});
const RsaJwk = v.strictObject({
  kty: v.literal('RSA'),
  n: v.string(),
  e: v.string(),
  kid: v.string(),
  alg: v.literal('RS256'),
  use: v.literal('sig'),
});
export const JwksResponse = v.object({
  keys: v.array(v.variant('kty', [EcJwk, RsaJwk])),
});

/**
 * Issuer metadata at the OpenID discovery location, holding only what is true
 * of this service. Resource servers (an API Gateway JWT authorizer, jose's
 * remote JWK Set) need just `issuer` and `jwks_uri`. This is not an OpenID
 * provider: it issues no ID tokens and has no OAuth authorization or token
 * endpoint (`/auth/refresh` takes no OAuth grant), so the provider fields
 * (`authorization_endpoint`, `token_endpoint`, `id_token_signing_alg_values_supported`,
 * `response_types_supported`, …) are left out rather than claimed.
 */
export const OpenidConfigurationResponse = v.object({
  issuer: v.string(),
  jwks_uri: v.string(),
});

export const metaRoutes = {
  health: {
    operationId: 'health',
    method: 'GET',
    path: '/health',
    entry: 'functions/meta/health.ts',
    summary: 'Liveness check',
    tag: 'meta',
    tenant: 'none',
    auth: 'none',
    status: 200,
    response: HealthResponse,
    table: [],
  },
  getOpenapi: {
    operationId: 'getOpenapi',
    method: 'GET',
    path: '/openapi.json',
    entry: 'functions/meta/get-openapi.ts',
    summary: 'This OpenAPI 3.1 document',
    tag: 'meta',
    tenant: 'none',
    auth: 'none',
    status: 200,
    table: [],
  },
  preflight: {
    operationId: 'preflight',
    method: 'OPTIONS',
    path: '/{proxy+}',
    entry: 'functions/meta/preflight.ts',
    summary: 'CORS preflight for every path: echoes Origin only when some tenant allows it',
    tag: 'meta',
    tenant: 'none',
    auth: 'none',
    status: 204,
    params: ProxyPathParams,
    table: ['Query'],
    undocumented: true,
  },
  getJwks: {
    operationId: 'getJwks',
    throttle: 'session',
    servedAtIssuer: true,
    method: 'GET',
    path: '/.well-known/jwks.json',
    entry: 'functions/meta/get-jwks.ts',
    summary: 'JWK Set of the public keys that verify access tokens (ES256)',
    tag: 'meta',
    tenant: 'none',
    auth: 'none',
    status: 200,
    response: JwksResponse,
    table: ['Query'],
  },
  getOpenidConfiguration: {
    operationId: 'getOpenidConfiguration',
    throttle: 'session',
    servedAtIssuer: true,
    method: 'GET',
    path: '/.well-known/openid-configuration',
    entry: 'functions/meta/get-openid-configuration.ts',
    summary: 'Issuer metadata: the access-token issuer and where its keys are',
    tag: 'meta',
    tenant: 'none',
    auth: 'none',
    status: 200,
    response: OpenidConfigurationResponse,
    table: [],
  },
  notFound: {
    operationId: 'notFound',
    // The HTTP API's $default route: what no other route matches gets 404 NOT_FOUND as problem+json,
    // not API Gateway's bare {"message":"Not Found"} (docs/http.md#errors).
    method: 'ANY',
    path: '$default',
    entry: 'functions/meta/not-found.ts',
    summary: 'Any method and path that no other route matches: 404 NOT_FOUND',
    tag: 'meta',
    tenant: 'none',
    auth: 'none',
    // Never sent: the handler always answers 404.
    status: 200,
    table: [],
    undocumented: true,
  },
} as const satisfies Record<string, RouteDef>;

/** Schemas of this area that the OpenAPI document lists under components. */
export const metaSchemas = { HealthResponse, JwksResponse, OpenidConfigurationResponse };
