// PATCH /merchants/{id}: admin (bearer or X-Api-Key); UpdateMerchantRequest → MerchantResponse
import { merchantRoutes } from '#functions/merchants/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { updateMerchant } from '#shared/merchants/service.ts';

export const handler = httpHandler(
  merchantRoutes.updateMerchant,
  ({ tenant, params, body }, deps) => updateMerchant(deps, tenant, params.id, body),
  { authenticators: identityAuthenticators },
);
