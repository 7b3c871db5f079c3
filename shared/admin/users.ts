import { type ActivityPageQuery, activityPageOf } from '../activity/page.ts';
import { type ActivityType, activityItem, recordActivity } from '../activity/record.ts';
import { hashToken } from '../auth/codes.ts';
import { createInvitation } from '../auth/invitations.ts';
import type { Principal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { tenantDefaultLanguage } from '../i18n/languages.ts';
import { describeError } from '../log.ts';
import { newId } from '../random.ts';
import { actorIdOf, assertMayActOnUser, refusalOfActor, superAdminActorCheck } from '../roles/authority.ts';
import { requireRecentSession } from '../sessions/recent-authentication.ts';
import { activityRepo } from '../store/activity-repo.ts';
import type { EpochBump } from '../store/credential-epoch.ts';
import { invitationRepo } from '../store/invitation-repo.ts';
import { mailSuppressionRepo } from '../store/mail-suppression-repo.ts';
import { transact } from '../store/transact.ts';
import { userAdminRepo } from '../store/user-admin-repo.ts';
import { isExpiredSignup, userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import type { AdminUserResponse } from '../users/admin-schemas.ts';
import { targetUser } from '../users/lookup.ts';
import { toUserResponse } from '../users/view.ts';
import { inviterNameOf, mailForAdmin } from './admin-mail.ts';

/**
 * GET /users: the whole tenant in one answer, from a Query on the users
 * index (never a Scan), page after page. See README (Administration) for how
 * far one answer goes before Lambda's 6 MB response limit.
 */
export async function listUsers(deps: Deps, tenant: Merchant) {
  const now = deps.clock.now();
  // Signups never verified drop out after 24 h (anonymous signups would otherwise grow the
  // list without bound); the index projects `status` and `registeredAt`, which is all isExpiredSignup reads.
  return (await userAdminRepo(deps.store).listAll(tenant))
    .filter((user) => !isExpiredSignup(user, now))
    .map((user) => toUserResponse(user, now));
}

/**
 * GET /users/{id}: the user, and whether mail to their address is suppressed (a hard bounce or a
 * complaint SES reported, until an admin clears it). Read consistent: a clearing just made shows.
 */
export async function getUser(deps: Deps, tenant: Merchant, id: string): Promise<AdminUserResponse> {
  const user = await targetUser(deps, tenant, id);
  const mailSuppression = await mailSuppressionRepo(deps.store).get(tenant, user.email, { consistent: true });
  return { ...toUserResponse(user, deps.clock.now()), mailSuppression, passkeyCount: user.passkeyCount };
}

/**
 * DELETE /users/{id}/mail-suppression: mail reaches the user's address again, until SES reports a new hard
 * bounce or complaint for it. Acting on the user, by the rules of every admin action on users (a caller of
 * strictly higher authority, never on themselves). 204 whether or not mail was suppressed.
 */
export async function clearMailSuppression(deps: Deps, tenant: Merchant, principal: Principal, id: string) {
  const target = await targetUser(deps, tenant, id);
  const now = deps.clock.now();
  assertMayActOnUser(principal, target, now);
  const actorId = actorIdOf(principal);
  if (await mailSuppressionRepo(deps.store).clear(tenant, target.email, actorId, now)) {
    deps.log.info('mail suppression cleared', { userId: target.id, actorId });
  }
}

const STATUS_ACTIVITY: Record<'ACTIVE' | 'DISABLED' | 'COMPROMISED', ActivityType> = {
  ACTIVE: 'USER_ENABLED',
  DISABLED: 'USER_DISABLED',
  COMPROMISED: 'USER_COMPROMISED',
};

/**
 * PATCH /users/{id}/status: disabling or flagging a user ends every session at
 * once. On a SUPER_ADMIN, the actor is checked in the same transaction
 * (superAdminActorCheck): of two SUPER_ADMINs disabling each other at once,
 * the second is refused.
 */
export async function setUserStatus(
  deps: Deps,
  tenant: Merchant,
  principal: Principal,
  id: string,
  status: 'ACTIVE' | 'DISABLED' | 'COMPROMISED',
  client: ClientInfo,
) {
  const now = deps.clock.now();
  const target = await targetUser(deps, tenant, id);
  assertMayActOnUser(principal, target, now);
  requireRecentSession(deps, principal);
  const actorCheck = superAdminActorCheck(deps, tenant, principal, target, now);
  // COMPROMISED voids the password (NIST 800-63B: a compromised secret must be changed): enabling the
  // user again does not bring it back; the owner sets a new one through forgot-password.
  const change: StatusChange = { status, ...(status === 'COMPROMISED' ? { passwordHash: null } : {}) };
  // DISABLED and COMPROMISED end every session in the status write itself (the credential epoch moves on),
  // logins in flight included; setting ACTIVE again keeps the new epoch, so the old sessions stay dead.
  const endSessions: EpochBump | undefined = status === 'ACTIVE' ? undefined : {};
  // The status (only while it is still the one read), its activity and, on a SUPER_ADMIN, the actor's check: one
  // transaction, so the webhook event (user.status_changed) comes exactly when the change commits.
  const failed = await transact(
    deps.store,
    {
      status: userRepo(deps.store).updateItem(tenant, target.id, change, { status: target.status }, endSessions),
      activity: activityItem(deps, tenant, target.id, STATUS_ACTIVITY[status], {
        ...client,
        actorId: actorIdOf(principal),
      }),
      actor: actorCheck,
    },
    { retryConflicts: true },
  );
  // The actor first: a moment later, its own standing would be judged before the target is looked at.
  if (failed.has('actor')) throw await refusalOfActor(deps, tenant, principal);
  if (failed.has('status')) throw fail('CONFLICT', 'the user changed meanwhile; try again');
  // Only the change was written, on the user as read.
  return toUserResponse({ ...target, ...change }, now);
}

/** What a status change writes: the status, and for COMPROMISED the password's removal. */
type StatusChange = { status: 'ACTIVE' | 'DISABLED' | 'COMPROMISED'; passwordHash?: null };

/** DELETE /users/{id}/totp: an admin turns a user's TOTP off (recorded as TOTP_DISABLED by the admin). */
export async function resetUserTotp(
  deps: Deps,
  tenant: Merchant,
  principal: Principal,
  id: string,
  client: ClientInfo,
) {
  const target = await targetUser(deps, tenant, id);
  assertMayActOnUser(principal, target, deps.clock.now());
  requireRecentSession(deps, principal);
  const failed = await transact(deps.store, {
    profile: userRepo(deps.store).updateItem(tenant, target.id, {
      totpEnabled: false,
      totpSecret: null,
      backupCodes: [],
      totpPendingSecret: null,
      totpPendingBackupCodes: [],
    }),
    activity: activityItem(deps, tenant, target.id, 'TOTP_DISABLED', { ...client, actorId: actorIdOf(principal) }),
  });
  // Deleted meanwhile.
  if (failed.size > 0) throw fail('NOT_FOUND');
}

/** GET /users/{id}/activity?limit=&cursor=: newest first, `limit` 50 by default, at most 100. */
export async function listUserActivity(deps: Deps, tenant: Merchant, id: string, query: ActivityPageQuery) {
  const target = await targetUser(deps, tenant, id);
  return activityPageOf(deps, tenant, target.id, query);
}

/**
 * POST /users/invitations: an INVITED user and an invitation mail naming the inviter and the expiry, with a link
 * to the hosted sign-up page carrying `invitationToken=<token>` (or the token itself, without hosted pages).
 */
export async function inviteUser(
  deps: Deps,
  tenant: Merchant,
  principal: Principal,
  body: { email: string; firstName?: string | null | undefined; lastName?: string | null | undefined },
  client: ClientInfo,
) {
  const inviterName = await inviterNameOf(deps, tenant, principal);
  const invitation = await createInvitation(deps, tenant, {
    email: body.email,
    firstName: body.firstName ?? null,
    lastName: body.lastName ?? null,
    invitedBy: actorIdOf(principal),
    inviterName,
  });
  try {
    // The mail limits hold invitations too: an admin, or a stolen admin key, could otherwise mail any address in
    // a loop of invite and delete. Held back (or suppressed), the invitation answers what a failed send does
    // (503, Retry-After, nothing left behind), not an unchanged 201: no mail would carry its token.
    const mail = {
      kind: 'INVITATION',
      invitationToken: invitation.invitationToken,
      inviterName,
      expiresAt: invitation.expiresAt,
    } as const;
    // The invited person has sent no request yet: the mail is in the tenant's language, not the inviting admin's.
    await mailForAdmin(deps, tenant, body.email, mail, 'the invitation mail', tenantDefaultLanguage(tenant));
  } catch (error) {
    // No mail, no invitation: take the INVITED user and the invitation back so the address is free to invite again.
    await userAdminRepo(deps.store).deletePartitions(tenant, invitation.userId);
    await transact(deps.store, {
      ...userAdminRepo(deps.store).claimAndLockoutDeletion(tenant, { id: invitation.userId, email: body.email }),
      invitation: invitationRepo(deps.store).deleteItem(tenant, hashToken(invitation.invitationToken)),
    });
    throw error;
  }
  // Recorded once the mail went out (its webhook event, invitation.created): an invitation whose mail failed was
  // taken back, and never existed. The mail is out and the invitation stands: should this write fail, that is
  // logged and the answer is still 201; only its record and event are missing.
  await recordActivity(
    deps,
    tenant,
    invitation.userId,
    'INVITED',
    { ...client, actorId: actorIdOf(principal) },
    { detail: { email: body.email.trim().toLowerCase() } },
  ).catch((error: unknown) => {
    deps.log.error('invitation sent, its INVITED activity not recorded', {
      userId: invitation.userId,
      ...describeError(error),
    });
  });
  return { userId: invitation.userId, status: 'INVITED' as const };
}

/**
 * DELETE /users/{id}: the user is gone at once: profile, e-mail claim and
 * lockout removed with an audit record in one transaction (no token, refresh
 * or login works after it, and the address is free again). Then every other
 * item of theirs (sessions, devices, used tokens, activity) is deleted. That
 * clean-up comes after the deletion has happened: if DynamoDB fails it, the
 * answer is still 204 (a retry could not do more: the user is not found any
 * more), and what is left sits in partitions of a user id nothing reads or
 * reuses; the error is logged with the user id for an operator.
 */
export async function deleteUser(deps: Deps, tenant: Merchant, principal: Principal, id: string, client: ClientInfo) {
  const target = await targetUser(deps, tenant, id);
  const now = deps.clock.now();
  assertMayActOnUser(principal, target, now);
  requireRecentSession(deps, principal);
  const failed = await transact(
    deps.store,
    {
      ...userAdminRepo(deps.store).deletionItems(tenant, target),
      audit: activityRepo(deps.store).auditItem(tenant, {
        id: newId(deps.random, 'aud'),
        type: 'USER_DELETED',
        subjectId: target.id,
        at: now.toISOString(),
        ip: client.ip,
        userAgent: client.userAgent,
        actorId: actorIdOf(principal),
      }),
      // Of two SUPER_ADMINs deleting each other at once, the second is refused.
      actor: superAdminActorCheck(deps, tenant, principal, target, now),
    },
    { retryConflicts: true },
  );
  // The actor first: a moment later, its own standing would be judged before the target is looked at.
  if (failed.has('actor')) throw await refusalOfActor(deps, tenant, principal);
  if (failed.size > 0) throw fail('CONFLICT', 'the user changed meanwhile; try again');
  await userAdminRepo(deps.store)
    .deletePartitions(tenant, target.id)
    .catch((error: unknown) => {
      deps.log.error('user deleted; clean-up of their items incomplete', {
        userId: target.id,
        errorName: error instanceof Error ? error.name : typeof error,
      });
    });
}
