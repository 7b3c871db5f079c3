// POST /roles/assign: admin; AssignRoleRequest → 204
import { roleRoutes } from '#functions/roles/routes.ts';
import { assignRole } from '#shared/admin/roles.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  roleRoutes.assignRole,
  ({ tenant, auth, body, client }, deps) => assignRole(deps, tenant, auth, body, client),
  { authenticators: identityAuthenticators },
);
