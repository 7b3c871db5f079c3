import { activityItem } from '../activity/record.ts';
import type { Deps } from '../deps.ts';
import { newId } from '../random.ts';
import { deviceFingerprint, normaliseUserAgent } from '../sessions/fingerprint.ts';
import type { Session } from '../store/session-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import type { User } from '../users/types.ts';
import { newOpaqueToken } from './codes.ts';
import { tokensFor } from './issue-tokens.ts';
import { formatRefreshToken, hashRefreshSecret, REFRESH_TOKEN_TTL_MS, type RequestInfo } from './refresh-token.ts';

/**
 * Logs a user in: a new session with its device details, the device record,
 * lastLoginAt and a LOGIN activity in one transaction, then the tokens.
 */
export async function startSession(deps: Deps, tenant: Merchant, user: User, request: RequestInfo) {
  const now = deps.clock.now();
  const secret = newOpaqueToken();
  const session: Session = {
    id: newId(deps.random, 'ses'),
    userId: user.id,
    createdAt: now.toISOString(),
    lastActivityAt: now.toISOString(),
    ip: request.ip,
    userAgent: normaliseUserAgent(request.userAgent),
    fingerprint: deviceFingerprint(request.userAgent),
    refreshHash: hashRefreshSecret(secret),
    refreshExpiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS).toISOString(),
    revokedAt: null,
  };
  const activity = activityItem(deps, tenant, user.id, 'LOGIN', { ...request, actorId: user.id });
  await deps.sessions.start(tenant, session, activity);
  return tokensFor(
    deps,
    tenant,
    { ...user, lastLoginAt: session.createdAt },
    session.id,
    formatRefreshToken(user.id, session.id, secret),
  );
}
