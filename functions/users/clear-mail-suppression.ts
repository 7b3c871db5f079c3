// DELETE /users/{id}/mail-suppression: admin → 204 (mail reaches the user's address again)
import { adminUserRoutes } from '#functions/users/admin-routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { clearMailSuppression } from '#shared/users/admin.ts';

export const handler = httpHandler(
  adminUserRoutes.clearMailSuppression,
  ({ tenant, auth, params }, deps) => clearMailSuppression(deps, tenant, auth, params.id),
  { authenticators: identityAuthenticators },
);
