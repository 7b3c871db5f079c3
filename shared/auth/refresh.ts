import { recordActivity } from '../activity/record.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import type { StoreClient } from '../store/client.ts';
import { epochOf } from '../store/credential-epoch.ts';
import { keys, type TenantRef } from '../store/keys.ts';
import { refreshGraceRepo } from '../store/refresh-grace-repo.ts';
import { type Session, sessionRepo, toSession } from '../store/session-repo.ts';
import { userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { refreshMacKey, refreshMacPrefetch, successorSecret } from '../tokens/refresh-successor.ts';
import {
  formatRefreshToken,
  hashRefreshSecret,
  parseRefreshToken,
  REFRESH_REUSE_GRACE_MS,
} from '../tokens/refresh-token.ts';
import { type SigningAlg, signingKeys } from '../tokens/signing-keys.ts';
import type { User } from '../users/types.ts';
import { tokensFor } from './issue-tokens.ts';
import { placeInChain } from './refresh-chain.ts';

/**
 * What refresh prefetches with the tenant (httpHandler's `prefetch`): the token's user and session, and the
 * successor key until this process holds it (a cold start reads it in the same BatchGetItem).
 */
export function refreshPrefetch(body: { refreshToken: string }, tenant: TenantRef, store: StoreClient) {
  const token = parseRefreshToken(body.refreshToken);
  return token
    ? [
        keys.user(tenant, token.userId),
        keys.session(tenant, token.userId, token.sessionId),
        ...refreshMacPrefetch(store),
      ]
    : [];
}

/**
 * POST /auth/refresh: rotates the refresh token and issues a new access token
 * (outside the per-(tenant, IP) rate limit of the auth routes: see rotateRefreshToken).
 * - The current token rotates to its successor, derived from it (HMAC under
 *   a server key: refresh-successor.ts); of refreshes with one token, exactly
 *   one rotates (a conditional write).
 * - The same token used again within 10 s of its rotation (other tabs, a
 *   retry, the losers of that race) gets the same successor, with a fresh
 *   access token of the session, while that successor is still the session's
 *   current token: every holder continues one chain, and the next divergence
 *   is detected as reuse. Each such answer is recorded
 *   (REFRESH_TOKEN_GRACE). Once the chain has moved on: REFRESH_TOKEN_INVALID,
 *   never a token of a dead chain.
 * - A token rotated out more than 10 s ago is a replay: the whole session is
 *   revoked (REFRESH_TOKEN_REUSED), since one of its holders is not the user.
 * - Never past the session's 7 days, whichever path answers.
 */
export async function refresh(deps: Deps, tenant: Merchant, refreshToken: string, client: ClientInfo) {
  const rotated = await rotateRefreshToken(deps, tenant, refreshToken, client, { clientId: null });
  return tokensFor(deps, tenant, rotated.user, rotated.sessionId, rotated.refreshToken);
}

/** What a rotation leaves: the session's user (ACTIVE), the session (as read), and the refresh token to answer. */
export interface Rotated {
  user: User;
  sessionId: string;
  session: Session;
  refreshToken: string;
}

/**
 * The rotation itself, with every rule above, for /auth/refresh (`clientId` null) and for an OpenID Connect
 * client's token endpoint (`clientId`: the session must be that client's). Neither is counted in the per-(tenant,
 * IP) limit of the auth routes, and neither writes a rate item: a 256-bit token leaves
 * nothing to guess, and users behind one NAT, or a tenant's server refreshing for its users, were refused at two
 * refreshes a second. Stage throttling still bounds the route.
 *
 * One read (profile and session, with the tenant where the route prefetches them) and one conditional write
 * of the session item: the session alone tells the current token, one in its grace and a replay apart
 * (refresh-chain.ts).
 */
export async function rotateRefreshToken(
  deps: Deps,
  tenant: Merchant,
  refreshToken: string,
  client: ClientInfo,
  options: { clientId: string | null; signingAlg?: SigningAlg },
): Promise<Rotated> {
  const token = parseRefreshToken(refreshToken);
  if (!token) throw fail('REFRESH_TOKEN_INVALID');
  const { userId, sessionId } = token;
  const now = deps.clock.now();
  const bound = options.clientId;

  // Everything the answer needs is read before the rotation (the signing key too, on a cold start): once the
  // presented token is rotated out, a failure would strand the client with a token that is no longer current
  // (REFRESH_TOKEN_INVALID on retry, REFRESH_TOKEN_REUSED after 10 s), so the rotation is the last step that can fail.
  const [read, , macKey] = await Promise.all([
    userRepo(deps.store).getWithSession(tenant, userId, sessionId),
    signingKeys(deps).active(options.signingAlg),
    refreshMacKey(deps),
  ]);
  const user = read.user;
  let session = read.session ? toSession(read.session) : null;
  if (!session) throw fail('REFRESH_TOKEN_INVALID');
  // The same for every use of this token: what the first use rotates to, and what a use in the grace answers.
  const nextSecret = successorSecret(macKey, userId, sessionId, token.secret);
  const nextHash = hashRefreshSecret(nextSecret);
  const epoch = user?.credentialEpoch ?? 0;
  // Taken off the profile's list with it, when revoked here, so that it stops counting towards the 50.
  const listed = user?.liveSessions?.[sessionId] !== undefined;
  const endSession = () => sessionRepo(deps.store).revoke(tenant, userId, sessionId, now, listed);

  let place = await placeInChain(deps, tenant, session, token, macKey);
  if (place?.at === 'CURRENT') {
    // Past its 7 days, ended by the epoch, or another client's: refused without a write (the rotation's
    // condition holds the same rules against what changes meanwhile).
    if (!usable(session, now, epoch, bound)) throw fail('REFRESH_TOKEN_INVALID');
    // Only ACTIVE users get tokens; disabling a user ends their sessions too (the epoch), this is the second line.
    if (user?.status !== 'ACTIVE') {
      await endSession();
      throw fail('REFRESH_TOKEN_INVALID');
    }
    if (await sessionRepo(deps.store).rotateRefresh(tenant, session, nextHash, now, epoch, bound)) {
      const generation = (session.refreshGen ?? 0) + 1;
      return { user, sessionId, session, refreshToken: formatRefreshToken(userId, sessionId, generation, nextSecret) };
    }
    // Another refresh with this token rotated it first (or the session ended meanwhile): judged on what is there now.
    session = await sessionRepo(deps.store).get(tenant, userId, sessionId);
    place = session ? await placeInChain(deps, tenant, session, token, macKey) : null;
    if (place?.at === 'CURRENT') throw fail('REFRESH_TOKEN_INVALID');
  }
  if (!session || place?.at !== 'ROTATED_OUT') throw fail('REFRESH_TOKEN_INVALID');

  if (now.getTime() - place.rotatedAt.getTime() > REFRESH_REUSE_GRACE_MS) {
    deps.signals.count('RefreshReuse');
    deps.signals.user(userId);
    if (await endSession()) {
      await recordActivity(
        deps,
        tenant,
        userId,
        'REFRESH_TOKEN_REUSED',
        { ...client, actorId: userId },
        { detail: { sessionId } },
      );
    }
    throw fail('REFRESH_TOKEN_REUSED');
  }
  // Within the grace: the successor is answered only while it is still current, the session live,
  // within its 7 days (the answer extends nothing) and at the epoch; else the chain moved on or ended.
  if (
    session.refreshHash !== nextHash ||
    !(await refreshGraceRepo(deps.store).continueChain(tenant, userId, sessionId, nextHash, now, epoch, bound))
  ) {
    throw fail('REFRESH_TOKEN_INVALID');
  }
  if (user?.status !== 'ACTIVE') {
    await endSession();
    throw fail('REFRESH_TOKEN_INVALID');
  }
  await recordActivity(deps, tenant, userId, 'REFRESH_TOKEN_GRACE', { ...client, actorId: userId });
  const current = session.refreshGen ?? 0;
  return { user, sessionId, session, refreshToken: formatRefreshToken(userId, sessionId, current, nextSecret) };
}

/** What the rotation's condition requires of the session, checked on the read first. */
function usable(session: Session, now: Date, epoch: number, client: string | null): boolean {
  return (
    !session.revokedAt &&
    Date.parse(session.refreshExpiresAt) > now.getTime() &&
    epochOf(session) === epoch &&
    (session.clientId ?? null) === client
  );
}
