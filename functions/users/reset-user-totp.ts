// DELETE /users/{id}/totp: admin → 204 (TOTP off, recorded as TOTP_DISABLED by the admin)
import { adminUserRoutes } from '#functions/users/admin-routes.ts';
import { resetUserTotp } from '#shared/admin/users.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  adminUserRoutes.resetUserTotp,
  ({ tenant, auth, params, client }, deps) => resetUserTotp(deps, tenant, auth, params.id, client),
  { authenticators: identityAuthenticators },
);
