// DELETE /users/me/sessions/{sessionId}: bearer → 204
import { userRoutes } from '#functions/users/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { userPrincipal } from '#shared/auth/principal.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { revokeMySession } from '#shared/sessions/revoke-sessions.ts';

export const handler = httpHandler(
  userRoutes.revokeMySession,
  ({ tenant, auth, params, request }, deps) =>
    revokeMySession(deps, tenant, userPrincipal(auth), params.sessionId, {
      ip: request.sourceIp,
      userAgent: request.userAgent,
    }),
  { authenticators: identityAuthenticators },
);
