// POST /users/me/email-change/verify: bearer; { challengeId, code } → { challengeId, type: "EMAIL", status: "COMPLETED" }
import { userRoutes } from '#functions/users/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { userPrincipal } from '#shared/auth/principal.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { sesMailerFor } from '#shared/mail/ses-mailer.ts';
import { verifyEmailChange } from '#shared/users/email-change.ts';

export const handler = httpHandler(
  userRoutes.verifyEmailChange,
  ({ tenant, auth, body, request }, deps) =>
    verifyEmailChange(deps, tenant, userPrincipal(auth), body, { ip: request.sourceIp, userAgent: request.userAgent }),
  { authenticators: identityAuthenticators, mailer: sesMailerFor },
);
