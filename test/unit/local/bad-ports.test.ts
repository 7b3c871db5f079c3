import { describe, expect, it } from 'vitest';
import { BAD_PORTS, badPortWarnings } from '#local/bad-ports.ts';

describe("the ports browsers refuse (the Fetch standard's bad ports)", () => {
  it('holds X11, the IRC ports and Amanda among the 83 the standard lists, and none of the stack’s defaults', () => {
    expect(BAD_PORTS.size).toBe(83);
    for (const port of [6000, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080, 4190, 5060, 2049, 25, 22]) {
      expect(BAD_PORTS.has(port), String(port)).toBe(true);
    }
    for (const port of [3000, 3001, 8000, 8005, 5173, 8080, 6001, 6670, 10081]) {
      expect(BAD_PORTS.has(port), String(port)).toBe(false);
    }
  });

  it('gives npm start one warning line per refused port, naming its setting and a port that works', () => {
    expect(badPortWarnings({ PORT: 3000, PLANTS_PORT: 3001, SES_PORT: 8005 })).toEqual([]);
    const warnings = badPortWarnings({ PORT: 6000, PLANTS_PORT: 3001, SES_PORT: 6667 });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^warning: PORT=6000 is a port browsers refuse to connect to .*PORT=6001\.$/);
    expect(warnings[1]).toMatch(/^warning: SES_PORT=6667 .*SES_PORT=6670\.$/);
    expect(badPortWarnings({ PORT: 10080 })[0]).toContain('PORT=10081');
    expect(badPortWarnings({ PORT: 25 })[0]).toContain('PORT=1024');
    for (const line of warnings) expect(line).not.toContain('\n');
  });
});
