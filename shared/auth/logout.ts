import { activityItem } from '../activity/record.ts';
import type { Deps } from '../deps.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { sessionRepo } from '../store/session-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import type { UserPrincipal } from './principal.ts';

/** DELETE /auth/logout: the caller's session ends at once (its tokens answer SESSION_REVOKED). */
export async function logout(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  client: ClientInfo,
): Promise<void> {
  // Taken off the profile's list too (it stops counting towards the 50) when the bearer check's read lists it.
  const listed = principal.user?.liveSessions?.[principal.sessionId] !== undefined;
  // The LOGOUT record in the same transaction: its webhook event (session.revoked) exactly when the session ends.
  const logoutItem = activityItem(
    deps,
    tenant,
    principal.userId,
    'LOGOUT',
    { ...client, actorId: principal.userId },
    { detail: { sessionId: principal.sessionId } },
  );
  await sessionRepo(deps.store).revoke(
    tenant,
    principal.userId,
    principal.sessionId,
    deps.clock.now(),
    listed,
    logoutItem,
  );
}
