import { recordActivity } from '../activity/record.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { keys, type TenantRef } from '../store/keys.ts';
import type { Merchant } from '../tenancy/types.ts';
import { newOpaqueToken } from './codes.ts';
import { enforceRateLimit } from './guards.ts';
import { tokensFor } from './issue-tokens.ts';
import { formatRefreshToken, hashRefreshSecret, parseRefreshToken, REFRESH_REUSE_GRACE_MS } from './refresh-token.ts';
import { signingKeys } from './signing-keys.ts';

/** What refresh prefetches with the tenant (httpHandler's `prefetch`): the token's user. */
export function refreshPrefetch(body: { refreshToken: string }, tenant: TenantRef) {
  const parsed = parseRefreshToken(body.refreshToken);
  return parsed ? [keys.user(tenant, parsed.userId)] : [];
}

/**
 * POST /auth/refresh: rotates the refresh token and issues a new access token,
 * within the per-(tenant, IP) rate limit of the auth routes.
 * - The current token rotates; of two refreshes with it, exactly one wins
 *   (a conditional write) and the other gets REFRESH_TOKEN_INVALID.
 * - A token rotated out more than 10 s ago is a replay: the whole session is
 *   revoked (REFRESH_TOKEN_REUSED), since one of its holders is not the user.
 */
export async function refresh(deps: Deps, tenant: Merchant, refreshToken: string, client: ClientInfo) {
  const parsed = parseRefreshToken(refreshToken);
  if (!parsed) throw fail('REFRESH_TOKEN_INVALID');
  const { userId, sessionId, secret } = parsed;
  const now = deps.clock.now();
  const presented = hashRefreshSecret(secret);
  const nextSecret = newOpaqueToken();

  // Everything the answer needs is read before the rotation (the signing key too, on a cold start): once the
  // presented token is rotated out, a failure would strand the client with a token that is no longer current
  // (REFRESH_TOKEN_INVALID on retry, REFRESH_TOKEN_REUSED after 10 s), so the rotation is the last step that can fail.
  // The rate limit per (tenant, IP), as the other auth routes have it: a well-formed token costs
  // several DynamoDB operations, so refreshes are counted too (security review S2). In parallel with
  // the reads; its refusal comes first.
  const [rate, read] = await Promise.allSettled([
    enforceRateLimit(deps, tenant, client.ip),
    Promise.all([deps.users.get(tenant, userId), signingKeys(deps).active()]),
  ]);
  if (rate.status === 'rejected') throw rate.reason;
  if (read.status === 'rejected') throw read.reason;
  const [user] = read.value;
  // Only a session at the profile's credential epoch rotates: one the epoch ended is refused like a revoked one.
  const outcome = await deps.sessions.rotateRefresh(
    tenant,
    userId,
    sessionId,
    presented,
    hashRefreshSecret(nextSecret),
    now,
    user?.credentialEpoch ?? 0,
  );
  // Taken off the profile's list with it, when revoked here, so that it stops counting towards the 50.
  const listed = user?.liveSessions?.[sessionId] !== undefined;

  if (outcome === 'NOT_CURRENT') {
    const rotatedAt = await deps.sessions.rotatedAt(tenant, userId, sessionId, presented);
    if (rotatedAt && now.getTime() - rotatedAt.getTime() > REFRESH_REUSE_GRACE_MS) {
      if (await deps.sessions.revoke(tenant, userId, sessionId, now, listed)) {
        await recordActivity(deps, tenant, userId, 'REFRESH_TOKEN_REUSED', { ...client, actorId: userId });
      }
      throw fail('REFRESH_TOKEN_REUSED');
    }
    throw fail('REFRESH_TOKEN_INVALID');
  }
  // Only ACTIVE users get tokens; disabling a user ends their sessions too (the epoch), this is the second line.
  if (user?.status !== 'ACTIVE') {
    await deps.sessions.revoke(tenant, userId, sessionId, now, listed);
    throw fail('REFRESH_TOKEN_INVALID');
  }
  return tokensFor(deps, tenant, user, sessionId, formatRefreshToken(userId, sessionId, nextSecret));
}
