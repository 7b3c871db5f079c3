// POST /auth/reauthenticate: bearer; { password, totpCode? } → 204, or { loginMode: "OTP_EMAIL" } → 200 { challengeId }, then { challengeId, code, totpCode? } → 204
import { authRoutes } from '#functions/auth/routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { reauthenticate } from '#shared/auth/reauthenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { sesMailerFor } from '#shared/mail/ses-mailer.ts';

export const handler = httpHandler(
  authRoutes.reauthenticate,
  ({ tenant, auth, body, client }, deps) => reauthenticate(deps, tenant, auth, body, client),
  { authenticators: userAuthenticators, mailer: sesMailerFor },
);
