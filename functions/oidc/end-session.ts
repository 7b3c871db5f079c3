// GET /oidc/end-session: RP-initiated logout → 302 to the hosted sign-out page
import { oidcProviderRoutes } from '#functions/oidc/protocol-routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { endSession } from '#shared/oidc/end-session.ts';
import { PROVIDER_ROUTE } from '#shared/oidc/issuer.ts';

export const handler = httpHandler(
  oidcProviderRoutes.endSession,
  ({ tenant, request }, deps) => endSession(deps, tenant, request.rawQuery),
  PROVIDER_ROUTE,
);
