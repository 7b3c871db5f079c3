import { describe, expect, it } from 'vitest';
import { capSessions, listedEntry, MAX_CLIENT_SESSIONS, MAX_LIVE_SESSIONS } from '#shared/store/session-cap.ts';

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

  it("counts an OpenID client's sessions per client, 10 at most, and never ends another session for one", () => {
    const client = (name: string, count: number, offset = 0) =>
      Object.fromEntries(
        Array.from({ length: count }, (_, i) => [
          `${name}_${i}`,
          listedEntry(ago((offset + count - i) * 60_000), name),
        ]),
      );
    const list = { ...listed(MAX_LIVE_SESSIONS), ...client('cli_a', MAX_CLIENT_SESSIONS, 1000), ...client('cli_b', 3) };
    // A new session of cli_a: its oldest makes room; the 50 others and cli_b's stay.
    expect(capSessions(list, now, 'cli_a')).toMatchObject({ forget: [], evict: ['cli_a_0'] });
    expect(capSessions(list, now, 'cli_b').evict).toEqual([]);
    // A session no client holds: the 50 of its kind are counted, the clients' are not.
    expect(capSessions(list, now).evict).toEqual(['ses_0']);
    expect(capSessions({ ...client('cli_a', 30) }, now).evict).toEqual([]);
  });

  it("keeps a client's session listed up to 30 days (a client's refresh tokens may live that long)", () => {
    const list = { old: listedEntry(ago(20 * DAY), 'cli_a'), older: listedEntry(ago(31 * DAY), 'cli_a') };
    expect(capSessions(list, now, 'cli_a').forget).toEqual(['older']);
  });

  it('starts a list on a profile from before the list (null): nothing to end', () => {
    expect(capSessions(null, now)).toEqual({ listed: null, forget: [], evict: [] });
  });
});
