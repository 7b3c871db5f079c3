import { createHash } from 'node:crypto';

/** A rotated token used again within this grace is a lost race, not a theft. */
export const REFRESH_REUSE_GRACE_MS = 10_000;

export interface RefreshToken {
  userId: string;
  sessionId: string;
  /** Its place in the session's chain: 0 at login, one more at each rotation (0 for a token of the `rt1` format). */
  generation: number;
  secret: string;
  /** Issued before generations were counted (`rt1`): refresh-chain.ts places it. */
  legacy: boolean;
}

/**
 * `rt2.<userId>.<sessionId>.<generation>.<secret>`: the ids say where the
 * session is, the generation where in its chain of rotations; the 256-bit
 * secret is what proves possession, and only its SHA-256 is stored.
 */
export function formatRefreshToken(userId: string, sessionId: string, generation: number, secret: string): string {
  return `rt2.${userId}.${sessionId}.${generation}.${secret}`;
}

const ID = '(usr_[0-9a-z]{20})\\.(ses_[0-9a-z]{20})';
const SECRET = '([A-Za-z0-9_-]{43})';
const CURRENT_FORMAT = new RegExp(`^rt2\\.${ID}\\.(0|[1-9][0-9]{0,8})\\.${SECRET}$`);
/** Tokens issued before the generation was counted keep working until they rotate into `rt2`. */
const LEGACY_FORMAT = new RegExp(`^rt1\\.${ID}\\.${SECRET}$`);

export function parseRefreshToken(token: string): RefreshToken | null {
  const current = CURRENT_FORMAT.exec(token);
  if (current?.[1] && current[2] && current[3] && current[4]) {
    return {
      userId: current[1],
      sessionId: current[2],
      generation: Number(current[3]),
      secret: current[4],
      legacy: false,
    };
  }
  const legacy = LEGACY_FORMAT.exec(token);
  if (legacy?.[1] && legacy[2] && legacy[3]) {
    return { userId: legacy[1], sessionId: legacy[2], generation: 0, secret: legacy[3], legacy: true };
  }
  return null;
}

export function hashRefreshSecret(secret: string): string {
  return createHash('sha256').update(`refresh:${secret}`).digest('hex');
}
