/**
 * THE route list of the plant store, a resource server that accepts the
 * identity service's access tokens: its CDK stack (infra/plants-stack.ts), the
 * local gateway and its OpenAPI document derive from it. Data and schemas only.
 *
 * Paths are at the root of its own API (no base path).
 */
import type { RouteDef } from '#shared/http/route.ts';
import { ProxyPathParams } from '#shared/http/schemas.ts';
import { NewPlant, Plant } from '#shared/plants/schemas.ts';

export const plantRoutes = {
  createPlant: {
    operationId: 'createPlant',
    method: 'POST',
    path: '/plants',
    entry: 'functions/plants/create-plant.ts',
    summary: "Create a plant in the caller's tenant",
    tag: 'plants',
    // No tenant headers: the tenant is the access token's app/mid.
    tenant: 'token',
    auth: 'bearer',
    status: 200,
    body: NewPlant,
    response: Plant,
    errors: ['VALIDATION_FAILED', 'UNAUTHENTICATED'],
    table: ['PutItem'],
  },
  plantsPreflight: {
    operationId: 'plantsPreflight',
    method: 'OPTIONS',
    path: '/{proxy+}',
    entry: 'functions/plants/plants-preflight.ts',
    summary: 'CORS preflight for every path: echoes Origin only when some identity tenant allows it',
    tag: 'meta',
    tenant: 'none',
    auth: 'none',
    status: 204,
    params: ProxyPathParams,
    // Its own table: nothing. It reads the identity's ORIGIN items (plantCorsRoutes below).
    table: [],
    undocumented: true,
  },
  getPlantsOpenapi: {
    operationId: 'getPlantsOpenapi',
    method: 'GET',
    path: '/openapi.json',
    entry: 'functions/plants/get-plants-openapi.ts',
    summary: 'This OpenAPI 3.1 document',
    tag: 'meta',
    tenant: 'none',
    auth: 'none',
    status: 200,
    table: [],
  },
  plantsNotFound: {
    operationId: 'plantsNotFound',
    // The HTTP API's $default route: what no other route matches gets 404 in the plant store's own
    // error body, not API Gateway's bare {"message":"Not Found"}.
    method: 'ANY',
    path: '$default',
    entry: 'functions/plants/plants-not-found.ts',
    summary: 'Any method and path that no other route matches: 404',
    tag: 'meta',
    tenant: 'none',
    auth: 'none',
    // Never sent: the handler always answers 404.
    status: 200,
    table: [],
    undocumented: true,
  },
} as const satisfies Record<string, RouteDef>;

/** The list form. */
export const plantRouteList: readonly RouteDef[] = Object.values(plantRoutes);

/**
 * The routes that answer CORS (shared/plants/cors.ts): their functions, and no others, may read
 * the identity table's ORIGIN items (infra/plants-stack.ts) to learn which origins its tenants allow.
 */
export const plantCorsRoutes: readonly string[] = [
  plantRoutes.plantsPreflight.operationId,
  plantRoutes.createPlant.operationId,
];

/** Named schemas that the OpenAPI document lists under components (the error body is added by the builder). */
export const plantSchemas = { Plant, NewPlant };
