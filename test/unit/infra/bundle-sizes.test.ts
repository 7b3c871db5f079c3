import { describe, expect, it } from 'vitest';
import { bundleSizeReport, bundleSizeVerdicts } from '#infra/bundle-budgets.ts';

// The check that holds every bundle to its recorded size (test/infra/bundles.test.ts), checked itself.
const recorded = { health: 70_000, getMe: 320_000, signup: 130_000 };
const KB = 1024;

describe('bundleSizeVerdicts', () => {
  it('passes sizes as recorded, and any bundle grown or shrunk by 1 KB', () => {
    expect(bundleSizeVerdicts(recorded, recorded)).toEqual([]);
    for (const id of Object.keys(recorded) as (keyof typeof recorded)[]) {
      expect(bundleSizeVerdicts(recorded, { ...recorded, [id]: recorded[id] + KB })).toEqual([]);
      expect(bundleSizeVerdicts(recorded, { ...recorded, [id]: recorded[id] - KB })).toEqual([]);
    }
  });

  it('fails any bundle under 150 KB grown by 3 KB (2 KB is the tolerance up to 100 KB, 2 % above)', () => {
    for (const id of ['health', 'signup'] as const) {
      const verdicts = bundleSizeVerdicts(recorded, { ...recorded, [id]: recorded[id] + 3 * KB });
      expect(verdicts.map((v) => [v.operationId, v.problem])).toEqual([[id, 'grew']]);
    }
  });

  it('fails a 3 KB shrink the record does not show', () => {
    const verdicts = bundleSizeVerdicts(recorded, { ...recorded, health: recorded.health - 3 * KB });
    expect(verdicts.map((v) => [v.operationId, v.problem])).toEqual([['health', 'shrank']]);
  });

  it('allows 2 % of a large bundle: 6 KB of 320 KB passes, 7 KB does not', () => {
    expect(bundleSizeVerdicts(recorded, { ...recorded, getMe: recorded.getMe + 6 * KB })).toEqual([]);
    expect(bundleSizeVerdicts(recorded, { ...recorded, getMe: recorded.getMe + 7 * KB })).toHaveLength(1);
  });

  it('fails a new route with no record, and a recorded route that is gone', () => {
    const { signup: _gone, ...withoutSignup } = recorded;
    const verdicts = bundleSizeVerdicts(recorded, { ...withoutSignup, newRoute: 90_000 });
    expect(verdicts.map((v) => [v.operationId, v.problem])).toEqual([
      ['newRoute', 'unrecorded'],
      ['signup', 'gone'],
    ]);
  });

  it('says what to run and what to explain', () => {
    const report = bundleSizeReport(bundleSizeVerdicts(recorded, { ...recorded, health: recorded.health + 3 * KB }));
    expect(report).toContain('health: 68.4 KB recorded, 71.4 KB now (+3.0 KB)');
    expect(report).toContain('npm run bundles');
    expect(report).toContain('why a bundle grew');
  });
});
