// GET /auth/providers/callback: the tenant's issuer host; the provider's answer → 302 to the page that started
import { signInProviderRoutes } from '#functions/sign-in-providers/routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { PROVIDER_ROUTE } from '#shared/oidc/issuer.ts';
import { providerCallback } from '#shared/sign-in-providers/flow.ts';

export const handler = httpHandler(
  signInProviderRoutes.providerCallback,
  ({ tenant, request }, deps) => providerCallback(deps, tenant, new URLSearchParams(request.rawQuery)),
  PROVIDER_ROUTE,
);
