// GET /oidc/userinfo: Authorization: Bearer <access token> → the user's claims by its scopes (OAuth errors)
import { oidcProviderRoutes } from '#functions/oidc/protocol-routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { OAUTH_ROUTE } from '#shared/oidc/issuer.ts';
import { userinfo } from '#shared/oidc/userinfo.ts';

export const handler = httpHandler(
  oidcProviderRoutes.oidcUserinfo,
  ({ tenant, request }, deps) => userinfo(deps, tenant, request.header('authorization')),
  OAUTH_ROUTE,
);
