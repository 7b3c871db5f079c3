import { activityItem } from '../activity/record.ts';
import { loginMethodOf } from '../activity/types.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { REFRESH_TOKEN_TTL_MS } from '../lifetimes.ts';
import { newId } from '../random.ts';
import { deviceFingerprint, normaliseUserAgent } from '../sessions/fingerprint.ts';
import { challengeRepo } from '../store/challenge-repo.ts';
import { conditionFailedAt } from '../store/errors.ts';
import { passwordSession } from '../store/password-session.ts';
import { capSessions } from '../store/session-cap.ts';
import type { Device, Session, SessionStartAlso } from '../store/session-repo.ts';
import { sessionRepo } from '../store/session-repo.ts';
import type { TransactItem } from '../store/transact.ts';
import type { Merchant } from '../tenancy/types.ts';
import { formatRefreshToken, hashRefreshSecret } from '../tokens/refresh-token.ts';
import type { User } from '../users/types.ts';
import { newOpaqueToken } from './codes.ts';
import { tokensFor } from './issue-tokens.ts';

/** What else a login commits with its session: the code that allowed it, used up, and more (see sessionRepo.start). */
export interface SessionCommit extends SessionStartAlso {
  /** The challenge whose code allowed this login: used up in the session's transaction. */
  consumes?: string;
  /** How the user proved who they are (RFC 8176: `pwd`, `otp`, `mfa`), kept with the session for ID tokens. */
  amr?: string[];
  /**
   * A password login's device record as read with the profile (null: a new device). Given, a login that commits
   * nothing else and ends no session is stored without a transaction (passwordSession.start), and the record is
   * written only when new or stale.
   */
  device?: Device | null;
  /** A plain write once the session is stored (the lockout's place given back or its count cleared); never throws. */
  settle?: () => Promise<void>;
}

/** A session of an OpenID Connect client (its code redeemed), where it differs from a login's. */
export interface ClientSessionShape {
  clientId: string;
  clientName: string;
  /** The client's refresh token lifetime. */
  refreshTtlMs: number;
  /** When the user last proved their first factor in the browser session that authorized the client. */
  authenticatedAt: string;
  scopes: string[];
}

/** Where the profile's write sits in sessionRepo.start's transaction. */
const PROFILE_ITEM = 2;

/**
 * Logs a user in: the tokens, then a new session with its device details, the
 * device record, lastLoginAt and a LOGIN activity, in one transaction with
 * whatever `commit` adds, or for a password login without one (see beginSession):
 * the writes are the last step, so a login is recorded whole or not at all,
 * and a code it uses up stays good if it fails.
 * `user` is the user as the transaction leaves it, read BEFORE its credential
 * was checked: the session is stamped with that read's credential epoch and
 * commits only while the profile is still at it, so a password change, reset,
 * disable or revoke-all in between ends this login too (docs/security.md#sessions-and-the-credential-epoch).
 * The 50th-oldest live session ends with it (its list came with that read); for an OpenID client's session,
 * the 10th-oldest of that client's.
 * A challenge already used, or a profile not in `commit.profileStatus`, is
 * 401 INVALID_CODE; a password login whose epoch moved on, INVALID_CREDENTIALS.
 */
export async function startSession(
  deps: Deps,
  tenant: Merchant,
  user: User,
  client: Pick<ClientInfo, 'ip' | 'userAgent'>,
  commit: SessionCommit = {},
) {
  return beginSession(deps, tenant, user, client, commit, null, (session, refreshToken) =>
    tokensFor(deps, tenant, { ...user, lastLoginAt: session.createdAt }, session.id, refreshToken),
  );
}

/**
 * startSession's steps for any session: a login's (`shape` null) or an OpenID Connect client's, whose
 * tokens `sign` makes (called before the session is stored, as startSession's are). `alsoWith` adds writes
 * that name the new session to its transaction (the code it redeems).
 */
