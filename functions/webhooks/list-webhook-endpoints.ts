// GET /webhook-endpoints: admin user (no API key) → WebhookEndpointResponse[]
import { webhookRoutes } from '#functions/webhooks/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { listWebhookEndpoints } from '#shared/webhooks/admin.ts';

export const handler = httpHandler(
  webhookRoutes.listWebhookEndpoints,
  ({ tenant, auth }, deps) => listWebhookEndpoints(deps, tenant, auth),
  { authenticators: identityAuthenticators },
);
