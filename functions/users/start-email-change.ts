// POST /users/me/email-change: bearer; { newEmail } → { challengeId } (the code goes to the new address)
import { userRoutes } from '#functions/users/routes.ts';
import { requestEmailChange } from '#shared/account/email-change.ts';
import { userAuthenticators } from '#shared/auth/authenticate.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { sesMailerFor } from '#shared/mail/ses-mailer.ts';

export const handler = httpHandler(
  userRoutes.startEmailChange,
  ({ tenant, auth, body, client }, deps) => requestEmailChange(deps, tenant, auth, body.newEmail, client),
  { authenticators: userAuthenticators, mailer: sesMailerFor },
);
