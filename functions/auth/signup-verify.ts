// POST /auth/signup/verify: tenant headers; { challengeId, code } → ApiResponse LoginResponse
import { authRoutes } from '#functions/auth/routes.ts';
import { verifySignup } from '#shared/auth/signup-verify.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(authRoutes.signupVerify, async ({ tenant, body, client }, deps) => ({
  success: true as const,
  data: await verifySignup(deps, tenant, body, client),
}));
