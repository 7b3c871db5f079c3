// POST /oidc/authorization-requests/{requestId}/cancel: { error } → { redirectTo } (the error to the client)
import { oidcProviderRoutes } from '#functions/oidc/protocol-routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { cancelAuthorization } from '#shared/oidc/interaction.ts';

export const handler = httpHandler(oidcProviderRoutes.cancelAuthorization, ({ tenant, params, body }, deps) =>
  cancelAuthorization(deps, tenant, params.requestId, body.error),
);
