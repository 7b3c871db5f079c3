// POST /oidc/token: form body; the client authenticated, then its grant → TokenResponse (OAuth errors)
import { oidcProviderRoutes } from '#functions/oidc/protocol-routes.ts';
import { withDirectReadsDeps } from '#shared/deps.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { Reply } from '#shared/http/reply.ts';
import { OAUTH_ROUTE } from '#shared/oidc/issuer.ts';
import { token } from '#shared/oidc/token-endpoint.ts';

export const handler = httpHandler(
  oidcProviderRoutes.oidcToken,
  async ({ tenant, body, request, client }, deps) => {
    const credentials = {
      authorization: request.header('authorization'),
      clientId: body.client_id,
      clientSecret: body.client_secret,
    };
    // RFC 6749 5.1: token answers are never cached.
    return new Reply(await token(deps, tenant, body, credentials, client), { pragma: 'no-cache' });
  },
  { ...OAUTH_ROUTE, depsForRoute: withDirectReadsDeps },
);
