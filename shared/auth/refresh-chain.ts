import type { Deps } from '../deps.ts';
import type { TenantRef } from '../store/keys.ts';
import { type Session, sessionRepo } from '../store/session-repo.ts';
import { successorSecret } from '../tokens/refresh-successor.ts';
import { hashRefreshSecret, type RefreshToken } from '../tokens/refresh-token.ts';

/** Where a presented refresh token stands in its session's chain of rotations. */
export type ChainPlace = { at: 'CURRENT' } | { at: 'ROTATED_OUT'; rotatedAt: Date };

/**
 * How far back a token is followed: a session rotating every few seconds for its whole 7 days stays within
 * it, and the walk (one HMAC a step) stays a few milliseconds. A token further back is not recognised: refused,
 * like a made-up one, and it ends nothing.
 */
const MAX_GENERATIONS_BACK = 10_000;

/**
 * The token's place in `session` (as read): its current token, or one rotated out of it (and when), or
 * neither (null: unknown, made up from ids an access or ID token shows, another session's). A rotated-out
 * token is recognised by deriving its successors forward to the one the last rotation replaced, whose hash
 * the session keeps even once revoked: only a holder of a genuine token gets that far, so a made-up one can
 * never end a session as a replay. Each rotation records when it happened and when the one before it did:
 * the token it replaced left at the first time, every older token by the second.
 */
export async function placeInChain(
  deps: Pick<Deps, 'store'>,
  tenant: TenantRef,
  session: Session,
  token: RefreshToken,
  macKey: Buffer,
): Promise<ChainPlace | null> {
  const presented = hashRefreshSecret(token.secret);
  if (session.refreshHash === presented) return { at: 'CURRENT' };
  const behind = (session.refreshGen ?? 0) - token.generation;
  if (session.prevRefreshHash && behind >= 1 && behind <= MAX_GENERATIONS_BACK) {
    let secret = token.secret;
    for (let step = 1; step < behind; step++) secret = successorSecret(macKey, token.userId, token.sessionId, secret);
    const rotatedAt = behind === 1 ? session.prevRotatedAt : (session.olderRotatedAt ?? session.prevRotatedAt);
    if (hashRefreshSecret(secret) === session.prevRefreshHash && rotatedAt) {
      return { at: 'ROTATED_OUT', rotatedAt: new Date(rotatedAt) };
    }
  }
  // An `rt1` token rotated out before sessions recorded their rotations has a record of its own.
  if (token.legacy) {
    const rotatedAt = await sessionRepo(deps.store).rotatedAt(tenant, token.userId, token.sessionId, presented);
    if (rotatedAt) return { at: 'ROTATED_OUT', rotatedAt };
  }
  return null;
}
