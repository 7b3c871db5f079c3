import { type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import type { Deps } from '../deps.ts';
import { newId } from '../random.ts';
import { rootOf, type StoreClient } from '../store/client.ts';
import { type PublicJwk, type StoredSigningKey, signingKeyRepo } from '../store/signing-key-repo.ts';

/**
 * The ES256 keys that sign access tokens: one issuer for every tenant. Each
 * key is an item in the `KEYS` partition; its private half is stored only
 * encrypted by the key vault (KMS on AWS), bound to its kid, so a table read
 * alone never yields a signing key.
 */

export type SigningKeyDeps = Pick<Deps, 'store' | 'vault' | 'clock' | 'random'>;

export type { PublicJwk };

type StoredKey = StoredSigningKey;

/**
 * A retired key stays published this long: well past the 15-minute token
 * lifetime plus the 5 minutes another process may still sign with a cached key,
 * so tokens in flight keep verifying through a rotation.
 */
export const RETIRED_KEY_PUBLISHED_MS = 60 * 60 * 1000;
/** The decrypted active key is kept this long per process: a login costs no KMS call. */
const ACTIVE_KEY_CACHE_MS = 5 * 60 * 1000;
/** The key list is kept this long per process: verifying a token usually costs no read. */
const PUBLIC_KEYS_CACHE_MS = 60 * 1000;
/**
 * A list that lacks something (a token's kid, any key at all) is read again at most this often
 * per process, as jose's remote key set cools down: forged kids cannot hammer the one `KEYS`
 * partition every function reads. A key another process made is still learnt within this time.
 */
const UNKNOWN_KID_COOLDOWN_MS = 30 * 1000;
/**
 * The JWK Set is answered from a list at most this old. Resource servers fetch
 * it when they meet a kid they do not know, and cache a miss (jose: 30 s): a
 * list a minute old would refuse new tokens for that long after another
 * process rotated. One second keeps that gap negligible while a flood of JWKS
 * requests costs at most one read a second per process (reads are shared).
 */
const JWKS_MAX_AGE_MS = 1000;
/** The encryption context of a private key: it decrypts only as the key it was stored for. */
const vaultContext = (kid: string) => ({ purpose: 'jwt-signing', kid });
/** Kids are ours (`key_<base32>`); anything else in a token header is not worth a table read. */
const KID_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;

interface KeyCache {
  list?: { keys: StoredKey[]; loadedAt: number };
  loading?: Promise<StoredKey[]>;
  active?: { kid: string; privateKey: CryptoKey; loadedAt: number };
  activating?: Promise<{ kid: string; privateKey: CryptoKey }>;
  /** When a list lacking something was last read again (the cooldown's start). */
  rereadAt?: number;
  verifiers: Map<string, Promise<CryptoKey>>;
}

/** Per process (Lambda cold start) and per table client: `processDeps()` builds one store per process. */
const caches = new WeakMap<StoreClient, KeyCache>();

function cacheOf(view: StoreClient): KeyCache {
  // A request's view of the store (with what it prefetched) shares its process client's cache.
  const store = rootOf(view);
  let cache = caches.get(store);
  if (!cache) {
    cache = { verifiers: new Map() };
    caches.set(store, cache);
  }
  return cache;
}

function isPublished(key: StoredKey, now: number): boolean {
  return key.retiredAt === null || Date.parse(key.retiredAt) + RETIRED_KEY_PUBLISHED_MS > now;
}

/**
 * The newest key not retired. Two cold starts racing may each create one:
 * every process then converges on the same key (createdAt, then kid).
 */
function newestActive(list: readonly StoredKey[]): StoredKey | undefined {
  return list
    .filter((k) => k.retiredAt === null)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.kid.localeCompare(a.kid))[0];
}

