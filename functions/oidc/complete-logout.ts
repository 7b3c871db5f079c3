// POST /oidc/logout-requests/{logoutId}/complete: → { redirectTo } where the sign-out page goes next, once
import { oidcProviderRoutes } from '#functions/oidc/protocol-routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { completeLogout } from '#shared/oidc/end-session.ts';

export const handler = httpHandler(oidcProviderRoutes.completeLogout, ({ tenant, params }, deps) =>
  completeLogout(deps, tenant, params.logoutId),
);
