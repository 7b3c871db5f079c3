import type { UserPrincipal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { sessionRepo } from '../store/session-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { currentUser } from '../users/lookup.ts';
import { describeDevice } from './device.ts';

/** GET /users/me/sessions: the caller's live sessions, newest activity first, with device names. */
export async function listMySessions(deps: Deps, tenant: Merchant, principal: UserPrincipal) {
  // Only those at the profile's credential epoch: the others ended when it moved on, though never written to.
  const { credentialEpoch } = await currentUser(deps, tenant, principal);
  const sessions = await sessionRepo(deps.store).listLive(tenant, principal.userId, deps.clock.now(), credentialEpoch);
  return sessions
    .sort((a, b) => b.lastActivityAt.localeCompare(a.lastActivityAt))
    .map((session) => {
      const device = describeDevice(session.userAgent);
      return {
        id: session.id,
        current: session.id === principal.sessionId,
        browser: device.browser,
        os: device.os,
        ip: session.ip,
        lastActivityAt: session.lastActivityAt,
        createdAt: session.createdAt,
        // An OpenID Connect client's session: revoking it ends that client's refresh token and userinfo access.
        clientName: session.clientName ?? null,
      };
    });
}
