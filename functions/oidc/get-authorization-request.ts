// GET /oidc/authorization-requests/{requestId}: what the hosted sign-in page shows of a pending request
import { oidcProviderRoutes } from '#functions/oidc/protocol-routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { getAuthorizationRequest } from '#shared/oidc/interaction.ts';

export const handler = httpHandler(oidcProviderRoutes.getAuthorizationRequest, ({ tenant, params }, deps) =>
  getAuthorizationRequest(deps, tenant, params.requestId),
);
