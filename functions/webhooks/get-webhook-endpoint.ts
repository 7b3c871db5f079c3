// GET /webhook-endpoints/{endpointId}: admin user → WebhookEndpointResponse
import { webhookRoutes } from '#functions/webhooks/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { getWebhookEndpoint } from '#shared/webhooks/admin.ts';

export const handler = httpHandler(
  webhookRoutes.getWebhookEndpoint,
  ({ tenant, auth, params }, deps) => getWebhookEndpoint(deps, tenant, auth, params.endpointId),
  { authenticators: identityAuthenticators },
);
