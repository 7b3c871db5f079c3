import { epochOf } from '../store/credential-epoch.ts';
import type { User } from '../users/types.ts';

/**
 * Whether a session (its item as read) still stands for its user: not revoked, within its absolute end, at the
 * profile's credential epoch (a password change or reset, DISABLED/COMPROMISED and revoke-all move it on: every
 * session of an older one ends at once, with no write per session), and the user ACTIVE. The one rule of the
 * API's bearer check and of the OpenID Provider's userinfo.
 */
export function isLiveSession(user: User | null, session: Record<string, unknown> | null, now: Date): user is User {
  return (
    !!user &&
    !!session &&
    !session.revokedAt &&
    Date.parse(session.refreshExpiresAt as string) > now.getTime() &&
    epochOf(session) === user.credentialEpoch &&
    user.status === 'ACTIVE'
  );
}
