// DELETE /oidc/clients/{clientId}: admin (bearer or X-Api-Key) → 204
import { oidcRoutes } from '#functions/oidc/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { deleteOidcClient } from '#shared/oidc/clients.ts';

export const handler = httpHandler(
  oidcRoutes.deleteOidcClient,
  ({ tenant, params }, deps) => deleteOidcClient(deps, tenant, params.clientId),
  { authenticators: identityAuthenticators },
);
