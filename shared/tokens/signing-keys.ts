import { type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import type { Deps } from '../deps.ts';
import { newId } from '../random.ts';
import { rootOf, type StoreClient } from '../store/client.ts';
import { type PublicJwk, type StoredSigningKey, signingKeyRepo } from '../store/signing-key-repo.ts';

/**
 * The keys that sign tokens, one set for the whole deployment. Each algorithm
 * has its own active key: ES256 signs the API's access tokens (and is the
 * default everywhere); RS256 exists for OpenID clients that ask for it (an API
 * Gateway HTTP API JWT authorizer accepts RSA only) and is created only the
 * first time something asks for it, so a deployment without such clients never
 * pays for RSA key generation. Each key is an item in the `KEYS` partition; its
 * private half is stored only encrypted by the key vault (KMS on AWS), bound to
 * its kid, so a table read alone never yields a signing key. A key's algorithm
 * is its public JWK's `alg` (keys stored before RS256 existed say ES256).
 */

export type SigningKeyDeps = Pick<Deps, 'store' | 'vault' | 'clock' | 'random'>;

export type { PublicJwk };

/** The algorithms a signing key may have. */
export type SigningAlg = 'ES256' | 'RS256';
const SIGNING_ALGS: readonly SigningAlg[] = ['ES256', 'RS256'];

/** A key to sign with: its kid for the JWT header, and the algorithm to name there. */
export interface ActiveSigningKey {
  kid: string;
  privateKey: CryptoKey;
  alg: SigningAlg;
}

/** A published key that verifies tokens, with its algorithm: pin it, never take the token header's word. */
export interface VerificationKey {
  key: CryptoKey;
  alg: SigningAlg;
}

/** The new kid of each algorithm a rotation replaced (RS256 only when the deployment had one). */
export type RotatedKids = { ES256: string; RS256?: string };

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
  /** The decrypted active key of each algorithm this process signed with. */
  active: Map<SigningAlg, ActiveSigningKey & { loadedAt: number }>;
  activating: Map<SigningAlg, Promise<ActiveSigningKey>>;
  /** When a list lacking something was last read again (the cooldown's start). */
  rereadAt?: number;
  verifiers: Map<string, Promise<VerificationKey>>;
}

/** Per process (Lambda cold start) and per table client: `processDeps()` builds one store per process. */
const caches = new WeakMap<StoreClient, KeyCache>();

function cacheOf(view: StoreClient): KeyCache {
  // A request's view of the store (with what it prefetched) shares its process client's cache.
  const store = rootOf(view);
  let cache = caches.get(store);
  if (!cache) {
    cache = { active: new Map(), activating: new Map(), verifiers: new Map() };
    caches.set(store, cache);
  }
  return cache;
}

function isPublished(key: StoredKey, now: number): boolean {
  return key.retiredAt === null || Date.parse(key.retiredAt) + RETIRED_KEY_PUBLISHED_MS > now;
}

/** The algorithm of a stored key: its public JWK's; a key stored without one is ES256. */
function algOf(key: StoredKey): SigningAlg {
  return key.publicJwk.alg === 'RS256' ? 'RS256' : 'ES256';
}

/**
 * The newest key of this algorithm not retired. Two cold starts racing may
 * each create one: every process then converges on the same key (createdAt, then kid).
 */
function newestActive(list: readonly StoredKey[], alg: SigningAlg): StoredKey | undefined {
  return list
    .filter((k) => k.retiredAt === null && algOf(k) === alg)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.kid.localeCompare(a.kid))[0];
}

/** The published form of a new public key: its public members named one by one, so no private one can slip in. */
function publicJwkOf(jwk: JWK, kid: string, alg: SigningAlg): PublicJwk {
  if (alg === 'RS256') {
    const { kty, n, e } = jwk;
    if (kty !== 'RSA' || !n || !e) throw new Error('unexpected RS256 public key');
    return { kty: 'RSA', n, e, kid, alg: 'RS256', use: 'sig' };
  }
  const { kty, crv, x, y } = jwk;
  if (kty !== 'EC' || crv !== 'P-256' || !x || !y) throw new Error('unexpected ES256 public key');
  return { kty: 'EC', crv: 'P-256', x, y, kid, alg: 'ES256', use: 'sig' };
}

