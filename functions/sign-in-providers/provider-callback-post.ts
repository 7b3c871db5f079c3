// POST /auth/providers/callback: the same callback, for providers that post their answer (Apple's form_post)
import { signInProviderRoutes } from '#functions/sign-in-providers/routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { PROVIDER_ROUTE } from '#shared/oidc/issuer.ts';
import { providerCallback } from '#shared/sign-in-providers/flow.ts';

export const handler = httpHandler(
  signInProviderRoutes.providerCallbackPost,
  ({ tenant, body }, deps) => providerCallback(deps, tenant, new URLSearchParams(body)),
  PROVIDER_ROUTE,
);
