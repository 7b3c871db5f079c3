// POST /sign-in-providers: admin user, recently signed in; CreateSignInProviderRequest → 201 SignInProviderResponse
import { signInProviderRoutes } from '#functions/sign-in-providers/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { createSignInProvider } from '#shared/sign-in-providers/admin.ts';

export const handler = httpHandler(
  signInProviderRoutes.createSignInProvider,
  ({ tenant, auth, body }, deps) => createSignInProvider(deps, tenant, auth, body),
  { authenticators: identityAuthenticators },
);
