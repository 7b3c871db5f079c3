// PATCH /users/me/passkeys/{passkeyId}: bearer; { name } → PasskeyResponse
import { passkeyRoutes } from '#functions/passkeys/routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { renameMyPasskey } from '#shared/passkeys/manage.ts';

export const handler = httpHandler(
  passkeyRoutes.renameMyPasskey,
  ({ tenant, auth, params, body }, deps) => renameMyPasskey(deps, tenant, auth, params.passkeyId, body.name),
  { authenticators: userAuthenticators },
);
