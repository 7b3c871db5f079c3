// POST /auth/invitations/lookup: tenant headers; { invitationToken } → 200 InvitationResponse | 404 NOT_FOUND
import { authRoutes } from '#functions/auth/routes.ts';
import { lookupInvitation } from '#shared/auth/invitations.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler(authRoutes.lookupInvitation, ({ tenant, body, client }, deps) =>
  lookupInvitation(deps, tenant, body.invitationToken, client),
);
