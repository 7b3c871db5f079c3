// GET /users: admin → UserResponse[] (every user of the tenant), gzipped when the client accepts it
import { adminUserRoutes } from '#functions/users/admin-routes.ts';
import { listUsers } from '#shared/admin/users.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { gzipLargeAnswer } from '#shared/http/gzip-answer.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(adminUserRoutes.listUsers, ({ tenant }, deps) => listUsers(deps, tenant), {
  authenticators: identityAuthenticators,
  encodeAnswer: gzipLargeAnswer,
});
