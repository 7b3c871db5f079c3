// POST /webhook-endpoints/{endpointId}/secret: admin user, recently signed in → WebhookEndpointWithSecret
import { webhookRoutes } from '#functions/webhooks/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { rotateWebhookSecret } from '#shared/webhooks/admin.ts';

export const handler = httpHandler(
  webhookRoutes.rotateWebhookSecret,
  ({ tenant, auth, params }, deps) => rotateWebhookSecret(deps, tenant, auth, params.endpointId),
  { authenticators: identityAuthenticators },
);