/** A new key pair: the item to store (private half encrypted) and the private key to sign with. */
async function newKey(deps: SigningKeyDeps): Promise<{ stored: StoredKey; privateKey: CryptoKey }> {
  const kid = newId(deps.random, 'key');
  const pair = await generateKeyPair('ES256', { extractable: true });
  const { kty, crv, x, y } = await exportJWK(pair.publicKey);
  if (kty !== 'EC' || crv !== 'P-256' || !x || !y) throw new Error('unexpected ES256 public key');
  const publicJwk: PublicJwk = { kty: 'EC', crv: 'P-256', x, y, kid, alg: 'ES256', use: 'sig' };
  const privateJwk = await exportJWK(pair.privateKey);
  const plaintext = Buffer.from(JSON.stringify(privateJwk), 'utf8');
  // Never stored in clear: only the vault (KMS, granted to the signing functions) can read it back.
  const encryptedPrivateKey = await deps.vault.encrypt(plaintext, vaultContext(kid));
  plaintext.fill(0);
  // Signing needs no export: keep a non-extractable copy in memory.
  const privateKey = (await importJWK(privateJwk, 'ES256', { extractable: false })) as CryptoKey;
  return {
    stored: {
      kid,
      publicJwk,
      encryptedPrivateKey,
      createdAt: deps.clock.now().toISOString(),
      retiredAt: null,
    },
    privateKey,
  };
}

async function decryptKey(deps: SigningKeyDeps, key: StoredKey): Promise<CryptoKey> {
  const plaintext = await deps.vault.decrypt(key.encryptedPrivateKey, vaultContext(key.kid));
  try {
    const jwk = JSON.parse(Buffer.from(plaintext).toString('utf8')) as JWK;
    return (await importJWK(jwk, 'ES256', { extractable: false })) as CryptoKey;
  } finally {
    plaintext.fill(0);
  }
}

/**
 * The token-signing keys of this deployment, cached per process: the
 * decrypted active key for 5 minutes, the key list for 60 seconds.
 *
 * @example
 * const { kid, privateKey } = await signingKeys(deps).active();
 */
