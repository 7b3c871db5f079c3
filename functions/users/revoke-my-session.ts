// DELETE /users/me/sessions/{sessionId}: bearer → 204
import { userRoutes } from '#functions/users/routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { revokeMySession } from '#shared/sessions/revoke-sessions.ts';

export const handler = httpHandler(
  userRoutes.revokeMySession,
  ({ tenant, auth, params, client }, deps) => revokeMySession(deps, tenant, auth, params.sessionId, client),
  { authenticators: userAuthenticators },
);
