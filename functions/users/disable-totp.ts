// POST /users/me/totp/disable: bearer; { code } → 204 (TOTP off)
import { userRoutes } from '#functions/users/routes.ts';
import { disableTotp } from '#shared/account/totp-enrolment.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  userRoutes.disableTotp,
  ({ tenant, auth, body, client }, deps) => disableTotp(deps, tenant, auth, body.code, client),
  { authenticators: userAuthenticators },
);
