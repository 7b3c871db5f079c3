// GET /auth/discovery?clientId=&slug=: no auth, allowed Origin only; → the tenant's public configuration
import { authRoutes } from '#functions/auth/routes.ts';
import { withDirectReadsDeps } from '#shared/deps.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { toDiscovery } from '#shared/tenancy/service.ts';

export const handler = httpHandler(
  authRoutes.discovery,
  ({ tenant, query, request }, deps) => toDiscovery(deps, tenant, { slug: query.slug, requestId: request.requestId }),
  { depsForRoute: withDirectReadsDeps },
);
