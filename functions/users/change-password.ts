// POST /users/me/password: bearer; { currentPassword, newPassword, totpCode? } → 204; other sessions revoked
import { userRoutes } from '#functions/users/routes.ts';
import { changePassword } from '#shared/account/change-password.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { sesMailerFor } from '#shared/mail/ses-mailer.ts';

export const handler = httpHandler(
  userRoutes.changePassword,
  ({ tenant, auth, body, client }, deps) => changePassword(deps, tenant, auth, body, client),
  { authenticators: userAuthenticators, mailer: sesMailerFor },
);