export async function beginSession<T>(
  deps: Deps,
  tenant: Merchant,
  user: User,
  client: Pick<ClientInfo, 'ip' | 'userAgent'>,
  commit: SessionCommit,
  shape: ClientSessionShape | null,
  sign: (session: Session, refreshToken: string) => Promise<T>,
  alsoWith: (session: Session) => TransactItem[] = () => [],
): Promise<T> {
  const now = deps.clock.now();
  const secret = newOpaqueToken();
  const session: Session = {
    id: newId(deps.random, 'ses'),
    userId: user.id,
    // The epoch the credential was checked against: the session lives only as long as the profile keeps it.
    epoch: user.credentialEpoch,
    createdAt: now.toISOString(),
    lastActivityAt: now.toISOString(),
    ip: client.ip,
    userAgent: normaliseUserAgent(client.userAgent),
    fingerprint: deviceFingerprint(client.userAgent),
    refreshHash: hashRefreshSecret(secret),
    refreshGen: 0,
    prevRefreshHash: null,
    prevRotatedAt: null,
    olderRotatedAt: null,
    refreshExpiresAt: new Date(now.getTime() + (shape?.refreshTtlMs ?? REFRESH_TOKEN_TTL_MS)).toISOString(),
    revokedAt: null,
    // The first factor was proven just now (password or e-mail code; signup verify's code too): the session
    // counts as freshly authenticated for REAUTHENTICATION_WINDOW_MS. Refresh keeps this value, never renews it.
    // A client's session keeps the browser session's (its ID tokens' auth_time).
    authenticatedAt: shape?.authenticatedAt ?? now.toISOString(),
    amr: commit.amr ?? null,
    clientId: shape?.clientId ?? null,
    clientName: shape?.clientName ?? null,
    scopes: shape?.scopes ?? null,
  };
  const activity = activityItem(
    deps,
    tenant,
    user.id,
    'LOGIN',
    { ...client, actorId: user.id },
    { method: loginMethodOf(commit.amr), detail: { sessionId: session.id } },
  );
  // Signed first (on a cold start that reads the signing key): once the session is stored, nothing may
  // fail before the tokens go out, or a failed login would leave a session nobody holds.
  const tokens = await sign(session, formatRefreshToken(user.id, session.id, 0, secret));
  const { consumes, amr: _amr, device, settle, ...also } = commit;
  const cap = capSessions(user.liveSessions, now, session.clientId);
  // A session the limit ends (50 per user, 10 per client) is recorded, as any revoked session is, in the same transaction.
  const ended = cap.evict.map((sessionId) =>
    activityItem(deps, tenant, user.id, 'SESSION_REVOKED', { ...client, actorId: user.id }, { detail: { sessionId } }),
  );
  const items = [
    ...(also.items ?? []),
    ...alsoWith(session),
    ...(consumes ? [challengeRepo(deps.store).consumeItem(tenant, consumes, now)] : []),
    ...ended,
  ];
  // Which writes share the transaction, and why. A transaction bills every item twice, so a password login (the
  // common sign-in: nothing to use up, no status to hold, no session to end) takes none: its guarantees hold
  // without one (passwordSession.start: the epoch checked and the session listed by the profile's conditional
  // write first; a failure after it taken back). Whatever else must commit with a session (a code used up, a
  // signup's activation, an OpenID client's code, the sessions the limit ends) stays in one transaction with it.
  const plain = device !== undefined && !consumes && !also.profileStatus && items.length === 0 && !also.profile;
  try {
    if (plain) {
      const writes = passwordSession(deps.store);
      if (!(await writes.start(tenant, session, activity, cap, device, user.lastLoginAt, settle))) {
        throw fail('INVALID_CREDENTIALS');
      }
    } else {
      await sessionRepo(deps.store).start(tenant, session, activity, { ...also, items }, cap);
      // After the session, never failing the login: a place not given back leaves the window with time.
      await settle?.();
    }
  } catch (error) {
    // Of two answers racing with one code, one logs in; the other finds the code used (or the user changed).
    if ((consumes || also.profileStatus) && conditionFailedAt(error)) throw fail('INVALID_CODE');
    // The password checked is no longer the credential of this epoch (changed, reset, or every session ended).
    if (conditionFailedAt(error, PROFILE_ITEM)) throw fail('INVALID_CREDENTIALS');
    throw error;
  }
  deps.signals.count('SessionsStarted');
  deps.signals.user(user.id);
  return tokens;
}
