/** Routes of the service itself: health, its OpenAPI document, CORS preflight (and, with tokens, the key set). */
import { HealthResponse, ProxyPathParams } from '#shared/http/schemas.ts';
import type { RouteDef } from '#shared/http/route.ts';

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
} as const satisfies Record<string, RouteDef>;

/** Schemas of this area that the OpenAPI document lists under components. */
export const metaSchemas = { HealthResponse };
