// GET /passkeys/related-origins (and <hosted origin>/.well-known/webauthn): issuer → { origins }; cacheable
import { passkeyRoutes } from '#functions/passkeys/routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { Reply } from '#shared/http/reply.ts';
import { PROVIDER_ROUTE } from '#shared/oidc/issuer.ts';
import { relatedOrigins } from '#shared/passkeys/relying-party.ts';

export const handler = httpHandler(
  passkeyRoutes.getRelatedOrigins,
  ({ tenant }, deps) => new Reply(relatedOrigins(deps.config, tenant), { 'cache-control': 'public, max-age=300' }),
  PROVIDER_ROUTE,
);
