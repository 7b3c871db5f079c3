// POST /webhook-endpoints: admin user, recently signed in → 201 WebhookEndpointWithSecret
import { webhookRoutes } from '#functions/webhooks/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { createWebhookEndpoint } from '#shared/webhooks/admin.ts';

export const handler = httpHandler(
  webhookRoutes.createWebhookEndpoint,
  ({ tenant, auth, body }, deps) => createWebhookEndpoint(deps, tenant, auth, body),
  { authenticators: identityAuthenticators },
);
