// POST /users/me/email-change/verify: bearer; { challengeId, code } → { challengeId, type: "EMAIL", status: "COMPLETED" }
import { userRoutes } from '#functions/users/routes.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { sesMailerFor } from '#shared/mail/ses-mailer.ts';
import { verifyEmailChange } from '#shared/users/email-change.ts';

export const handler = httpHandler(
  userRoutes.verifyEmailChange,
  ({ tenant, auth, body, client }, deps) => verifyEmailChange(deps, tenant, auth, body, client),
  { authenticators: userAuthenticators, mailer: sesMailerFor },
);
