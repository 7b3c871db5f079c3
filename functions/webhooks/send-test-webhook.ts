// POST /webhook-endpoints/{endpointId}/test: admin user → 202 QueuedResponse
import { webhookRoutes } from '#functions/webhooks/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { sendTestEvent } from '#shared/webhooks/admin.ts';

export const handler = httpHandler(
  webhookRoutes.sendTestWebhook,
  ({ tenant, auth, params }, deps) => sendTestEvent(deps, tenant, auth, params.endpointId),
  { authenticators: identityAuthenticators },
);
