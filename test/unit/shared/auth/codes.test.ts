import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { codeMatches, hashCode, hashToken, newEmailCode, newOpaqueToken } from '#shared/auth/codes.ts';

describe('newEmailCode', () => {
  it('gives 6 digits, zero-padded, spread over the whole range', () => {
    const codes = Array.from({ length: 10_000 }, () => newEmailCode());
    expect(codes.every((code) => /^\d{6}$/.test(code))).toBe(true);
    // P(no leading zero in 10,000 uniform codes) = 0.9^10000: never.
    expect(codes.some((code) => code.startsWith('0'))).toBe(true);
    // Each first digit should get about 1,000; 700 is more than 10 standard deviations away.
    const firstDigits = new Map<string, number>();
    for (const code of codes) firstDigits.set(code[0] ?? '', (firstDigits.get(code[0] ?? '') ?? 0) + 1);
    expect(firstDigits.size).toBe(10);
    for (const count of firstDigits.values()) expect(count).toBeGreaterThan(700);
    // 10,000 draws from 10^6 values: about 50 repeats expected, far fewer than 500.
    expect(new Set(codes).size).toBeGreaterThan(9_500);
  });
});

describe('hashCode', () => {
  it('is SHA-256 hex over salt + code', () => {
    const expected = createHash('sha256').update('chl_abc123456').digest('hex');
    expect(hashCode('123456', 'chl_abc')).toBe(expected);
    expect(hashCode('123456', 'chl_abc')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('hashes one code differently in two challenges', () => {
    expect(hashCode('123456', 'chl_one')).not.toBe(hashCode('123456', 'chl_two'));
  });
});

describe('codeMatches', () => {
  const salt = 'chl_9x3k';
  const stored = hashCode('042917', salt);

  it('accepts the code of this challenge', () => {
    expect(codeMatches(stored, '042917', salt)).toBe(true);
  });

  it('refuses another code, or the right code with another challenge id', () => {
    expect(codeMatches(stored, '042918', salt)).toBe(false);
    expect(codeMatches(stored, '42917', salt)).toBe(false);
    expect(codeMatches(stored, '042917', 'chl_other')).toBe(false);
  });

  it.each([
    ['an empty stored hash', '', '042917', salt],
    ['a stored hash that is not hex', 'z'.repeat(64), '042917', salt],
    ['a truncated stored hash', stored.slice(0, 63), '042917', salt],
    ['an upper-case stored hash', stored.toUpperCase(), '042917', salt],
    ['an empty code', stored, '', salt],
    ['an empty salt', stored, '042917', ''],
    ['an oversized code', stored, '1'.repeat(10_000), salt],
  ])('answers false, without throwing, for %s', (_, hash, code, challengeSalt) => {
    expect(codeMatches(hash, code, challengeSalt)).toBe(false);
  });

  it('answers false for values that are not strings (untyped input)', () => {
    expect(codeMatches(undefined as unknown as string, '042917', salt)).toBe(false);
    expect(codeMatches(stored, 42917 as unknown as string, salt)).toBe(false);
    expect(codeMatches(stored, '042917', null as unknown as string)).toBe(false);
  });
});

describe('newOpaqueToken', () => {
  it('gives 32 random bytes as base64url by default', () => {
    const token = newOpaqueToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(newOpaqueToken()).not.toBe(token);
  });

  it('takes another size, but never fewer than 16 bytes', () => {
    expect(Buffer.from(newOpaqueToken(48), 'base64url')).toHaveLength(48);
    expect(() => newOpaqueToken(8)).toThrow(RangeError);
    expect(() => newOpaqueToken(16.5)).toThrow(RangeError);
  });
});

describe('hashToken', () => {
  it('is the SHA-256 hex of the token, the same every time', () => {
    const token = newOpaqueToken();
    expect(hashToken(token)).toBe(createHash('sha256').update(token).digest('hex'));
    expect(hashToken(token)).toBe(hashToken(token));
    expect(hashToken(token)).not.toBe(hashToken(newOpaqueToken()));
  });
});
