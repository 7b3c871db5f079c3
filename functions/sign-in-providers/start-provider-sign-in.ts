// POST /auth/providers/{providerId}/start: tenant headers; { returnTo, codeChallenge, loginHint? } → { authorizationUrl }
import { signInProviderRoutes } from '#functions/sign-in-providers/routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { startProviderSignIn } from '#shared/sign-in-providers/flow.ts';

export const handler = httpHandler(signInProviderRoutes.startProviderSignIn, ({ tenant, params, body, client }, deps) =>
  startProviderSignIn(deps, tenant, params.providerId, body, client),
);
