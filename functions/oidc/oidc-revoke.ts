// POST /oidc/revoke: form body; the client authenticated; its token's session ends → 200 (RFC 7009)
import { oidcProviderRoutes } from '#functions/oidc/protocol-routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { OAUTH_ROUTE } from '#shared/oidc/issuer.ts';
import { revoke } from '#shared/oidc/revoke.ts';

export const handler = httpHandler(
  oidcProviderRoutes.oidcRevoke,
  ({ tenant, body, request }, deps) =>
    revoke(deps, tenant, body, {
      authorization: request.header('authorization'),
      clientId: body.client_id,
      clientSecret: body.client_secret,
    }),
  OAUTH_ROUTE,
);
