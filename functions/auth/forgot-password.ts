// POST /auth/forgot-password: tenant headers; { email } → 202 { challengeId } (same for unknown e-mail)
import { authRoutes } from '#functions/auth/routes.ts';
import { forgotPassword } from '#shared/auth/forgot-password.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { sesMailerFor } from '#shared/mail/ses-mailer.ts';

export const handler = httpHandler(
  authRoutes.forgotPassword,
  ({ tenant, body, client }, deps) => forgotPassword(deps, tenant, body.email, client),
  { mailer: sesMailerFor },
);
