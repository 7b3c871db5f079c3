// POST /auth/reset-password: tenant headers; { challengeId, code, newPassword } → 204; all sessions revoked
import { authRoutes } from '#functions/auth/routes.ts';
import { resetPassword } from '#shared/auth/reset-password.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { sesMailerFor } from '#shared/mail/ses-mailer.ts';

export const handler = httpHandler(
  authRoutes.resetPassword,
  ({ tenant, body, client }, deps) => resetPassword(deps, tenant, body, client),
  { mailer: sesMailerFor },
);
