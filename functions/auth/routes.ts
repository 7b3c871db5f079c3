/** Routes under /auth: discovery, signup, login, tokens, recovery. */
import type { RouteDef } from '#shared/http/route.ts';
import { DiscoveryQuery, DiscoveryResponse } from '#shared/tenancy/schemas.ts';

export const authRoutes = {
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
} as const satisfies Record<string, RouteDef>;

export const authSchemas = { DiscoveryQuery, DiscoveryResponse };
