// POST /users/{id}/invitation: admin → 200 { userId, expiresAt } (the INVITED user's invitation mailed again, a new link)
import { adminUserRoutes } from '#functions/users/admin-routes.ts';
import { resendInvitation } from '#shared/admin/user-mail.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { sesMailerFor } from '#shared/mail/ses-mailer.ts';

export const handler = httpHandler(
  adminUserRoutes.resendInvitation,
  ({ tenant, auth, params }, deps) => resendInvitation(deps, tenant, auth, params.id),
  { authenticators: identityAuthenticators, mailer: sesMailerFor },
);
