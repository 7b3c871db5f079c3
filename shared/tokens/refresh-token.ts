import { createHash } from 'node:crypto';

/** A rotated token used again within this grace is a lost race, not a theft. */
export const REFRESH_REUSE_GRACE_MS = 10_000;

/**
 * `rt1.<userId>.<sessionId>.<secret>`: the ids say where the session is; the
 * 256-bit secret is what proves possession, and only its SHA-256 is stored.
 */
export function formatRefreshToken(userId: string, sessionId: string, secret: string): string {
  return `rt1.${userId}.${sessionId}.${secret}`;
}

export function parseRefreshToken(token: string): { userId: string; sessionId: string; secret: string } | null {
  const match = /^rt1\.(usr_[0-9a-z]{20})\.(ses_[0-9a-z]{20})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match?.[1] || !match[2] || !match[3]) return null;
  return { userId: match[1], sessionId: match[2], secret: match[3] };
}

export function hashRefreshSecret(secret: string): string {
  return createHash('sha256').update(`refresh:${secret}`).digest('hex');
}
