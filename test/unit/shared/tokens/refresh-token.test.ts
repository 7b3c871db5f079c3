import { describe, expect, it } from 'vitest';
import { formatRefreshToken, hashRefreshSecret, parseRefreshToken } from '#shared/tokens/refresh-token.ts';

const userId = 'usr_0123456789abcdefghjk';
const sessionId = 'ses_0123456789abcdefghjk';
const secret = 'A'.repeat(43);

describe('refresh token format', () => {
  it('round-trips user, session, generation and secret', () => {
    for (const generation of [0, 1, 987_654_321]) {
      expect(parseRefreshToken(formatRefreshToken(userId, sessionId, generation, secret))).toEqual({
        userId,
        sessionId,
        generation,
        secret,
        legacy: false,
      });
    }
  });

  it('still reads tokens issued before the generation was counted (rt1), as generation 0', () => {
    expect(parseRefreshToken(`rt1.${userId}.${sessionId}.${secret}`)).toEqual({
      userId,
      sessionId,
      generation: 0,
      secret,
      legacy: true,
    });
  });

  it('refuses anything else: other prefixes, short secrets, key separators, odd generations, extra parts', () => {
    for (const token of [
      `rt3.${userId}.${sessionId}.0.${secret}`,
      `rt2.${userId}.${sessionId}.${secret}`,
      `rt2.${userId}.${sessionId}.0.${secret.slice(1)}`,
      `rt2.${userId}#x.${sessionId}.0.${secret}`,
      `rt2.${userId}.${sessionId}.01.${secret}`,
      `rt2.${userId}.${sessionId}.-1.${secret}`,
      `rt2.${userId}.${sessionId}.1234567890.${secret}`,
      `rt2.${userId}.${sessionId}.0.${secret}.more`,
      `rt1.${userId}.${sessionId}.0.${secret}`,
      `rt1.${userId}.${sessionId}.${secret.slice(1)}`,
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
