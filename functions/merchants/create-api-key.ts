// POST /merchants/{id}/api-keys: admin (bearer or X-Api-Key); CreateApiKeyRequest → 201 GenerateApiKeyResponse
import { merchantRoutes } from '#functions/merchants/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { createApiKey } from '#shared/merchants/api-keys.ts';

export const handler = httpHandler(
  merchantRoutes.createApiKey,
  ({ tenant, auth, params, body }, deps) => createApiKey(deps, tenant, auth, params.id, body),
  { authenticators: identityAuthenticators },
);
