// PATCH /sign-in-providers/{providerId}: admin user, recently signed in; UpdateSignInProviderRequest → SignInProviderResponse
import { signInProviderRoutes } from '#functions/sign-in-providers/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { updateSignInProvider } from '#shared/sign-in-providers/admin.ts';

export const handler = httpHandler(
  signInProviderRoutes.updateSignInProvider,
  ({ tenant, auth, params, body }, deps) => updateSignInProvider(deps, tenant, auth, params.providerId, body),
  { authenticators: identityAuthenticators },
);
