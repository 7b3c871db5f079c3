// POST /roles/revoke: admin; { userId, roleId, app?, mid? } → 204
import { roleRoutes } from '#functions/roles/routes.ts';
import { revokeRole } from '#shared/admin/roles.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  roleRoutes.revokeRole,
  ({ tenant, auth, body, client }, deps) => revokeRole(deps, tenant, auth, body, client),
  { authenticators: identityAuthenticators },
);
