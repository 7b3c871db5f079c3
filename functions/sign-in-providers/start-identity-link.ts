// POST /users/me/identities/start: bearer, recently signed in; { providerId, returnTo, codeChallenge } → { authorizationUrl }
import { signInProviderRoutes } from '#functions/sign-in-providers/routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { startIdentityLink } from '#shared/sign-in-providers/identities.ts';

export const handler = httpHandler(
  signInProviderRoutes.startIdentityLink,
  ({ tenant, auth, body }, deps) => startIdentityLink(deps, tenant, auth, body),
  { authenticators: userAuthenticators },
);