/** A new key pair: the item to store (private half encrypted) and the private key to sign with. */
async function newKey(
  deps: SigningKeyDeps,
  alg: SigningAlg,
): Promise<{ stored: StoredKey; privateKey: CryptoKey; alg: SigningAlg }> {
  const kid = newId(deps.random, 'key');
  // RSA 2048 takes 50-200 ms to generate: only `active('RS256')` and the rotation of an existing RS256 key pay it.
  const pair =
    alg === 'RS256'
      ? await generateKeyPair('RS256', { modulusLength: 2048, extractable: true })
      : await generateKeyPair('ES256', { extractable: true });
  const publicJwk = publicJwkOf(await exportJWK(pair.publicKey), kid, alg);
  const privateJwk = await exportJWK(pair.privateKey);
  const plaintext = Buffer.from(JSON.stringify(privateJwk), 'utf8');
  // Never stored in clear: only the vault (KMS, granted to the signing functions) can read it back.
  const encryptedPrivateKey = await deps.vault.encrypt(plaintext, vaultContext(kid));
  plaintext.fill(0);
  // Signing needs no export: keep a non-extractable copy in memory.
  const privateKey = (await importJWK(privateJwk, alg, { extractable: false })) as CryptoKey;
  return {
    alg,
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
    return (await importJWK(jwk, algOf(key), { extractable: false })) as CryptoKey;
  } finally {
    plaintext.fill(0);
  }
}

