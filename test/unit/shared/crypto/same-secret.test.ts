import { describe, expect, it } from 'vitest';
import { sameSecret } from '#shared/crypto/same-secret.ts';

describe('sameSecret', () => {
  it('is true for the same bytes, false for any other, and false (not a throw) for another length', () => {
    const secret = Buffer.from('0123456789abcdef');
    expect(sameSecret(secret, Buffer.from('0123456789abcdef'))).toBe(true);
    expect(sameSecret(secret, Buffer.from('0123456789abcdeF'))).toBe(false);
    expect(sameSecret(secret, Buffer.from('0123456789abcde'))).toBe(false);
    expect(sameSecret(Buffer.alloc(0), Buffer.alloc(0))).toBe(true);
  });
});
