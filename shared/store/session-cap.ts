import { REFRESH_TOKEN_TTL_MS } from '../lifetimes.ts';

/**
 * At most this many live sessions per user (ASVS 7.1.2) that no OpenID client holds: the hosted pages', the
 * apps' signed in through the API. The oldest ends when another starts.
 */
export const MAX_LIVE_SESSIONS = 50;

/**
 * At most this many live sessions per (user, OpenID client): the oldest of that client ends when it starts
 * another. A client's sign-ins never end the user's other sessions, nor count towards their 50.
 */
export const MAX_CLIENT_SESSIONS = 10;

/** The longest refresh token lifetime an OpenID client may have (shared/oidc/schemas.ts): 30 days. */
const LONGEST_CLIENT_SESSION_MS = 30 * 86_400_000;

/** A session's entry in the profile's list: when it started, and for an OpenID client's session `|<clientId>`. */
export function listedEntry(createdAt: string, clientId: string | null): string {
  return clientId ? `${createdAt}|${clientId}` : createdAt;
}

/** A listed entry read back (entries from before clients were listed are the time alone). */
function parseListedEntry(entry: string): { createdAt: string; clientId: string | null } {
  const bar = entry.indexOf('|');
  return bar < 0
    ? { createdAt: entry, clientId: null }
    : { createdAt: entry.slice(0, bar), clientId: entry.slice(bar + 1) };
}

/**
 * Ends at most this many at one login, so that the login's transaction stays far below DynamoDB's
 * 100 items. The list only exceeds the limit by as many logins as raced each other: the next ones
 * bring it back down.
 */
const MAX_ENDED_AT_ONCE = 25;

/** What a new session does to the profile's live-session list (sessionRepo.start). */
export interface SessionCap {
  /** The list as read with the profile; null on a profile from before the list (it starts with the new session). */
  listed: Record<string, string> | null;
  /** Ids to take off the list: their 7 days are over, they end by themselves. */
  forget: string[];
  /** The oldest sessions, ended (revoked) and taken off the list to make room for the new one. */
  evict: string[];
}

/**
 * Which listed sessions a new one forgets (past their absolute end) and
 * which it ends, from the list read with the profile at login (no extra
 * read): a new session of OpenID client `clientId` ends the oldest of that
 * client's beyond its 9 newest; any other new session, the oldest of the
 * sessions no client holds beyond their 49 newest.
 */
export function capSessions(
  listed: Record<string, string> | null,
  now: Date,
  clientId: string | null = null,
): SessionCap {
  if (!listed) return { listed, forget: [], evict: [] };
  const entries = Object.entries(listed).map(([id, entry]) => ({ id, ...parseListedEntry(entry) }));
  // A client's sessions may live up to 30 days (its refresh token lifetime): counted that long, at most.
  const over = (e: { createdAt: string; clientId: string | null }) =>
    Date.parse(e.createdAt) + (e.clientId ? LONGEST_CLIENT_SESSION_MS : REFRESH_TOKEN_TTL_MS) <= now.getTime();
  const forget = entries.filter(over).map((e) => e.id);
  const live = entries
    .filter((e) => !over(e) && e.clientId === clientId)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  // Room for the new one: the newest (limit - 1) of its kind stay.
  const limit = clientId ? MAX_CLIENT_SESSIONS : MAX_LIVE_SESSIONS;
  const excess = Math.max(0, live.length - (limit - 1));
  const evict = live.slice(0, Math.min(excess, MAX_ENDED_AT_ONCE)).map((e) => e.id);
  return { listed, forget: forget.slice(0, MAX_ENDED_AT_ONCE), evict };
}
