// GET /users/me/sessions: bearer → SessionResponse[]
import { userRoutes } from '#functions/users/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { userPrincipal } from '#shared/auth/principal.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { listMySessions } from '#shared/sessions/list-sessions.ts';

export const handler = httpHandler(
  userRoutes.listMySessions,
  ({ tenant, auth }, deps) => listMySessions(deps, tenant, userPrincipal(auth)),
  { authenticators: identityAuthenticators },
);
