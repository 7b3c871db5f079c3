// PATCH /webhook-endpoints/{endpointId}: admin user, recently signed in → WebhookEndpointResponse
import { webhookRoutes } from '#functions/webhooks/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { updateWebhookEndpoint } from '#shared/webhooks/admin.ts';

export const handler = httpHandler(
  webhookRoutes.updateWebhookEndpoint,
  ({ tenant, auth, params, body }, deps) => updateWebhookEndpoint(deps, tenant, auth, params.endpointId, body),
  { authenticators: identityAuthenticators },
);
