// DELETE /users/me/passkeys/{passkeyId}: bearer → 204
import { passkeyRoutes } from '#functions/passkeys/routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { removeMyPasskey } from '#shared/passkeys/manage.ts';

export const handler = httpHandler(
  passkeyRoutes.removeMyPasskey,
  ({ tenant, auth, params, client }, deps) => removeMyPasskey(deps, tenant, auth, params.passkeyId, client),
  { authenticators: userAuthenticators },
);
