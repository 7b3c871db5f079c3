import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { INVITATION_TTL_MS } from '../lifetimes.ts';
import { type Invitation, invitationRepo } from '../store/invitation-repo.ts';
import type { TenantRef } from '../store/keys.ts';
import { transact } from '../store/transact.ts';
import { userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { createUser, newUser } from '../users/new-user.ts';
import type { User } from '../users/types.ts';
import { hashToken, newOpaqueToken } from './codes.ts';
import { enforceRateLimit } from './guards.ts';
import type { InvitationResponse } from './schemas.ts';
import { withRefusalFloor } from './timing.ts';

/**
 * Invites a user: an INVITED user with its e-mail claim, and an invitation
 * found by the hash of its token (`inv_…`, 256 bits); the token itself is
 * returned once, for the invitation mail, and never stored.
 */
export async function createInvitation(
  deps: Deps,
  tenant: TenantRef,
  input: {
    email: string;
    firstName?: string | null;
    lastName?: string | null;
    invitedBy: string;
    inviterName?: string | null;
  },
): Promise<{ userId: string; invitationToken: string; expiresAt: string }> {
  const now = deps.clock.now();
  // Signup compares the normalised address: an invitation must be made out to the same form.
  const email = input.email.trim().toLowerCase();
  const invitationToken = `inv_${newOpaqueToken()}`;
  const tokenHash = hashToken(invitationToken);
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS).toISOString();
  const user = await newUser(deps, tenant, {
    email,
    status: 'INVITED',
    // The invitation mail is the validation: VALIDATION_SENT for as long as the invitation is good.
    emailStatus: 'VALIDATION_SENT',
    emailValidationExpiresAt: expiresAt,
    // The profile names its invitation: a resend names a new one, and the earlier link stops working.
    invitationHash: tokenHash,
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
  });
  const invitation = invitationRepo(deps.store).putItem(tenant, tokenHash, {
    userId: user.id,
    email: user.email,
    invitedBy: input.invitedBy,
    inviterName: input.inviterName ?? null,
    createdAt: now.toISOString(),
    expiresAt,
    usedAt: null,
  });
  if ((await createUser(deps, tenant, user, [invitation])) === 'EMAIL_TAKEN') {
    throw fail('ALREADY_EXISTS', 'a user with this e-mail exists');
  }
  return { userId: user.id, invitationToken, expiresAt };
}

/** The invitation a token names, if it is still good: unused and unexpired. */
async function findOpenInvitation(
  deps: Deps,
  tenant: TenantRef,
  token: string,
): Promise<(Invitation & { tokenHash: string }) | null> {
  // Found by the hash alone: the token is never stored, and a table read yields nothing to present.
  const tokenHash = hashToken(token);
  const invitation = await invitationRepo(deps.store).get(tenant, tokenHash);
  if (!invitation || invitation.usedAt) return null;
  if (Date.parse(invitation.expiresAt) <= deps.clock.now().getTime()) return null;
  return { ...invitation, tokenHash };
}

/**
 * Whether the invitation of `tokenHash` is the one `invited` was last sent: the profile names it
 * (`invitationHash`), so a resend, which names its new one, ends the earlier link. A profile stored before
 * it was named takes any of its invitations. Only an INVITED user at the invitation's address has one.
 */
function isCurrentInvitation(invitation: Invitation & { tokenHash: string }, invited: User | null): invited is User {
  return (
    invited?.status === 'INVITED' &&
    invited.email === invitation.email &&
    (invited.invitationHash === null || invited.invitationHash === invitation.tokenHash)
  );
}

/**
 * The invitation a token names, if it is still good (unused, unexpired, not replaced by a resend) for this
 * e-mail, with the invited user's profile as read (the acceptance is conditional on it).
 */
export async function findUsableInvitation(
  deps: Deps,
  tenant: TenantRef,
  token: string,
  email: string,
): Promise<(Invitation & { tokenHash: string; invited: User }) | null> {
  const invitation = await findOpenInvitation(deps, tenant, token);
  if (invitation?.email !== email) return null;
  const invited = await userRepo(deps.store).get(tenant, invitation.userId);
  return isCurrentInvitation(invitation, invited) ? { ...invitation, invited } : null;
}