export function signingKeys(deps: SigningKeyDeps) {
  const cache = cacheOf(deps.store);
  const now = () => deps.clock.now().getTime();

  /** Reads the partition (one read in flight per process). */
  const reload = (): Promise<StoredKey[]> => {
    cache.loading ??= signingKeyRepo(deps.store)
      .list()
      .then((list) => {
        cache.list = { keys: list, loadedAt: now() };
        return list;
      })
      .finally(() => {
        cache.loading = undefined;
      });
    return cache.loading;
  };

  /** The key list, from the cache while it is under 60 s old; `fresh` says whether it was just read. */
  const listing = async (): Promise<{ keys: StoredKey[]; fresh: boolean }> => {
    if (cache.list && now() - cache.list.loadedAt < PUBLIC_KEYS_CACHE_MS) {
      return { keys: cache.list.keys, fresh: false };
    }
    return { keys: await reload(), fresh: true };
  };
  /**
   * The key list, read again when the cached one lacks what `complete` looks for (another
   * function may have made or rotated a key since), but at most once per 30 s cooldown; a read
   * already in flight is shared.
   */
  const listingWith = async (complete: (keys: StoredKey[]) => boolean): Promise<StoredKey[]> => {
    const cached = await listing();
    if (cached.fresh || complete(cached.keys)) return cached.keys;
    if (cache.loading) return cache.loading;
    if (cache.rereadAt !== undefined && now() - cache.rereadAt < UNKNOWN_KID_COOLDOWN_MS) return cached.keys;
    cache.rereadAt = now();
    return reload();
  };

  const loadActive = async (): Promise<{ kid: string; privateKey: CryptoKey }> => {
    const cached = await listing();
    let chosen = newestActive(cached.keys);
    // A cached list may predate a key another function made: read again before creating one.
    if (!chosen && !cached.fresh) chosen = newestActive(await reload());
    let created: Awaited<ReturnType<typeof newKey>> | undefined;
    if (!chosen) {
      // First use anywhere: whichever function signs first creates the key. The condition only
      // guards against a kid collision; a racing cold start makes its own key, and both are valid.
      created = await newKey(deps);
      await signingKeyRepo(deps.store).create(created.stored);
      chosen = newestActive(await reload());
      if (!chosen) throw new Error('no signing key after creating one');
    }
    const privateKey = chosen.kid === created?.stored.kid ? created.privateKey : await decryptKey(deps, chosen);
    cache.active = { kid: chosen.kid, privateKey, loadedAt: now() };
    return { kid: chosen.kid, privateKey };
  };

  return {
    /** The key to sign with now (created on first use). */
    async active(): Promise<{ kid: string; privateKey: CryptoKey }> {
      if (cache.active && now() - cache.active.loadedAt < ACTIVE_KEY_CACHE_MS) {
        return { kid: cache.active.kid, privateKey: cache.active.privateKey };
      }
      cache.activating ??= loadActive().finally(() => {
        cache.activating = undefined;
      });
      return cache.activating;
    },

    /**
     * The JWK Set: every key not retired, and retired ones for an hour after,
     * from a list at most a second old (JWKS_MAX_AGE_MS: the endpoint is public
     * and unthrottled, so it must not cost a read per request, yet a key another
     * process just made must be there for a resource server meeting its kid).
     * `fresh` reads the table whatever the cache (the operator CLI's tests).
     */
    async publicJwks(options: { fresh?: boolean } = {}): Promise<{ keys: PublicJwk[] }> {
      const at = now();
      const recent = cache.list && at - cache.list.loadedAt < JWKS_MAX_AGE_MS ? cache.list.keys : undefined;
      const all = options.fresh ? await reload() : (recent ?? (await reload()));
      const published = all
        .filter((k) => isPublished(k, at))
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.kid.localeCompare(a.kid));
      return { keys: published.map((k) => k.publicJwk) };
    },

    /**
     * The public key that verifies a token with this `kid`, or null. A kid the
     * cache does not know triggers one read (another function may have
     * created or rotated a key since), then none for 30 s whatever the kid:
     * tokens with made-up kids cost no read during the cooldown.
     */
    async verificationKey(kid: string): Promise<CryptoKey | null> {
      if (!KID_SHAPE.test(kid)) return null;
      const key = (await listingWith((keys) => keys.some((k) => k.kid === kid))).find((k) => k.kid === kid);
      // A key retired over an hour ago signs nothing still valid.
      if (!key || !isPublished(key, now())) return null;
      let imported = cache.verifiers.get(kid);
      if (!imported) {
        imported = (importJWK(key.publicJwk, 'ES256') as Promise<CryptoKey>).catch((error: unknown) => {
          cache.verifiers.delete(kid);
          throw error;
        });
        cache.verifiers.set(kid, imported);
      }
      return imported;
    },

    /**
     * Makes a new active key and retires every other active one, in one
     * transaction. The retired keys stay published for an hour, so tokens
     * signed with them keep verifying; their `ttl` lets DynamoDB delete them
     * after that. Refuses (throws) when this vault cannot decrypt the
     * current key. Returns the new kid.
     */
    async rotate(): Promise<string> {
      const current = (await reload()).filter((k) => k.retiredAt === null);
      const previous = newestActive(current);
      if (previous) {
        // A vault that cannot read the current key (another local secrets key, no KMS access)
        // would store a new key that no function can read: refuse before writing anything.
        await decryptKey(deps, previous).catch((cause: unknown) => {
          throw new Error('the current signing key does not decrypt with this key vault; nothing rotated', { cause });
        });
      }
      const created = await newKey(deps);
      const retiredAt = deps.clock.now();
      const deleteAfter = new Date(retiredAt.getTime() + RETIRED_KEY_PUBLISHED_MS);
      if ((await signingKeyRepo(deps.store).rotate(created.stored, current, retiredAt, deleteAfter)) === 'RACED') {
        throw new Error('another rotation ran at the same time; nothing rotated');
      }
      cache.active = { kid: created.stored.kid, privateKey: created.privateKey, loadedAt: now() };
      await reload();
      return created.stored.kid;
    },
  };
}
