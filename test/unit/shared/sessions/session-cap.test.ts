import { describe, expect, it } from 'vitest';
import { capSessions, MAX_LIVE_SESSIONS } from '#shared/sessions/session-cap.ts';

const now = new Date('2025-06-01T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const DAY = 86_400_000;

/** `count` sessions listed a minute apart, the first the oldest. */
const listed = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`ses_${i}`, ago((count - i) * 60_000)]));

describe('capSessions', () => {
  it('ends nothing below the limit', () => {
    expect(capSessions(listed(MAX_LIVE_SESSIONS - 1), now)).toMatchObject({ forget: [], evict: [] });
  });

  it('ends the oldest when 50 are listed, so that the new one is the 50th', () => {
    expect(capSessions(listed(MAX_LIVE_SESSIONS), now)).toMatchObject({ forget: [], evict: ['ses_0'] });
  });

  it('brings a list that logins racing each other pushed past the limit back to 49 before the new one', () => {
    expect(capSessions(listed(MAX_LIVE_SESSIONS + 3), now).evict).toEqual(['ses_0', 'ses_1', 'ses_2', 'ses_3']);
  });

  it('forgets sessions past their 7 days (they ended by themselves) and does not count them', () => {
    const list = { ...listed(MAX_LIVE_SESSIONS - 1), ses_old: ago(7 * DAY), ses_older: ago(8 * DAY) };
    const cap = capSessions(list, now);
    expect(cap.forget.sort()).toEqual(['ses_old', 'ses_older']);
    expect(cap.evict).toEqual([]);
  });

  it('ends at most 25 at one login (the transaction stays small)', () => {
    expect(capSessions(listed(MAX_LIVE_SESSIONS + 100), now).evict).toHaveLength(25);
  });

  it('starts a list on a profile from before the list (null): nothing to end', () => {
    expect(capSessions(null, now)).toEqual({ listed: null, forget: [], evict: [] });
  });
});
