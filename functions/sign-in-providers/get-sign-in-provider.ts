// GET /sign-in-providers/{providerId}: admin user (no API key) → SignInProviderResponse
import { signInProviderRoutes } from '#functions/sign-in-providers/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { getSignInProvider } from '#shared/sign-in-providers/admin.ts';

export const handler = httpHandler(
  signInProviderRoutes.getSignInProvider,
  ({ tenant, auth, params }, deps) => getSignInProvider(deps, tenant, auth, params.providerId),
  { authenticators: identityAuthenticators },
);
