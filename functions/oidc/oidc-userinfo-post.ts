// POST /oidc/userinfo: as GET (OIDC Core 5.3.1); the access token in Authorization
import { oidcProviderRoutes } from '#functions/oidc/protocol-routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { OAUTH_ROUTE } from '#shared/oidc/issuer.ts';
import { userinfo } from '#shared/oidc/userinfo.ts';

export const handler = httpHandler(
  oidcProviderRoutes.oidcUserinfoPost,
  ({ tenant, request }, deps) => userinfo(deps, tenant, request.header('authorization')),
  OAUTH_ROUTE,
);
