// GET /users/{id}: admin → AdminUserResponse (the UserResponse and its mail suppression)
import { adminUserRoutes } from '#functions/users/admin-routes.ts';
import { getUser } from '#shared/admin/users.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  adminUserRoutes.getUser,
  ({ tenant, params }, deps) => getUser(deps, tenant, params.id),
  { authenticators: identityAuthenticators },
);
