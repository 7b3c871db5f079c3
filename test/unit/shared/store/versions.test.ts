import { describe, expect, it } from 'vitest';
import { nextUpdatedAt } from '#shared/store/versions.ts';

describe('nextUpdatedAt: the version stamp of a change', () => {
  it('is now when now is later than the previous stamp', () => {
    expect(nextUpdatedAt(new Date('2026-11-28T10:00:00.000Z'), '2026-11-28T09:00:00.000Z')).toBe(
      '2026-11-28T10:00:00.000Z',
    );
  });

  it('is a millisecond after the previous stamp when now is not later (same millisecond, or a clock behind)', () => {
    expect(nextUpdatedAt(new Date('2026-11-28T10:00:00.000Z'), '2026-11-28T10:00:00.000Z')).toBe(
      '2026-11-28T10:00:00.001Z',
    );
    expect(nextUpdatedAt(new Date('2026-11-28T09:59:59.000Z'), '2026-11-28T10:00:00.000Z')).toBe(
      '2026-11-28T10:00:00.001Z',
    );
  });

  it('is now when the previous stamp is not a date', () => {
    expect(nextUpdatedAt(new Date('2026-11-28T10:00:00.000Z'), 'garbage')).toBe('2026-11-28T10:00:00.000Z');
  });
});
