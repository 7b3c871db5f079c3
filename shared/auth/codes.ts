import { createHash, randomBytes, randomInt } from 'node:crypto';
import { sameSecret } from '../crypto/same-secret.ts';

/**
 * One-time e-mail codes (sign-up, login, password reset, e-mail change) and
 * opaque bearer-style tokens (invitations, refresh tokens). Only hashes are
 * stored: a database read never yields a usable code or token.
 */

const SHA256_HEX = /^[0-9a-f]{64}$/;
/** Longer than any code or token we issue; bounds the work an attacker can make us hash. */
const MAX_SECRET_LENGTH = 512;

/** A 6-digit e-mail code, uniform over 000000–999999 (randomInt avoids the modulo bias of `bytes % n`). */
export function newEmailCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/**
 * SHA-256 (hex) over `salt + code`. The salt is the challenge id, so one code
 * in two challenges hashes differently and a table of precomputed hashes is
 * useless. A 6-digit code has only 10^6 values, so its hash is no secret
 * against someone holding the table: what protects a code is its 10-minute
 * life, single use and the 5-tries limit, not the hash.
 */
export function hashCode(code: string, salt: string): string {
  return createHash('sha256').update(salt).update(code).digest('hex');
}

/**
 * Whether `code` is the one hashed into `storedHash` for this challenge.
 * Compared in constant time, so response timing says nothing about how many
 * leading bytes matched. Malformed input (wrong types, empty, oversized, a
 * stored value that is not a SHA-256 hex digest) answers false, never throws.
 */
export function codeMatches(storedHash: string, code: string, salt: string): boolean {
  if (typeof storedHash !== 'string' || typeof code !== 'string' || typeof salt !== 'string') return false;
  if (!SHA256_HEX.test(storedHash) || code.length === 0 || salt.length === 0) return false;
  if (code.length > MAX_SECRET_LENGTH || salt.length > MAX_SECRET_LENGTH) return false;
  const expected = Buffer.from(storedHash, 'hex');
  const actual = Buffer.from(hashCode(code, salt), 'hex');
  return sameSecret(expected, actual);
}

/** Fewer random bytes than this would not justify the unsalted hash below. */
const MIN_TOKEN_BYTES = 16;

/** An opaque token: `bytes` from the CSPRNG (256 bits by default), base64url (URL- and header-safe). */
export function newOpaqueToken(bytes = 32): string {
  if (!Number.isInteger(bytes) || bytes < MIN_TOKEN_BYTES) {
    throw new RangeError(`an opaque token needs at least ${MIN_TOKEN_BYTES} random bytes`);
  }
  return randomBytes(bytes).toString('base64url');
}

/**
 * SHA-256 (hex) of an opaque token, the value stored and looked up. No salt
 * and no slow hash: a token of 128+ random bits cannot be guessed or found in
 * a precomputed table, unlike a password or a 6-digit code, so a fast
 * deterministic hash is safe and lets the store find a token by its hash.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
