// POST /oidc/clients/{clientId}/secret: admin user, recently signed in → OidcClientWithSecretResponse
import { oidcRoutes } from '#functions/oidc/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { rotateOidcClientSecret } from '#shared/oidc/clients.ts';

export const handler = httpHandler(
  oidcRoutes.rotateOidcClientSecret,
  ({ tenant, auth, params }, deps) => rotateOidcClientSecret(deps, tenant, auth, params.clientId),
  { authenticators: identityAuthenticators },
);
