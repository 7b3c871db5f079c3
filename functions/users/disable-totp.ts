// POST /users/me/totp/disable: bearer; { code } → 204 (TOTP off)
import { userRoutes } from '#functions/users/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { userPrincipal } from '#shared/auth/principal.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { disableTotp } from '#shared/users/totp-enrolment.ts';

export const handler = httpHandler(
  userRoutes.disableTotp,
  ({ tenant, auth, body, request }, deps) =>
    disableTotp(deps, tenant, userPrincipal(auth), body.code, { ip: request.sourceIp, userAgent: request.userAgent }),
  { authenticators: identityAuthenticators },
);
