// POST /oidc/clients: admin user, recently signed in; CreateOidcClientRequest → 201 OidcClientWithSecretResponse
import { oidcRoutes } from '#functions/oidc/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { createOidcClient } from '#shared/oidc/clients.ts';

export const handler = httpHandler(
  oidcRoutes.createOidcClient,
  ({ tenant, auth, body }, deps) => createOidcClient(deps, tenant, auth, body),
  { authenticators: identityAuthenticators },
);
