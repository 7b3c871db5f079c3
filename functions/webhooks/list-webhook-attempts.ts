// GET /webhook-endpoints/{endpointId}/attempts: admin user → DeliveryAttemptPage
import { webhookRoutes } from '#functions/webhooks/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { listWebhookAttempts } from '#shared/webhooks/admin.ts';

export const handler = httpHandler(
  webhookRoutes.listWebhookAttempts,
  ({ tenant, auth, params, query }, deps) => listWebhookAttempts(deps, tenant, auth, params.endpointId, query),
  { authenticators: identityAuthenticators },
);
