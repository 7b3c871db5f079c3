// DELETE /merchants/{id}/api-keys/{keyId}: admin (bearer or X-Api-Key) → 204
import { merchantRoutes } from '#functions/merchants/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { revokeApiKey } from '#shared/merchants/api-keys.ts';

export const handler = httpHandler(
  merchantRoutes.revokeApiKey,
  ({ tenant, params }, deps) => revokeApiKey(deps, tenant, params.id, params.keyId),
  { authenticators: identityAuthenticators },
);
