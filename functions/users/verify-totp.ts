// POST /users/me/totp/verify: bearer; { code } → 204 (TOTP on)
import { userRoutes } from '#functions/users/routes.ts';
import { verifyTotp } from '#shared/account/totp-enrolment.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(
  userRoutes.verifyTotp,
  ({ tenant, auth, body, client }, deps) => verifyTotp(deps, tenant, auth, body.code, client),
  { authenticators: userAuthenticators },
);
