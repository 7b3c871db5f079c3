// POST /sessions/revoke-all: bearer → 204 (the current session too)
import { sessionRoutes } from '#functions/sessions/routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { revokeAllMySessions } from '#shared/sessions/revoke-sessions.ts';

export const handler = httpHandler(
  sessionRoutes.revokeAllSessions,
  ({ tenant, auth, client }, deps) => revokeAllMySessions(deps, tenant, auth, client),
  { authenticators: userAuthenticators },
);
