// DELETE /users/me/identities/{providerId}: bearer, recently signed in → 204
import { signInProviderRoutes } from '#functions/sign-in-providers/routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { unlinkMyIdentity } from '#shared/sign-in-providers/identities.ts';

export const handler = httpHandler(
  signInProviderRoutes.unlinkMyIdentity,
  ({ tenant, auth, params, client }, deps) => unlinkMyIdentity(deps, tenant, auth, params.providerId, client),
  { authenticators: userAuthenticators },
);
