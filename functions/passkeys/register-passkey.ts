// POST /users/me/passkeys: bearer; { credential, name? } → 201 PasskeyResponse
import { passkeyRoutes } from '#functions/passkeys/routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { registerPasskey } from '#shared/passkeys/registration.ts';

export const handler = httpHandler(
  passkeyRoutes.registerPasskey,
  ({ tenant, auth, body, client }, deps) => registerPasskey(deps, tenant, auth, body, client),
  { authenticators: userAuthenticators },
);
