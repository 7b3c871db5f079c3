// GET /.well-known/jwks.json: no auth, no tenant; → JwksResponse (public keys only, cacheable)
import { metaRoutes } from '#functions/meta/routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { Reply } from '#shared/http/reply.ts';
import { signingKeys } from '#shared/tokens/signing-keys.ts';

// Public keys are no secret: clients may cache them for 5 minutes (retired keys stay listed for an hour).
// Served from the process's 60-second key cache: a public, unthrottled route must not cost a read per request.
export const handler = httpHandler(
  metaRoutes.getJwks,
  async (_input, deps) => new Reply(await signingKeys(deps).publicJwks(), { 'cache-control': 'public, max-age=300' }),
);
