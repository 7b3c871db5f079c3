// GET /users/me/sessions: bearer → SessionResponse[]
import { userRoutes } from '#functions/users/routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { listMySessions } from '#shared/sessions/list-sessions.ts';

export const handler = httpHandler(
  userRoutes.listMySessions,
  ({ tenant, auth }, deps) => listMySessions(deps, tenant, auth),
  { authenticators: userAuthenticators },
);
