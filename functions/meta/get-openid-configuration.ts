// GET /.well-known/openid-configuration: no auth, no tenant; → { issuer, jwks_uri }
import { metaRoutes } from '#functions/meta/routes.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(metaRoutes.getOpenidConfiguration, (_input, deps) => ({
  issuer: deps.config.issuerUrl,
  jwks_uri: `${deps.config.issuerUrl}/.well-known/jwks.json`,
}));
