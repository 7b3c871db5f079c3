// GET /merchants/me: admin (bearer or X-Api-Key) → MerchantResponse
import { merchantRoutes } from '#functions/merchants/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { getMyMerchant } from '#shared/merchants/service.ts';

export const handler = httpHandler(merchantRoutes.getMyMerchant, ({ tenant }, deps) => getMyMerchant(deps, tenant), {
  authenticators: identityAuthenticators,
});