/**
 * A new invitation for a user still INVITED (POST /users/{id}/invitation): a new token, seven days from now,
 * named by the profile in the same transaction (its `invitationHash`, and the address's validation lapsing
 * with it), which makes it the user's current invitation: the earlier link stops working. The token is
 * returned once, for the mail; `undo` takes it back (the earlier invitation works again) when the mail cannot
 * go out. Null when the user is no longer INVITED, or another resend named its own invitation meanwhile.
 */
export async function renewInvitation(
  deps: Deps,
  tenant: TenantRef,
  invited: User,
  by: { invitedBy: string; inviterName: string | null },
): Promise<{ invitationToken: string; expiresAt: string; undo(): Promise<void> } | null> {
  const now = deps.clock.now();
  const invitationToken = `inv_${newOpaqueToken()}`;
  const tokenHash = hashToken(invitationToken);
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS).toISOString();
  const before = invited.invitationHash;
  // As read: a profile stored before invitations were named has no name to compare (the attribute is absent).
  const asRead = { status: 'INVITED' as const, ...(before === null ? {} : { invitationHash: before }) };
  const failed = await transact(deps.store, {
    invitation: invitationRepo(deps.store).putItem(tenant, tokenHash, {
      userId: invited.id,
      email: invited.email,
      invitedBy: by.invitedBy,
      inviterName: by.inviterName,
      createdAt: now.toISOString(),
      expiresAt,
      usedAt: null,
    }),
    user: userRepo(deps.store).updateItem(
      tenant,
      invited.id,
      { invitationHash: tokenHash, emailStatus: 'VALIDATION_SENT', emailValidationExpiresAt: expiresAt },
      asRead,
    ),
  });
  if (failed.size > 0) return null;
  return {
    invitationToken,
    expiresAt,
    async undo() {
      await transact(deps.store, {
        invitation: invitationRepo(deps.store).deleteItem(tenant, tokenHash),
        user: userRepo(deps.store).updateItem(
          tenant,
          invited.id,
          {
            invitationHash: before,
            emailStatus: invited.emailStatus,
            emailValidationExpiresAt: invited.emailValidationExpiresAt,
          },
          { status: 'INVITED', invitationHash: tokenHash },
        ),
      });
    },
  };
}

/**
 * POST /auth/invitations/lookup: what an invitation link opens on, before any form: the tenant, the invited
 * address, the names the admin typed, who invited and until when. A token that is unknown, another tenant's,
 * used, expired or withdrawn (withdrawing deletes the invited user) answers one 404 NOT_FOUND, the same body for
 * each (a link a resend replaced too): none of them tells the caller more than that this token opens nothing. Counted in the per-IP limit of the
 * other public auth requests.
 */
export async function lookupInvitation(
  deps: Deps,
  tenant: Merchant,
  token: string,
  client: ClientInfo,
): Promise<InvitationResponse> {
  // The refusals take different reads (none past an unknown token, the profile past a withdrawn one): each answers
  // no sooner than the answer floor. A good token answers at once: its answer tells its holder that much anyway.
  return withRefusalFloor(deps.config.answerFloorMs, async () => {
    await enforceRateLimit(deps, tenant, client.ip);
    const invitation = await findOpenInvitation(deps, tenant, token);
    const invited = invitation ? await userRepo(deps.store).get(tenant, invitation.userId) : null;
    if (!invitation || !isCurrentInvitation(invitation, invited)) {
      // A link a resend replaced counts as withdrawn: the one body of every dead link.
      throw fail('NOT_FOUND', 'no open invitation has this token: it is unknown, used, withdrawn or expired');
    }
    return {
      tenantName: tenant.name,
      email: invitation.email,
      firstName: invited.firstName,
      lastName: invited.lastName,
      inviterName: invitation.inviterName,
      expiresAt: invitation.expiresAt,
    };
  });
}
