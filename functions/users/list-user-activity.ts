// GET /users/{id}/activity?limit=&cursor=: admin → { items, nextCursor } newest first
import { adminUserRoutes } from '#functions/users/admin-routes.ts';
import { listUserActivity } from '#shared/admin/users.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  adminUserRoutes.listUserActivity,
  ({ tenant, params, query }, deps) => listUserActivity(deps, tenant, params.id, query),
  { authenticators: identityAuthenticators },
);
