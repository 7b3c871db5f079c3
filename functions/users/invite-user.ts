// POST /users/invitations: admin; { email, firstName?, lastName? } → 201 { userId, status: "INVITED" }
import { adminUserRoutes } from '#functions/users/admin-routes.ts';
import { inviteUser } from '#shared/admin/users.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { sesMailerFor } from '#shared/mail/ses-mailer.ts';

export const handler = httpHandler(
  adminUserRoutes.inviteUser,
  ({ tenant, auth, body, client }, deps) => inviteUser(deps, tenant, auth, body, client),
  { authenticators: identityAuthenticators, mailer: sesMailerFor },
);
