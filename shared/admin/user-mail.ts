import { openCodeChallenge } from '../auth/challenges.ts';
import { renewInvitation } from '../auth/invitations.ts';
import type { Principal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { tenantDefaultLanguage } from '../i18n/languages.ts';
import { actorIdOf, assertMayActOnUser } from '../roles/authority.ts';
import { challengeRepo } from '../store/challenge-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { targetUser } from '../users/lookup.ts';
import { inviterNameOf, mailForAdmin } from './admin-mail.ts';

/**
 * POST /users/{id}/invitation: the invitation of a user still INVITED, sent again with a new link (in the tenant's
 * language, as the first invitation: the invited person has sent no request to tell theirs), good for seven
 * days from now; the earlier link stops working (the profile names the invitation last sent). Acting on the user,
 * by the rules of every admin action on users; no recent sign-in is asked: the mail goes to the invited address
 * only, and gives the admin nothing. 409 CONFLICT when the user is not INVITED (accepted, or never invited).
 */
export async function resendInvitation(deps: Deps, tenant: Merchant, principal: Principal, id: string) {
  const target = await targetUser(deps, tenant, id);
  assertMayActOnUser(principal, target, deps.clock.now());
  if (target.status !== 'INVITED') throw fail('CONFLICT', 'the user is not invited: there is no invitation to send');
  const inviterName = await inviterNameOf(deps, tenant, principal);
  const renewed = await renewInvitation(deps, tenant, target, { invitedBy: actorIdOf(principal), inviterName });
  if (!renewed) throw fail('CONFLICT', 'the user changed meanwhile; try again');
  const mail = {
    kind: 'INVITATION',
    invitationToken: renewed.invitationToken,
    inviterName,
    expiresAt: renewed.expiresAt,
  } as const;
  try {
    await mailForAdmin(deps, tenant, target.email, mail, 'the invitation mail', tenantDefaultLanguage(tenant));
  } catch (error) {
    // No mail, no new link: the earlier one works again.
    await renewed.undo();
    throw error;
  }
  return { userId: target.id, expiresAt: renewed.expiresAt };
}

/** Who may be sent a reset: as forgot-password serves (a COMPROMISED user's reset is how they sign in again). */
const MAY_RESET = new Set(['ACTIVE', 'COMPROMISED']);

/**
 * POST /users/{id}/password-reset: mails the user a password reset code, as forgot-password would, with a link
 * that works in any browser (it carries the challenge the code answers). Nothing changes until the user sets a
 * new password with it; the admin never sees the code. Acting on the user, by the rules of every admin action on
 * users; no recent sign-in is asked (anyone may ask for a reset of any address). Its mail counts with the
 * owner's own reset mails; it is written in the tenant's language (the user sent no request). 409 CONFLICT for a user who cannot reset (invited, disabled, not verified).
 */
export async function sendPasswordReset(deps: Deps, tenant: Merchant, principal: Principal, id: string) {
  const target = await targetUser(deps, tenant, id);
  assertMayActOnUser(principal, target, deps.clock.now());
  if (!MAY_RESET.has(target.status)) {
    throw fail('CONFLICT', 'only an active or compromised user can reset a password');
  }
  const opened = await openCodeChallenge(deps, tenant, {
    type: 'PASSWORD_RESET',
    userId: target.id,
    email: target.email,
  });
  const mail = { kind: 'PASSWORD_RESET_BY_ADMIN', code: opened.code, challengeId: opened.challenge.id } as const;
  try {
    await mailForAdmin(deps, tenant, target.email, mail, 'the password reset mail', tenantDefaultLanguage(tenant));
  } catch (error) {
    // The code never arrived: it must not work.
    await challengeRepo(deps.store).delete(tenant, opened.challenge.id);
    throw error;
  }
}
