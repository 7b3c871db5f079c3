// DELETE /users/{id}/passkeys/{passkeyId}: admin → 204 (recorded as PASSKEY_REMOVED by the admin)
import { passkeyRoutes } from '#functions/passkeys/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { removeUserPasskey } from '#shared/passkeys/manage.ts';

export const handler = httpHandler(
  passkeyRoutes.removeUserPasskey,
  ({ tenant, auth, params, client }, deps) =>
    removeUserPasskey(deps, tenant, auth, params.id, params.passkeyId, client),
  { authenticators: identityAuthenticators },
);
