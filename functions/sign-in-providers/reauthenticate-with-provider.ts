// POST /auth/reauthenticate/provider: bearer; { result, codeVerifier, totpCode? } → 204
import { signInProviderRoutes } from '#functions/sign-in-providers/routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { reauthenticateWithProvider } from '#shared/sign-in-providers/identities.ts';

export const handler = httpHandler(
  signInProviderRoutes.reauthenticateWithProvider,
  ({ tenant, auth, body, client }, deps) => reauthenticateWithProvider(deps, tenant, auth, body, client),
  { authenticators: userAuthenticators },
);
