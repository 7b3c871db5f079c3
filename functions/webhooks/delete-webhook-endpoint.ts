// DELETE /webhook-endpoints/{endpointId}: admin user, recently signed in → 204
import { webhookRoutes } from '#functions/webhooks/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { deleteWebhookEndpoint } from '#shared/webhooks/admin.ts';

export const handler = httpHandler(
  webhookRoutes.deleteWebhookEndpoint,
  ({ tenant, auth, params }, deps) => deleteWebhookEndpoint(deps, tenant, auth, params.endpointId),
  { authenticators: identityAuthenticators },
);
