// POST /auth/login: tenant headers; { email, password?, loginMode? } → ApiResponse LoginResponse
import { authRoutes } from '#functions/auth/routes.ts';
import { login, loginPrefetch } from '#shared/auth/login.ts';
import { withDirectReadsDeps } from '#shared/deps.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { sesMailerFor } from '#shared/mail/ses-mailer.ts';

export const handler = httpHandler(
  authRoutes.login,
  async ({ tenant, body, client }, deps) => ({
    success: true as const,
    data: await login(deps, tenant, body, client),
  }),
  { mailer: sesMailerFor, prefetch: loginPrefetch, depsForRoute: withDirectReadsDeps },
);
