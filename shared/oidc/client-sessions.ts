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
  // The successor key (a read and a decrypt on a cold start) is fetched beside the session when a token is to be placed.
  const [{ user, session }, macKey] = await Promise.all([
    userRepo(deps.store).getWithSession(tenant, userId, sessionId),
    refreshToken ? refreshMacKey(deps) : undefined,
  ]);
  if (!session || session.clientId !== clientId) return;
  if (refreshToken && macKey && !(await placeInChain(deps, tenant, toSession(session), refreshToken, macKey))) {
    return;
  }
  await sessionRepo(deps.store).revoke(tenant, userId, sessionId, deps.clock.now(), !!user?.liveSessions?.[sessionId]);
}
