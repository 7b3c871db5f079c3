// POST /auth/providers/sign-in: tenant headers; { result, codeVerifier } → tokens, the TOTP step, or linkRequired
import { signInProviderRoutes } from '#functions/sign-in-providers/routes.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { signInWithProvider } from '#shared/sign-in-providers/flow.ts';

export const handler = httpHandler(signInProviderRoutes.signInWithProvider, async ({ tenant, body, client }, deps) => ({
  success: true as const,
  data: await signInWithProvider(deps, tenant, body, client),
}));
