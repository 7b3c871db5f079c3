// GET /oidc/authorize: the authorization request, checked → 302 (hosted sign-in page, the client's error, or the error page)
import { oidcProviderRoutes } from '#functions/oidc/protocol-routes.ts';
import { withDirectReadsDeps } from '#shared/deps.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { authorize } from '#shared/oidc/authorize.ts';
import { PROVIDER_ROUTE } from '#shared/oidc/issuer.ts';

export const handler = httpHandler(
  oidcProviderRoutes.authorize,
  ({ tenant, request }, deps) => authorize(deps, tenant, request.rawQuery),
  { ...PROVIDER_ROUTE, depsForRoute: withDirectReadsDeps },
);
