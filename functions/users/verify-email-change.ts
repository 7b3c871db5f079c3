// POST /users/me/email-change/verify: bearer; { challengeId, code } → { challengeId, type: "EMAIL", status: "COMPLETED" }
import { userRoutes } from '#functions/users/routes.ts';
import { verifyEmailChange } from '#shared/account/email-change.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { sesMailerFor } from '#shared/mail/ses-mailer.ts';

export const handler = httpHandler(
  userRoutes.verifyEmailChange,
  ({ tenant, auth, body, client }, deps) => verifyEmailChange(deps, tenant, auth, body, client),
  { authenticators: userAuthenticators, mailer: sesMailerFor },
);
