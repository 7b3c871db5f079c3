// GET /users: admin → UserResponse[] (every user of the tenant)
import { adminUserRoutes } from '#functions/users/admin-routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { listUsers } from '#shared/users/admin.ts';

export const handler = httpHandler(adminUserRoutes.listUsers, ({ tenant }, deps) => listUsers(deps, tenant), {
  authenticators: identityAuthenticators,
});
