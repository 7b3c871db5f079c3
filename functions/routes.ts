/**
 * THE route list of the identity service: the single source of truth from
 * which the CDK stack (infra/), the local gateway (local/) and the OpenAPI
 * document (shared/http/openapi.ts) are derived. Data and schemas only: no
 * handler code, no AWS SDK, so that CDK can import it cheaply.
 *
 * Paths are relative to the base path `/api/v1` (CONTRACT.md, Details).
 */

import type { RouteDef } from '#shared/http/route.ts';
import { HealthResponse, ProxyPathParams } from '#shared/http/schemas.ts';
import { DiscoveryQuery, DiscoveryResponse } from '#shared/tenancy/schemas.ts';

export const BASE_PATH = '/api/v1';

export const identityRoutes = {
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
  discovery: {
    operationId: 'discovery',
    method: 'GET',
    path: '/auth/discovery',
    entry: 'functions/auth/discovery.ts',
    summary: "A tenant's public configuration, by its public client key, for an allowed Origin",
    tag: 'auth',
    tenant: 'clientId',
    auth: 'none',
    status: 200,
    query: DiscoveryQuery,
    response: DiscoveryResponse,
    errors: ['TENANT_NOT_FOUND', 'ORIGIN_NOT_ALLOWED'],
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
} as const satisfies Record<string, RouteDef>;

export type IdentityRouteId = keyof typeof identityRoutes;

/** The list form, in declaration order. */
export const identityRouteList: readonly RouteDef[] = Object.values(identityRoutes);

/** Named schemas that the OpenAPI document lists under components (referenced by `$ref`). */
export { Problem } from '#shared/http/schemas.ts';
export const namedSchemas = { HealthResponse, DiscoveryQuery, DiscoveryResponse } as const;
