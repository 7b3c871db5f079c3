import { describe, expect, it } from 'vitest';
import { formatRefreshToken, hashRefreshSecret, parseRefreshToken } from '#shared/tokens/refresh-token.ts';

const userId = 'usr_0123456789abcdefghjk';
const sessionId = 'ses_0123456789abcdefghjk';
const secret = 'A'.repeat(43);

describe('refresh token format', () => {
  it('round-trips user, session and secret', () => {
    expect(parseRefreshToken(formatRefreshToken(userId, sessionId, secret))).toEqual({ userId, sessionId, secret });
  });

  it('refuses anything else: other prefixes, short secrets, key separators, extra parts', () => {
    for (const token of [
      `rt2.${userId}.${sessionId}.${secret}`,
      `rt1.${userId}.${sessionId}.${secret.slice(1)}`,
      `rt1.${userId}#x.${sessionId}.${secret}`,
      `rt1.${userId}.${sessionId}.${secret}.more`,
      '',
    ]) {
      expect(parseRefreshToken(token)).toBeNull();
    }
  });

  it('hashes secrets one-way and distinctly', () => {
    expect(hashRefreshSecret(secret)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRefreshSecret(secret)).not.toBe(hashRefreshSecret(`${secret.slice(1)}B`));
  });
});
