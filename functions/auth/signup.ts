// POST /auth/signup: tenant headers; SignupRequest → 201 ApiResponse { challengeId } | null
import { authRoutes } from '#functions/auth/routes.ts';
import { signup } from '#shared/auth/signup.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { sesMailerFor } from '#shared/mail/ses-mailer.ts';

export const handler = httpHandler(
  authRoutes.signup,
  async ({ tenant, body, client }, deps) => ({
    success: true as const,
    data: await signup(deps, tenant, body, client),
  }),
  { mailer: sesMailerFor },
);
