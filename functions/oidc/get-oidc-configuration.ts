// GET /oidc/openid-configuration: the issuer's (tenant's) OpenID Provider metadata; cacheable
import { oidcProviderRoutes } from '#functions/oidc/protocol-routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { Reply } from '#shared/http/reply.ts';
import { openidConfiguration } from '#shared/oidc/discovery.ts';
import { OAUTH_ROUTE } from '#shared/oidc/issuer.ts';

export const handler = httpHandler(
  oidcProviderRoutes.getOidcConfiguration,
  ({ tenant }, deps) => new Reply(openidConfiguration(deps, tenant), { 'cache-control': 'public, max-age=300' }),
  OAUTH_ROUTE,
);
