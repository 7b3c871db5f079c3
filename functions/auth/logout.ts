// DELETE /auth/logout: bearer → 204; the session ends at once
import { authRoutes } from '#functions/auth/routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { logout } from '#shared/auth/logout.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  authRoutes.logout,
  ({ tenant, auth, client }, deps) => logout(deps, tenant, auth, client),
  { authenticators: userAuthenticators },
);
