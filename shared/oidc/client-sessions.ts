import { placeInChain } from '../auth/refresh-chain.ts';
import type { Deps } from '../deps.ts';
import type { TenantRef } from '../store/keys.ts';
import { sessionRepo, toSession } from '../store/session-repo.ts';
import { userRepo } from '../store/user-repo.ts';
import { refreshMacKey } from '../tokens/refresh-successor.ts';
import type { RefreshToken } from '../tokens/refresh-token.ts';

/**
 * Ends an OpenID Connect client's session (its refresh token, and userinfo for its access tokens), and only a
 * session of that client: revocation, RP-initiated logout and a replayed code all come here. The profile is
 * read with it (one BatchGetItem), so the session leaves the user's list of live ones in the same write.
 * `refreshToken`: the session ends only if it issued that refresh token (its current one, or one rotated out
 * of it): a token made up from the user and session ids an ID token shows ends nothing.
 */
export async function endClientSession(
  deps: Deps,
  tenant: TenantRef,
  userId: string,
  sessionId: string,
  clientId: string,
  refreshToken?: RefreshToken,
): Promise<void> {
  const { user, session } = await userRepo(deps.store).getWithSession(tenant, userId, sessionId);
  if (!session || session.clientId !== clientId) return;
  if (
    refreshToken &&
    !(await placeInChain(deps, tenant, toSession(session), refreshToken, await refreshMacKey(deps)))
  ) {
    return;
  }
  await sessionRepo(deps.store).revoke(tenant, userId, sessionId, deps.clock.now(), !!user?.liveSessions?.[sessionId]);
}
