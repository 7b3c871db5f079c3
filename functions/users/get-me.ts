// GET /users/me: bearer → UserResponse
import { userRoutes } from '#functions/users/routes.ts';
import { getMe } from '#shared/account/me.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { withDirectReadsDeps } from '#shared/deps.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(userRoutes.getMe, ({ tenant, auth }, deps) => getMe(deps, tenant, auth), {
  authenticators: userAuthenticators,
  depsForRoute: withDirectReadsDeps,
});
