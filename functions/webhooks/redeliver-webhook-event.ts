// POST /webhook-endpoints/{endpointId}/redeliver: admin user → 202 QueuedResponse
import { webhookRoutes } from '#functions/webhooks/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { redeliverEvent } from '#shared/webhooks/admin.ts';

export const handler = httpHandler(
  webhookRoutes.redeliverWebhookEvent,
  ({ tenant, auth, params, body }, deps) => redeliverEvent(deps, tenant, auth, params.endpointId, body.eventId),
  { authenticators: identityAuthenticators },
);
