// GET /users/{id}/identities: admin → IdentityResponse[]
import { signInProviderRoutes } from '#functions/sign-in-providers/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { listUserIdentities } from '#shared/sign-in-providers/identities.ts';

export const handler = httpHandler(
  signInProviderRoutes.listUserIdentities,
  ({ tenant, params }, deps) => listUserIdentities(deps, tenant, params.id),
  { authenticators: identityAuthenticators },
);
