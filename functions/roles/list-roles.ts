// GET /roles: admin → RoleResponse[]
import { roleRoutes } from '#functions/roles/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { listRoles } from '#shared/roles/service.ts';

export const handler = httpHandler(roleRoutes.listRoles, ({ tenant }, deps) => listRoles(deps, tenant), {
  authenticators: identityAuthenticators,
});
