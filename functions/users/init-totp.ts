// POST /users/me/totp/init: bearer → TotpSetupResponse { qrUri, backupCodes }
import { userRoutes } from '#functions/users/routes.ts';
import { initTotp } from '#shared/account/totp-enrolment.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(userRoutes.initTotp, ({ tenant, auth }, deps) => initTotp(deps, tenant, auth), {
  authenticators: userAuthenticators,
});
