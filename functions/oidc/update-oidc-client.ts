// PATCH /oidc/clients/{clientId}: admin (bearer or X-Api-Key; redirect URIs: a recently signed-in user); UpdateOidcClientRequest → OidcClientResponse
import { oidcRoutes } from '#functions/oidc/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { updateOidcClient } from '#shared/oidc/clients.ts';

export const handler = httpHandler(
  oidcRoutes.updateOidcClient,
  ({ tenant, auth, params, body }, deps) => updateOidcClient(deps, tenant, auth, params.clientId, body),
  { authenticators: identityAuthenticators },
);
