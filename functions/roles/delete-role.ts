// DELETE /roles/{id}: admin → 204; SYSTEM role → 403
import { roleRoutes } from '#functions/roles/routes.ts';
import { deleteRole } from '#shared/admin/roles.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  roleRoutes.deleteRole,
  ({ tenant, auth, params }, deps) => deleteRole(deps, tenant, auth, params.id),
  { authenticators: identityAuthenticators },
);
