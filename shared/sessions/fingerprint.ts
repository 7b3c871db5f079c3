import { createHash } from 'node:crypto';

/** Real User-Agents are a few hundred characters; more would be stored for nothing. */
export const MAX_USER_AGENT_LENGTH = 1024;

export function normaliseUserAgent(userAgent: string): string {
  return (typeof userAgent === 'string' ? userAgent : '').trim().slice(0, MAX_USER_AGENT_LENGTH);
}

/**
 * 32 hex characters that stay the same for the same browser on the same
 * machine: a hash of the User-Agent, which every server already sees. Coarse
 * by design: not a tracker, it identifies no person; it lets a user's devices
 * be listed and a new one noticed. A browser update counts as a new device.
 *
 * Apart from the parser (./device.ts) so that logging in needs no User-Agent
 * parser: browser and OS names are derived when sessions and devices are listed.
 */
export function deviceFingerprint(userAgent: string): string {
  return createHash('sha256').update(normaliseUserAgent(userAgent)).digest('hex').slice(0, 32);
}
