// GET /users/me/passkeys: bearer → PasskeyResponse[]
import { passkeyRoutes } from '#functions/passkeys/routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { listMyPasskeys } from '#shared/passkeys/manage.ts';

export const handler = httpHandler(
  passkeyRoutes.listMyPasskeys,
  ({ tenant, auth }, deps) => listMyPasskeys(deps, tenant, auth),
  { authenticators: userAuthenticators },
);
