import { createHmac, randomBytes } from 'node:crypto';
import type { Deps } from '../deps.ts';
import { rootOf, type StoreClient } from '../store/client.ts';
import { keys } from '../store/keys.ts';
import type { ItemKey } from '../store/prefetch.ts';
import { refreshMacKeyRepo } from '../store/refresh-mac-key-repo.ts';

/**
 * The successor of a refresh token is derived, not drawn: HMAC-SHA256 of the
 * presented token under a server key. So a token used again within the grace
 * (another tab, a retry, a lost race) is answered the very successor the first
 * use got, and every holder continues one chain
 * (docs/security.md#refresh-tokens-rotation-and-reuse), while the table still holds only the successor's
 * SHA-256 (as `refreshHash`), never the successor itself: recomputing it needs
 * the presented secret and the key, which the vault (KMS on AWS) alone reads back.
 */

export type RefreshMacDeps = Pick<Deps, 'store' | 'vault' | 'clock'>;

/** The encryption context of the key: it decrypts only as this key, and only for functions granted `refresh-mac`. */
const VAULT_CONTEXT = { purpose: 'refresh-mac', key: 'REFRESH_MAC' } as const;
const KEY_BYTES = 32;

interface MacKeyCache {
  key?: Buffer;
  loading?: Promise<Buffer>;
}

/** Per process (Lambda cold start) and per table client, as the signing keys are cached. */
const caches = new WeakMap<StoreClient, MacKeyCache>();

function cacheOf(view: StoreClient): MacKeyCache {
  const store = rootOf(view);
  let cache = caches.get(store);
  if (!cache) {
    cache = {};
    caches.set(store, cache);
  }
  return cache;
}

/**
 * The key's item, for the refresh route's prefetch (read with the tenant, so a cold start costs
 * no round trip of its own), until this process holds the key; afterwards nothing.
 */
export function refreshMacPrefetch(store: StoreClient): ItemKey[] {
  return cacheOf(store).key ? [] : [keys.refreshMacKey];
}

async function loadKey(deps: RefreshMacDeps): Promise<Buffer> {
  const repo = refreshMacKeyRepo(deps.store);
  let stored = await repo.get();
  if (!stored) {
    // First use anywhere: a random key, stored only encrypted. Cold starts racing here converge
    // on the one stored first (conditional put); the losers read it back.
    const fresh = randomBytes(KEY_BYTES);
    const encryptedKey = await deps.vault.encrypt(fresh, VAULT_CONTEXT);
    const outcome = await repo.create({ encryptedKey, createdAt: deps.clock.now().toISOString() });
    if (outcome === 'CREATED') return fresh;
    fresh.fill(0);
    stored = await repo.get();
    if (!stored) throw new Error('no refresh MAC key after losing the race to create it');
  }
  const plaintext = await deps.vault.decrypt(stored.encryptedKey, VAULT_CONTEXT);
  if (plaintext.length !== KEY_BYTES) throw new Error('the stored refresh MAC key has the wrong length');
  return Buffer.from(plaintext);
}

/**
 * The server key, decrypted once per process (it never changes) and made on first use.
 *
 * @example
 * const key = await refreshMacKey(deps);
 * const next = successorSecret(key, userId, sessionId, secret);
 */
export async function refreshMacKey(deps: RefreshMacDeps): Promise<Buffer> {
  const cache = cacheOf(deps.store);
  if (cache.key) return cache.key;
  cache.loading ??= loadKey(deps)
    .then((key) => {
      cache.key = key;
      return key;
    })
    .finally(() => {
      cache.loading = undefined;
    });
  return cache.loading;
}

/**
 * The secret of the token that follows `secret` in its session: 43 base64url characters (256
 * bits), the shape of a drawn secret. Bound to the user and session, so one secret never
 * derives the same successor in two places. The label stays `rt1-successor` for `rt2` tokens: a chain that began
 * as `rt1` goes on as `rt2`, and recognising its older tokens derives them forward the same way.
 */
export function successorSecret(key: Buffer, userId: string, sessionId: string, secret: string): string {
  return createHmac('sha256', key)
    .update(`rt1-successor\u0000${userId}\u0000${sessionId}\u0000${secret}`)
    .digest('base64url');
}
