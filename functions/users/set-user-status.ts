// PATCH /users/{id}/status: admin; { status } → UserResponse
import { adminUserRoutes } from '#functions/users/admin-routes.ts';
import { setUserStatus } from '#shared/admin/users.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  adminUserRoutes.setUserStatus,
  ({ tenant, auth, params, body, client }, deps) => setUserStatus(deps, tenant, auth, params.id, body.status, client),
  { authenticators: identityAuthenticators },
);
