import { recordActivity } from '../activity/record.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import type { Merchant } from '../tenancy/types.ts';
import { newOpaqueToken } from './codes.ts';
import { tokensFor } from './issue-tokens.ts';
import {
  formatRefreshToken,
  hashRefreshSecret,
  parseRefreshToken,
  REFRESH_REUSE_GRACE_MS,
  type RequestInfo,
} from './refresh-token.ts';

/**
 * POST /auth/refresh: rotates the refresh token and issues a new access token.
 * - The current token rotates; of two refreshes with it, exactly one wins
 *   (a conditional write) and the other gets REFRESH_TOKEN_INVALID.
 * - A token rotated out more than 10 s ago is a replay: the whole session is
 *   revoked (REFRESH_TOKEN_REUSED), since one of its holders is not the user.
 */
export async function refresh(deps: Deps, tenant: Merchant, refreshToken: string, request: RequestInfo) {
  const parsed = parseRefreshToken(refreshToken);
  if (!parsed) throw fail('REFRESH_TOKEN_INVALID');
  const { userId, sessionId, secret } = parsed;
  const now = deps.clock.now();
  const presented = hashRefreshSecret(secret);
  const nextSecret = newOpaqueToken();

  const [outcome, user] = await Promise.all([
    deps.sessions.rotateRefresh(tenant, userId, sessionId, presented, hashRefreshSecret(nextSecret), now),
    deps.users.get(tenant, userId),
  ]);

  if (outcome === 'NOT_CURRENT') {
    const rotatedAt = await deps.sessions.rotatedAt(tenant, userId, sessionId, presented);
    if (rotatedAt && now.getTime() - rotatedAt.getTime() > REFRESH_REUSE_GRACE_MS) {
      if (await deps.sessions.revoke(tenant, userId, sessionId, now)) {
        await recordActivity(deps, tenant, userId, 'REFRESH_TOKEN_REUSED', { ...request, actorId: userId });
      }
      throw fail('REFRESH_TOKEN_REUSED');
    }
    throw fail('REFRESH_TOKEN_INVALID');
  }
  // Only ACTIVE users get tokens; disabling a user revokes their sessions too, this is the second line.
  if (user?.status !== 'ACTIVE') {
    await deps.sessions.revoke(tenant, userId, sessionId, now);
    throw fail('REFRESH_TOKEN_INVALID');
  }
  return tokensFor(deps, tenant, user, sessionId, formatRefreshToken(userId, sessionId, nextSecret));
}
