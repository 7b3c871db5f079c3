// GET /users/me/identities: bearer → IdentityResponse[]
import { signInProviderRoutes } from '#functions/sign-in-providers/routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { listMyIdentities } from '#shared/sign-in-providers/identities.ts';

export const handler = httpHandler(
  signInProviderRoutes.listMyIdentities,
  ({ tenant, auth }, deps) => listMyIdentities(deps, tenant, auth),
  { authenticators: userAuthenticators },
);
