// GET /users/{id}/passkeys: admin → PasskeyResponse[]
import { passkeyRoutes } from '#functions/passkeys/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { listUserPasskeys } from '#shared/passkeys/manage.ts';

export const handler = httpHandler(
  passkeyRoutes.listUserPasskeys,
  ({ tenant, params }, deps) => listUserPasskeys(deps, tenant, params.id),
  { authenticators: identityAuthenticators },
);