/**
 * The token-signing keys of this deployment, cached per process: the
 * decrypted active key of each algorithm for 5 minutes, the key list for 60 seconds.
 *
 * @example
 * const { kid, privateKey } = await signingKeys(deps).active(); // ES256
 * const rsa = await signingKeys(deps).active('RS256'); // made on first use
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

  const loadActive = async (alg: SigningAlg): Promise<ActiveSigningKey> => {
    const cached = await listing();
    let chosen = newestActive(cached.keys, alg);
    // A cached list may predate a key another function made: read again before creating one.
    if (!chosen && !cached.fresh) chosen = newestActive(await reload(), alg);
    let created: Awaited<ReturnType<typeof newKey>> | undefined;
    if (!chosen) {
      // First use anywhere: whichever function signs first creates the key. The condition only
      // guards against a kid collision; a racing cold start makes its own key, and both are valid.
      created = await newKey(deps, alg);
      await signingKeyRepo(deps.store).create(created.stored);
      chosen = newestActive(await reload(), alg);
      if (!chosen) throw new Error(`no ${alg} signing key after creating one`);
    }
    const privateKey = chosen.kid === created?.stored.kid ? created.privateKey : await decryptKey(deps, chosen);
    cache.active.set(alg, { kid: chosen.kid, privateKey, alg, loadedAt: now() });
    return { kid: chosen.kid, privateKey, alg };
  };

  /**
   * The published key with this `kid` and its algorithm, or null. A kid the
   * cache does not know triggers one read (another function may have
   * created or rotated a key since), then none for 30 s whatever the kid:
   * tokens with made-up kids cost no read during the cooldown.
   */
  const verificationKeyFor = async (kid: string): Promise<VerificationKey | null> => {
    if (!KID_SHAPE.test(kid)) return null;
    const key = (await listingWith((keys) => keys.some((k) => k.kid === kid))).find((k) => k.kid === kid);
    // A key retired over an hour ago signs nothing still valid.
    if (!key || !isPublished(key, now())) return null;
    let imported = cache.verifiers.get(kid);
    if (!imported) {
      const alg = algOf(key);
      imported = (importJWK(key.publicJwk, alg) as Promise<CryptoKey>).then(
        (cryptoKey) => ({ key: cryptoKey, alg }),
        (error: unknown) => {
          cache.verifiers.delete(kid);
          throw error;
        },
      );
      cache.verifiers.set(kid, imported);
    }
    return imported;
  };

  return {
    /**
     * The key of this algorithm to sign with now, created on first use (ES256
     * by default: the API's access tokens; RS256 only when something asks for it).
     */
    async active(alg: SigningAlg = 'ES256'): Promise<ActiveSigningKey> {
      // The algorithm may come from stored data (a client's setting): nothing else names a key.
      if (!SIGNING_ALGS.includes(alg)) throw new Error(`no signing keys for ${String(alg)}`);
      const hit = cache.active.get(alg);
      if (hit && now() - hit.loadedAt < ACTIVE_KEY_CACHE_MS) {
        return { kid: hit.kid, privateKey: hit.privateKey, alg };
      }
      let pending = cache.activating.get(alg);
      if (!pending) {
        pending = loadActive(alg).finally(() => {
          cache.activating.delete(alg);
        });
        cache.activating.set(alg, pending);
      }
      return pending;
    },

    /**
     * The JWK Set: every key not retired (ES256 and RS256 alike), and retired
     * ones for an hour after, from a list at most a second old (JWKS_MAX_AGE_MS:
     * the endpoint is public and unthrottled, so it must not cost a read per
     * request, yet a key another process just made must be there for a
     * resource server meeting its kid). Public members only: the items hold
     * no other. `fresh` reads the table whatever the cache (the operator CLI's tests).
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
     * The public key that verifies a token of algorithm `alg` (ES256 unless
     * said) with this `kid`, or null, also when the kid names a key of another
     * algorithm: a caller that accepts one algorithm (the API's access tokens:
     * ES256) never gets a key of another, whatever the token's header says.
     * Reads as `verificationKeyFor`.
     */
    async verificationKey(kid: string, alg: SigningAlg = 'ES256'): Promise<CryptoKey | null> {
      const found = await verificationKeyFor(kid);
      return found?.alg === alg ? found.key : null;
    },

    /**
     * The public key with this `kid` and its algorithm, or null: for a caller
     * that accepts either algorithm (OpenID tokens, signed as their client
     * asked), which must then verify with exactly `alg`.
     */
    verificationKeyFor,

    /**
     * Makes a new active key of every algorithm in use and retires every
     * other active key, in one transaction: ES256 always (a first key on an
     * empty table, as the API needs one), RS256 only when the deployment has
     * an active RS256 key (a rotation never makes the first one). The retired
     * keys stay published for an hour, so tokens signed with them keep
     * verifying; their `ttl` lets DynamoDB delete them after that. Refuses
     * (throws, writing nothing) when this vault cannot decrypt a current key.
     * Returns the new kid of each algorithm.
     */
    async rotate(): Promise<RotatedKids> {
      const current = (await reload()).filter((k) => k.retiredAt === null);
      const algs = SIGNING_ALGS.filter((alg) => alg === 'ES256' || newestActive(current, alg));
      for (const alg of algs) {
        const previous = newestActive(current, alg);
        if (!previous) continue;
        // A vault that cannot read the current key (another local secrets key, no KMS access)
        // would store a new key that no function can read: refuse before writing anything.
        await decryptKey(deps, previous).catch((cause: unknown) => {
          throw new Error('the current signing key does not decrypt with this key vault; nothing rotated', { cause });
        });
      }
      const created = await Promise.all(algs.map((alg) => newKey(deps, alg)));
      const retiredAt = deps.clock.now();
      const deleteAfter = new Date(retiredAt.getTime() + RETIRED_KEY_PUBLISHED_MS);
      const stored = created.map((c) => c.stored);
      if ((await signingKeyRepo(deps.store).rotate(stored, current, retiredAt, deleteAfter)) === 'RACED') {
        throw new Error('another rotation ran at the same time; nothing rotated');
      }
      const kids: Partial<Record<SigningAlg, string>> = {};
      for (const { stored: key, privateKey, alg } of created) {
        cache.active.set(alg, { kid: key.kid, privateKey, alg, loadedAt: now() });
        kids[alg] = key.kid;
      }
      await reload();
      return kids as RotatedKids;
    },
  };
}
