// DELETE /users/{id}: admin → 204 (every item of the user removed; an audit record stays)
import { adminUserRoutes } from '#functions/users/admin-routes.ts';
import { deleteUser } from '#shared/admin/users.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  adminUserRoutes.deleteUser,
  ({ tenant, auth, params, client }, deps) => deleteUser(deps, tenant, auth, params.id, client),
  { authenticators: identityAuthenticators },
);
