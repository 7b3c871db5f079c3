// DELETE /users/{id}/mail-suppression: admin → 204 (mail reaches the user's address again)
import { adminUserRoutes } from '#functions/users/admin-routes.ts';
import { clearMailSuppression } from '#shared/admin/users.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  adminUserRoutes.clearMailSuppression,
  ({ tenant, auth, params }, deps) => clearMailSuppression(deps, tenant, auth, params.id),
  { authenticators: identityAuthenticators },
);
