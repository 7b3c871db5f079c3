// GET /sign-in-providers: admin user (no API key) → SignInProviderResponse[]
import { signInProviderRoutes } from '#functions/sign-in-providers/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { listSignInProviders } from '#shared/sign-in-providers/admin.ts';

export const handler = httpHandler(
  signInProviderRoutes.listSignInProviders,
  ({ tenant, auth }, deps) => listSignInProviders(deps, tenant, auth),
  { authenticators: identityAuthenticators },
);
