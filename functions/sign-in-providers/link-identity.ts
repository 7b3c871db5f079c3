// POST /users/me/identities: bearer, recently signed in; { result, codeVerifier } → 201 IdentityResponse
import { signInProviderRoutes } from '#functions/sign-in-providers/routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { linkIdentity } from '#shared/sign-in-providers/identities.ts';

export const handler = httpHandler(
  signInProviderRoutes.linkIdentity,
  ({ tenant, auth, body, client }, deps) => linkIdentity(deps, tenant, auth, body, client),
  { authenticators: userAuthenticators },
);
