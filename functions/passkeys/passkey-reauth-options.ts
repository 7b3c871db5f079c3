// POST /auth/reauthenticate/passkey/options: bearer → { options }
import { passkeyRoutes } from '#functions/passkeys/routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { passkeyReauthOptions } from '#shared/passkeys/sign-in.ts';

export const handler = httpHandler(
  passkeyRoutes.passkeyReauthOptions,
  ({ tenant, auth, client }, deps) => passkeyReauthOptions(deps, tenant, auth, client),
  { authenticators: userAuthenticators },
);
