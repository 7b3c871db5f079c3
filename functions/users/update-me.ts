// PATCH /users/me: bearer; UpdateUserRequest → UserResponse
import { userRoutes } from '#functions/users/routes.ts';
import { updateMe } from '#shared/account/me.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  userRoutes.updateMe,
  ({ tenant, auth, body, client }, deps) => updateMe(deps, tenant, auth, body, client),
  { authenticators: userAuthenticators },
);
