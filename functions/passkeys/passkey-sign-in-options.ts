// POST /auth/passkeys/options: tenant headers; { email? } → { options }
import { passkeyRoutes } from '#functions/passkeys/routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { passkeySignInOptions } from '#shared/passkeys/sign-in.ts';

export const handler = httpHandler(passkeyRoutes.passkeySignInOptions, ({ tenant, body, client }, deps) =>
  passkeySignInOptions(deps, tenant, body.email, client),
);
