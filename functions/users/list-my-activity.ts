// GET /users/me/activity?limit=&cursor=: bearer → the caller's own { items, nextCursor } newest first
import { myActivityRoutes } from '#functions/users/my-activity-routes.ts';
import { listMyActivity } from '#shared/activity/page.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  myActivityRoutes.listMyActivity,
  ({ tenant, auth, query }, deps) => listMyActivity(deps, tenant, auth, query),
  { authenticators: userAuthenticators },
);
