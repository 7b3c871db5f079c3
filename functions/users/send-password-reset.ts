// POST /users/{id}/password-reset: admin → 204 (a reset code mailed to the user, with a link that works in any browser)
import { adminUserRoutes } from '#functions/users/admin-routes.ts';
import { sendPasswordReset } from '#shared/admin/user-mail.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { sesMailerFor } from '#shared/mail/ses-mailer.ts';

export const handler = httpHandler(
  adminUserRoutes.sendPasswordReset,
  ({ tenant, auth, params }, deps) => sendPasswordReset(deps, tenant, auth, params.id),
  { authenticators: identityAuthenticators, mailer: sesMailerFor },
);
