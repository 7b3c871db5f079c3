// POST /auth/passkeys/sign-in: tenant headers; { credential } → ApiResponse TokensResponse
import { passkeyRoutes } from '#functions/passkeys/routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { signInWithPasskey } from '#shared/passkeys/sign-in.ts';

export const handler = httpHandler(passkeyRoutes.signInWithPasskey, async ({ tenant, body, client }, deps) => ({
  success: true as const,
  data: await signInWithPasskey(deps, tenant, body.credential, client),
}));
