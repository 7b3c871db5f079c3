// GET /roles: admin → RoleResponse[]
import { roleRoutes } from '#functions/roles/routes.ts';
import { listRoles } from '#shared/admin/roles.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(roleRoutes.listRoles, ({ tenant }, deps) => listRoles(deps, tenant), {
  authenticators: identityAuthenticators,
});
