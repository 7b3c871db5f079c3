// POST /roles: admin; CreateRoleRequest → 201 RoleResponse
import { roleRoutes } from '#functions/roles/routes.ts';
import { createRole } from '#shared/admin/roles.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  roleRoutes.createRole,
  ({ tenant, auth, body }, deps) => createRole(deps, tenant, auth, body),
  { authenticators: identityAuthenticators },
);
