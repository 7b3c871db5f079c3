// POST /auth/reauthenticate/passkey: bearer; { credential } → 204
import { passkeyRoutes } from '#functions/passkeys/routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { reauthenticateWithPasskey } from '#shared/passkeys/sign-in.ts';

export const handler = httpHandler(
  passkeyRoutes.reauthenticateWithPasskey,
  ({ tenant, auth, body, client }, deps) => reauthenticateWithPasskey(deps, tenant, auth, body.credential, client),
  { authenticators: userAuthenticators },
);
