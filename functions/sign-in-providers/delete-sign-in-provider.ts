// DELETE /sign-in-providers/{providerId}: admin user, recently signed in → 204
import { signInProviderRoutes } from '#functions/sign-in-providers/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { deleteSignInProvider } from '#shared/sign-in-providers/admin.ts';

export const handler = httpHandler(
  signInProviderRoutes.deleteSignInProvider,
  ({ tenant, auth, params }, deps) => deleteSignInProvider(deps, tenant, auth, params.providerId),
  { authenticators: identityAuthenticators },
);
