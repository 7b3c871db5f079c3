// GET /.well-known/jwks.json: no auth, no tenant; → JwksResponse (public keys only, cacheable)
import { metaRoutes } from '#functions/meta/routes.ts';
import { signingKeys } from '#shared/auth/signing-keys.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { Reply } from '#shared/http/reply.ts';

// Public keys are no secret: clients may cache them for 5 minutes (retired keys stay listed for an hour).
export const handler = httpHandler(
  metaRoutes.getJwks,
  async (_input, deps) =>
    new Reply(await signingKeys(deps).publicJwks({ fresh: true }), { 'cache-control': 'public, max-age=300' }),
);
