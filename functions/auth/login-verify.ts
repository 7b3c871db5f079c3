// POST /auth/login/verify: tenant headers; { challengeId, code } → ApiResponse LoginResponse
import { authRoutes } from '#functions/auth/routes.ts';
import { verifyLogin, verifyLoginPrefetch } from '#shared/auth/login-verify.ts';
import { withDirectReadsDeps } from '#shared/deps.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  authRoutes.loginVerify,
  async ({ tenant, body, client }, deps) => ({
    success: true as const,
    data: await verifyLogin(deps, tenant, body, client),
  }),
  { prefetch: verifyLoginPrefetch, depsForRoute: withDirectReadsDeps },
);
