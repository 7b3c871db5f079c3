// GET /merchants/{id}/api-keys: admin (bearer or X-Api-Key) → ApiKeyResponse[]
import { merchantRoutes } from '#functions/merchants/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { listApiKeys } from '#shared/merchants/api-keys.ts';

export const handler = httpHandler(
  merchantRoutes.listApiKeys,
  ({ tenant, params }, deps) => listApiKeys(deps, tenant, params.id),
  { authenticators: identityAuthenticators },
);
