import { describe, expect, it } from 'vitest';
import { bundleSizeReport, bundleSizeVerdicts } from '#infra/bundle-budgets.ts';
import { recordedBundleSizes } from '#infra/bundle-sizes.ts';

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

  it('fails a 3 KB growth, and an unrecorded 3 KB shrink, of every bundle in the record', () => {
    const record = recordedBundleSizes();
    expect(Object.keys(record).length).toBeGreaterThan(60);
    for (const [id, bytes] of Object.entries(record)) {
      const grown = bundleSizeVerdicts(record, { ...record, [id]: bytes + 3 * KB });
      expect(grown.map((v) => [v.operationId, v.problem])).toEqual([[id, 'grew']]);
      const shrunk = bundleSizeVerdicts(record, { ...record, [id]: bytes - 3 * KB });
      expect(shrunk.map((v) => [v.operationId, v.problem])).toEqual([[id, 'shrank']]);
    }
  });

  it('fails a 3 KB shrink the record does not show', () => {
    const verdicts = bundleSizeVerdicts(recorded, { ...recorded, health: recorded.health - 3 * KB });
    expect(verdicts.map((v) => [v.operationId, v.problem])).toEqual([['health', 'shrank']]);
  });

  it('allows 2 % of a bundle over 100 KB, up to 2.5 KB: 2.4 KB of 120 KB passes, 2.6 KB of 320 KB does not', () => {
    expect(bundleSizeVerdicts(recorded, { ...recorded, signup: recorded.signup + 2.4 * KB })).toEqual([]);
    expect(bundleSizeVerdicts(recorded, { ...recorded, getMe: recorded.getMe + 2.4 * KB })).toEqual([]);
    expect(bundleSizeVerdicts(recorded, { ...recorded, getMe: recorded.getMe + 2.6 * KB })).toHaveLength(1);
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
