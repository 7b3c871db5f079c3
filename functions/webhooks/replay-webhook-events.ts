// POST /webhook-endpoints/{endpointId}/replay: admin user → 202 QueuedResponse
import { webhookRoutes } from '#functions/webhooks/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { replayEvents } from '#shared/webhooks/admin.ts';

export const handler = httpHandler(
  webhookRoutes.replayWebhookEvents,
  ({ tenant, auth, params, body }, deps) => replayEvents(deps, tenant, auth, params.endpointId, body.since),
  { authenticators: identityAuthenticators },
);
