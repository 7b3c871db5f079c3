import { sameSecret } from '../crypto/same-secret.ts';
import type { Deps } from '../deps.ts';
import { describeError } from '../log.ts';
import { newId, type Random } from '../random.ts';
import { ADMIN_AUTHORITY, effectiveRoles } from '../roles/authority.ts';
import { apiKeyRepo } from '../store/api-key-repo.ts';
import type { TenantRef } from '../store/keys.ts';
import { userRepo } from '../store/user-repo.ts';
import { hashToken, newOpaqueToken } from './codes.ts';
import type { Principal } from './principal.ts';

/**
 * Admin API keys (`X-Api-Key`, docs/security.md#api-keys): shown once, stored as a
 * hash, ADMIN authority over their own tenant's admin endpoints only.
 *
 * Format: `sk_<keyId>_<secret>`, for example
 * `sk_key_0123456789abcdefghjk_q2Zb…` (7 + 20 + 1 + 43 = 71 characters):
 * - keyId is `key_` and 20 lower-case Crockford base32 characters (100 bits),
 *   which never include `_` or `#`: it names the stored item;
 * - secret is 32 CSPRNG bytes in base64url (43 characters, 256 bits), which
 *   may include `_` and `-`.
 * The keyId has a fixed length and alphabet, so one anchored pattern parses a
 * key; nothing is split at underscores.
 */
const KEY_ID = /^key_[0-9a-hjkmnp-tv-z]{20}$/;
const API_KEY = /^sk_(key_[0-9a-hjkmnp-tv-z]{20})_([A-Za-z0-9_-]{43})$/;
/** A key is exactly this long; anything longer is refused before any work. */
const API_KEY_LENGTH = 71;
/** `sk_key_` and the keyId's first 5 characters: enough to tell keys apart, nothing of the secret. */
export const KEY_PREFIX_LENGTH = 12;
/** `lastUsedAt` is written at most once a minute per key: most requests with a key write nothing. */
export const LAST_USED_EVERY_MS = 60_000;

export interface NewApiKey {
  keyId: string;
  /** The whole key, for the one answer that shows it. */
  key: string;
  /** SHA-256 (hex) of the secret: the only form of it that is stored. */
  secretHash: string;
  keyPrefix: string;
}

/** A fresh key: its id from `random` (base32, no `_`), its secret 256 bits from the CSPRNG. */
export function newApiKey(random: Random): NewApiKey {
  const keyId = newId(random, 'key');
  const secret = newOpaqueToken();
  const key = `sk_${keyId}_${secret}`;
  if (!API_KEY.test(key)) throw new Error('generated an API key outside its own format');
  return { keyId, key, secretHash: hashToken(secret), keyPrefix: key.slice(0, KEY_PREFIX_LENGTH) };
}

/** The keyId and secret of a well-formed key; null for anything else. */
export function parseApiKey(key: string): { keyId: string; secret: string } | null {
  if (typeof key !== 'string' || key.length !== API_KEY_LENGTH) return null;
  const match = API_KEY.exec(key);
  if (!match?.[1] || !match[2]) return null;
  return { keyId: match[1], secret: match[2] };
}

/** Whether a path parameter can name a key at all (`#` and the like never reach a key builder). */
export function isApiKeyId(value: string): boolean {
  return KEY_ID.test(value);
}

/**
 * Whether the presented secret's hash is the stored one. Constant time
 * (sameSecret), so the answer's timing says nothing about how many leading
 * bytes matched; a stored value that is not a SHA-256 hex digest never matches.
 */
export function secretHashMatches(storedHash: string, presentedHash: string): boolean {
  const stored = Buffer.from(typeof storedHash === 'string' ? storedHash : '', 'hex');
  const presented = Buffer.from(presentedHash, 'hex');
  return stored.length === 32 && sameSecret(stored, presented);
}

/**
 * The `X-Api-Key` check of admin routes: the key's item is read in the
 * REQUEST's tenant, so a key of another tenant is simply not found (null,
 * hence 401 UNAUTHENTICATED). A good key acts with the
 * lesser of ADMIN and its creator's current authority, and only while its
 * creator is ACTIVE and holds ADMIN or more: a dismissed
 * admin's keys die with their standing. Its use is
 * recorded in `lastUsedAt` at most once a minute.
 */
export async function authenticateApiKey(deps: Deps, key: string, tenant: TenantRef): Promise<Principal | null> {
  const parsed = parseApiKey(key.trim());
  if (!parsed) return null;
  // Hashed before the lookup, so an unknown keyId costs the same work as a known one.
  const presentedHash = hashToken(parsed.secret);
  const keys = apiKeyRepo(deps.store);
  const stored = await keys.get(tenant, parsed.keyId);
  if (!stored || stored.revokedAt !== null || !secretHashMatches(stored.secretHash, presentedHash)) return null;
  const authority = await creatorAuthority(deps, tenant, stored.createdBy);
  if (authority === null) return null;

  const now = deps.clock.now();
  const lastUsed = stored.lastUsedAt === null ? Number.NEGATIVE_INFINITY : Date.parse(stored.lastUsedAt);
  if (!(now.getTime() - lastUsed < LAST_USED_EVERY_MS)) {
    try {
      await keys.touch(tenant, stored.keyId, now, LAST_USED_EVERY_MS);
    } catch (error) {
      // Bookkeeping only: a key that checked out is not refused because its use could not be recorded.
      deps.log.error('api key use not recorded', { keyId: stored.keyId, ...describeError(error) });
    }
  }
  return { kind: 'apiKey', keyId: stored.keyId, authority };
}

/**
 * The authority a key may act with, read from its creator now: null when the
 * creator is gone, not ACTIVE, or below ADMIN. Keys recorded as made by a key
 * (`apikey:<id>`, before keys could no longer make keys) have no user behind
 * them: they answer null too.
 */
async function creatorAuthority(deps: Deps, tenant: TenantRef, createdBy: string): Promise<number | null> {
  const creator = createdBy.startsWith('usr_') ? await userRepo(deps.store).get(tenant, createdBy) : null;
  if (creator?.status !== 'ACTIVE') return null;
  const { authority } = effectiveRoles(creator, deps.clock.now());
  if (authority > ADMIN_AUTHORITY) return null;
  // The lesser of the two: a SUPER_ADMIN's key still acts as ADMIN only.
  return Math.max(authority, ADMIN_AUTHORITY);
}
