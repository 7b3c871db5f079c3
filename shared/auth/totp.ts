import { createHash } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import type { Random } from '../random.ts';

/** RFC 6238 as we use it: SHA-1, 6 digits, 30 s steps, ±1 step accepted. */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
const WINDOW = 1;

function totp(secretBase32: string, issuer = '', label = ''): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

/** A new 160-bit secret, base32. */
export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

/**
 * Key-uri format: the label is `issuer:account` and neither part may hold a
 * colon, raw or encoded (apps split the label at the first one, so `Acme:
 * Plants` would show as issuer `Acme`, account `Plants:a@b.test`). A colon
 * becomes a space; runs of spaces become one.
 */
function withoutColons(text: string): string {
  return text.replace(/:/g, ' ').replace(/\s+/g, ' ').trim();
}

/** The otpauth:// URI an authenticator app scans, with the tenant's name as issuer. */
export function totpUri(secretBase32: string, issuer: string, accountName: string): string {
  return totp(secretBase32, withoutColons(issuer), withoutColons(accountName)).toString();
}

/**
 * The time step a code belongs to, if it is valid now (±1 step), else null.
 * The caller accepts a step only once (users.acceptTotpStep), which refuses replays.
 */
export function totpStepOf(secretBase32: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secretBase32).validate({ token: code, timestamp: now.getTime(), window: WINDOW });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

/** The code of a secret at an instant (tests, and the client side of enrolment). */
export function totpCodeAt(secretBase32: string, at: Date): string {
  return totp(secretBase32).generate({ timestamp: at.getTime() });
}

/** Characters of a backup code: 24 of base32, 120 bits (ASVS 6.5.2: 112 or more, so a fast hash is enough). */
const BACKUP_CODE_CHARS = 24;
/** Codes issued before (12 characters, `k3m9-x2pq-7hcd`, 60 bits), stored with an unsalted hash. */
const LEGACY_BACKUP_CODE_CHARS = 12;
/** Crockford base32 as `random.token` draws it (no i, l, o, u). */
const CODE_CHARACTER = '[0-9a-hjkmnp-tv-z]';
/** Stored hashes of the current codes carry this prefix: a hash without it is a legacy code's. */
const SALTED_PREFIX = 'v2:';

/**
 * New backup codes: 24 lower-case Crockford base32 characters in 4 groups of 6
 * (`k3m9x2-pq7hcd-…`), 120 bits each, shown once, single use.
 */
export function newBackupCodes(random: Random, count = 10): string[] {
  return Array.from({ length: count }, () => random.token(BACKUP_CODE_CHARS).match(/.{6}/g)?.join('-') ?? '');
}

/** A code as typed: any case, dashes and spaces anywhere, and Crockford's look-alikes (o → 0, i and l → 1). */
function normalised(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '').replace(/o/g, '0').replace(/[il]/g, '1');
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * What a backup code is stored as: SHA-256 over `backup:<userId>:<code>`, the
 * user id salting it, so one precomputation no longer covers every user's codes.
 */
export function hashBackupCode(userId: string, code: string): string {
  return `${SALTED_PREFIX}${sha256(`backup:${userId}:${normalised(code)}`)}`;
}

/**
 * The stored hash a presented code would match, or null when it is no backup
 * code (a TOTP code, say). A code of the legacy format matches its legacy
 * unsalted hash: users who enrolled before the 120-bit codes keep theirs until
 * they use them up or enrol again. That fallback can go once no profile holds
 * a `backupCodes` (or `totpPendingBackupCodes`) key without the `v2:` prefix.
 */
export function storedBackupCodeHash(userId: string, presented: string): string | null {
  const code = normalised(presented);
  if (new RegExp(`^${CODE_CHARACTER}{${BACKUP_CODE_CHARS}}$`).test(code)) return hashBackupCode(userId, code);
  if (new RegExp(`^${CODE_CHARACTER}{${LEGACY_BACKUP_CODE_CHARS}}$`).test(code)) return sha256(`backup:${code}`);
  return null;
}

/** The vault context that binds an encrypted TOTP secret to its user. */
export const totpSecretContext = (userId: string) => ({ purpose: 'totp', userId });
