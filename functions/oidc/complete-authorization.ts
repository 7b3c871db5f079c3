// POST /oidc/authorization-requests/{requestId}/complete: bearer; { consent? } → { redirectTo } (the code to the client)
import { oidcProviderRoutes } from '#functions/oidc/protocol-routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { completeAuthorization } from '#shared/oidc/interaction.ts';

export const handler = httpHandler(
  oidcProviderRoutes.completeAuthorization,
  ({ tenant, auth, params, body, client }, deps) =>
    completeAuthorization(deps, tenant, auth, params.requestId, body, client),
  { authenticators: userAuthenticators },
);
