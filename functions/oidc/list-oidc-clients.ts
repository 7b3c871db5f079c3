// GET /oidc/clients: admin (bearer or X-Api-Key) → OidcClientResponse[]
import { oidcRoutes } from '#functions/oidc/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { listOidcClients } from '#shared/oidc/clients.ts';

export const handler = httpHandler(oidcRoutes.listOidcClients, ({ tenant }, deps) => listOidcClients(deps, tenant), {
  authenticators: identityAuthenticators,
});
