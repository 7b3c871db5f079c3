import { recordActivity } from '../activity/record.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import type { Merchant } from '../tenancy/types.ts';
import type { Principal } from './principal.ts';
import type { RequestInfo } from './refresh-token.ts';

/** DELETE /auth/logout: the caller's session ends at once (its tokens answer SESSION_REVOKED). */
export async function logout(deps: Deps, tenant: Merchant, principal: Principal, request: RequestInfo): Promise<void> {
  if (principal.kind !== 'user') throw fail('UNAUTHENTICATED');
  await deps.sessions.revoke(tenant, principal.userId, principal.sessionId, deps.clock.now());
  await recordActivity(deps, tenant, principal.userId, 'LOGOUT', { ...request, actorId: principal.userId });
}
