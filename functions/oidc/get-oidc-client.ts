// GET /oidc/clients/{clientId}: admin (bearer or X-Api-Key) → OidcClientResponse
import { oidcRoutes } from '#functions/oidc/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { getOidcClient } from '#shared/oidc/clients.ts';

export const handler = httpHandler(
  oidcRoutes.getOidcClient,
  ({ tenant, params }, deps) => getOidcClient(deps, tenant, params.clientId),
  { authenticators: identityAuthenticators },
);
