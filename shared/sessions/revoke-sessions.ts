import { activityItem } from '../activity/record.ts';
import type { UserPrincipal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { sessionRepo } from '../store/session-repo.ts';
import type { Merchant } from '../tenancy/types.ts';

const SESSION_ID = /^ses_[0-9a-z]{20}$/;

/** DELETE /users/me/sessions/{sessionId}: ends one of the caller's sessions (404 for anyone else's). */
export async function revokeMySession(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  sessionId: string,
  client: ClientInfo,
): Promise<void> {
  // Sessions live in the caller's own partition: another user's id cannot be reached from here.
  // Taken off the profile's list too (it stops counting towards the 50) when the bearer check's read lists it.
  const listed = principal.user?.liveSessions?.[sessionId] !== undefined;
  if (!SESSION_ID.test(sessionId)) throw fail('NOT_FOUND');
  // Recorded in the same transaction: its webhook event (session.revoked) exactly when the session ends.
  const revoked = activityItem(
    deps,
    tenant,
    principal.userId,
    'SESSION_REVOKED',
    { ...client, actorId: principal.userId },
    { detail: { sessionId } },
  );
  if (!(await sessionRepo(deps.store).revoke(tenant, principal.userId, sessionId, deps.clock.now(), listed, revoked))) {
    throw fail('NOT_FOUND');
  }
}

/**
 * POST /sessions/revoke-all: ends every session of the caller, this one too (its token is refused at once),
 * in one write whatever their number: the credential epoch moves on.
 */
export async function revokeAllMySessions(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  client: ClientInfo,
): Promise<void> {
  // Every session: no one id (the event says null); recorded in the same transaction as the epoch's move.
  const revoked = activityItem(
    deps,
    tenant,
    principal.userId,
    'SESSION_REVOKED',
    { ...client, actorId: principal.userId },
    { detail: { sessionId: null } },
  );
  if (!(await sessionRepo(deps.store).revokeAll(tenant, principal.userId, revoked))) throw fail('SESSION_REVOKED');
}
