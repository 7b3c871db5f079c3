import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { INVITATION_TTL_MS } from '../lifetimes.ts';
import { type Invitation, invitationRepo } from '../store/invitation-repo.ts';
import type { TenantRef } from '../store/keys.ts';
import { createUser, newUser } from '../users/new-user.ts';
import { hashToken, newOpaqueToken } from './codes.ts';

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
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS).toISOString();
  const user = await newUser(deps, tenant, {
    email,
    status: 'INVITED',
    // The invitation mail is the validation: VALIDATION_SENT for as long as the invitation is good.
    emailStatus: 'VALIDATION_SENT',
    emailValidationExpiresAt: expiresAt,
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
  });
  const invitation = invitationRepo(deps.store).putItem(tenant, hashToken(invitationToken), {
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

/** The invitation a token names, if it is still good (unused, unexpired) for this e-mail. */
export async function findUsableInvitation(
  deps: Deps,
  tenant: TenantRef,
  token: string,
  email: string,
): Promise<(Invitation & { tokenHash: string }) | null> {
  const tokenHash = hashToken(token);
  const invitation = await invitationRepo(deps.store).get(tenant, tokenHash);
  if (!invitation || invitation.usedAt || invitation.email !== email) return null;
  if (Date.parse(invitation.expiresAt) <= deps.clock.now().getTime()) return null;
  return { ...invitation, tokenHash };
}
