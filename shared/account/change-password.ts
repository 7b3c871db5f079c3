import { activityItem } from '../activity/record.ts';
import { proveSignedIn } from '../auth/guards.ts';
import { sendNotice } from '../auth/mail-delivery.ts';
import { isCommonPassword } from '../auth/password-policy.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import type { UserPrincipal } from '../auth/principal.ts';
import { secondFactorIsGood } from '../auth/second-factor.ts';
import type { Deps } from '../deps.ts';
import { fail, failField } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { sessionRepo } from '../store/session-repo.ts';
import { transact } from '../store/transact.ts';
import { userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { currentUser } from '../users/lookup.ts';

/**
 * POST /users/me/password: the current password (and, with TOTP on, a code)
 * proves it is the user; the other sessions end, this one stays. One
 * transaction: the new hash, the profile's credential epoch moved on (every
 * session ends, and every login that read the old epoch is refused), and
 * this session re-stamped with the new epoch. A concurrent change of the
 * epoch (another password change, revoke-all) wins: 401 SESSION_REVOKED.
 */
export async function changePassword(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  body: { currentPassword: string; newPassword: string; totpCode?: string | undefined },
  client: ClientInfo,
): Promise<void> {
  const user = await currentUser(deps, tenant, principal);
  if (isCommonPassword(body.newPassword)) {
    throw failField('newPassword', 'is one of the most common passwords', 'PASSWORD_TOO_COMMON');
  }
  if (user.totpEnabled && body.totpCode === undefined) {
    throw failField('totpCode', 'is required while TOTP is on');
  }
  // Both factors are one guess: one attempt reserved before either is looked at.
  await proveSignedIn(deps, tenant, user.email, client.ip, async () => {
    if (!user.passwordHash || !(await verifyPassword(user.passwordHash, body.currentPassword))) {
      return 'INVALID_CREDENTIALS';
    }
    if (user.totpEnabled && !(await secondFactorIsGood(deps, tenant, user, body.totpCode ?? ''))) return 'INVALID_CODE';
    return null;
  });
  const passwordHash = await hashPassword(deps.config.argon2, body.newPassword);
  // The epoch as read before the password was checked (the bearer check's read): a change of it since then
  // means this session ended, or another change won; either way this one must not go through.
  const from = user.credentialEpoch;
  const failed = await transact(deps.store, {
    profile: userRepo(deps.store).updateItem(
      tenant,
      user.id,
      { passwordHash },
      {},
      {
        from,
        // This session stays listed, its entry as it was; a session from before the list gets the time of the change.
        keep: {
          id: principal.sessionId,
          createdAt: user.liveSessions?.[principal.sessionId] ?? deps.clock.now().toISOString(),
        },
      },
    ),
    session: sessionRepo(deps.store).restampItem(tenant, user.id, principal.sessionId, from),
    // Recorded with the change: its webhook event (user.password_changed) exactly when the change commits.
    activity: activityItem(deps, tenant, user.id, 'PASSWORD_CHANGE', { ...client, actorId: user.id }),
  });
  if (failed.size > 0) throw fail('SESSION_REVOKED');
  // The notice is a courtesy: the change stands even if it cannot be sent.
  await sendNotice(deps, tenant, user.email, { kind: 'PASSWORD_CHANGED' }, client.language).catch((error: unknown) => {
    deps.log.error('password change notice not sent', { errorName: error instanceof Error ? error.name : 'unknown' });
  });
}
