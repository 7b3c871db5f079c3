import { REFRESH_TOKEN_TTL_MS } from '../auth/lifetimes.ts';

/** At most this many live sessions per user (CONTRACT.md, Rules; ASVS 7.1.2): the oldest ends when another starts. */
export const MAX_LIVE_SESSIONS = 50;

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
 * which it ends (the oldest, beyond the 49 newest), from the list read with
 * the profile at login: no extra read.
 */
export function capSessions(listed: Record<string, string> | null, now: Date): SessionCap {
  if (!listed) return { listed, forget: [], evict: [] };
  const entries = Object.entries(listed);
  const over = (createdAt: string) => Date.parse(createdAt) + REFRESH_TOKEN_TTL_MS <= now.getTime();
  const forget = entries.filter(([, createdAt]) => over(createdAt)).map(([id]) => id);
  const live = entries
    .filter(([, createdAt]) => !over(createdAt))
    .sort(([a, at], [b, bt]) => at.localeCompare(bt) || a.localeCompare(b));
  // Room for the new one: the 49 newest stay.
  const excess = Math.max(0, live.length - (MAX_LIVE_SESSIONS - 1));
  const evict = live.slice(0, Math.min(excess, MAX_ENDED_AT_ONCE)).map(([id]) => id);
  return { listed, forget: forget.slice(0, MAX_ENDED_AT_ONCE), evict };
}
