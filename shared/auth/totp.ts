import { createHash } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import type { Random } from '../random.ts';

/** RFC 6238 as CONTRACT.md fixes it: SHA-1, 6 digits, 30 s steps, ±1 step accepted. */
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

/** Backup codes look like `k3m9-x2pq-7hcd`: unambiguous, easy to type. */
export function newBackupCodes(random: Random, count = 10): string[] {
  return Array.from({ length: count }, () => random.token(12).replace(/(.{4})(.{4})(.{4})/, '$1-$2-$3'));
}

/** Backup codes are stored only as SHA-256 hashes (60 bits of entropy each, single use). */
export function hashBackupCode(code: string): string {
  const normalised = code.toLowerCase().replace(/[\s-]/g, '');
  return createHash('sha256').update(`backup:${normalised}`).digest('hex');
}

export function looksLikeBackupCode(code: string): boolean {
  return /^[0-9a-z]{4}-?[0-9a-z]{4}-?[0-9a-z]{4}$/i.test(code.trim());
}

/** The vault context that binds an encrypted TOTP secret to its user. */
export const totpSecretContext = (userId: string) => ({ purpose: 'totp', userId });
