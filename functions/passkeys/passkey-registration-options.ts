// POST /users/me/passkeys/options: bearer → { options }
import { passkeyRoutes } from '#functions/passkeys/routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { passkeyRegistrationOptions } from '#shared/passkeys/registration.ts';

export const handler = httpHandler(
  passkeyRoutes.passkeyRegistrationOptions,
  ({ tenant, auth }, deps) => passkeyRegistrationOptions(deps, tenant, auth),
  { authenticators: userAuthenticators },
);
