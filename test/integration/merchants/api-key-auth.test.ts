import * as crypto from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import {
  authenticateApiKey,
  LAST_USED_EVERY_MS,
  newApiKey,
  parseApiKey,
  secretHashMatches,
} from '#shared/auth/api-keys.ts';
import type { UserPrincipal } from '#shared/auth/principal.ts';
import type { Deps } from '#shared/deps.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '#shared/merchants/api-keys.ts';
import { cryptoRandom } from '#shared/random.ts';
import { grantOf } from '#shared/roles/authority.ts';
import { apiKeyRepo } from '#shared/store/api-key-repo.ts';
import { keys } from '#shared/store/keys.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import type { User } from '#shared/users/types.ts';
import { aMerchant, aUserRecord } from '#test/support/builders.ts';
import { makeTestDeps } from '#test/support/deps.ts';

// Every constant-time comparison goes through this spy (the real one underneath).
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const T0 = new Date('2026-11-21T10:00:00.000Z');

/** Deps whose clock a test moves by hand. */
function depsAt(start = T0) {
  let now = start;
  const deps = makeTestDeps({ clock: { now: () => now } });
  return {
    deps,
    at(ms: number) {
      now = new Date(start.getTime() + ms);
    },
  };
}

/** An admin who signed in at T0: recent enough to create keys (docs/security.md#recent-authentication). */
const admin: UserPrincipal = {
  kind: 'user',
  userId: 'usr_admin',
  sessionId: 'ses_1',
  roles: [],
  authority: 1,
  authenticatedAt: T0.toISOString(),
};

/** The key's creator, stored: a key acts only while its creator is ACTIVE and holds ADMIN or more. */
async function storeCreator(deps: Deps, tenant: Merchant) {
  const now = deps.clock.now().toISOString();
  const grant = grantOf({ id: 'rol_admin', name: 'ADMIN', priority: 1 }, now);
  const user = { ...(await aUserRecordWithout(tenant)), id: admin.userId, grants: { rol_admin: grant } };
  await userRepo(deps.store).create(tenant, user);
}

/** A user record needing no role lookup (these tenants are not stored: builders only). */
async function aUserRecordWithout(tenant: Merchant): Promise<User> {
  return aUserRecord({ id: admin.userId, email: `admin@${tenant.subdomain}.test`, registeredAt: T0.toISOString() });
}

async function aStoredKey(deps: Deps, tenant: Merchant = aMerchant()) {
  await storeCreator(deps, tenant);
  const created = await createApiKey(deps, tenant, admin, tenant.id, { label: 'integration' });
  const [, secret] = created.apiKey.split(/^sk_key_[0-9a-z]{20}_/);
  return { tenant, created, secret: secret as string };
}

async function rawItem(deps: Deps, tenant: Merchant, keyId: string) {
  const { Item } = await deps.store.doc.send(
    new GetCommand({ TableName: deps.store.tableName, Key: keys.apiKey(tenant, keyId), ConsistentRead: true }),
  );
  return Item;
}

describe('API key format', () => {
  it('is sk_<keyId>_<secret>: keyId key_ + 20 base32, secret 43 base64url; parsing never splits the secret', () => {
    for (let i = 0; i < 200; i++) {
      const made = newApiKey(cryptoRandom);
      expect(made.key).toMatch(/^sk_key_[0-9a-hjkmnp-tv-z]{20}_[A-Za-z0-9_-]{43}$/);
      expect(parseApiKey(made.key)).toEqual({ keyId: made.keyId, secret: made.key.slice(28) });
      expect(made.keyPrefix).toBe(made.key.slice(0, 12));
    }
    const id = 'key_0123456789abcdefghjk';
    for (const secret of ['_'.repeat(43), `-_${'a'.repeat(39)}__`, `key_${'b'.repeat(35)}_sk_`]) {
      expect(parseApiKey(`sk_${id}_${secret}`)).toEqual({ keyId: id, secret });
    }
  });

  it.each([
    '',
    'sk_',
    'sk_key_0123456789abcdefghjk',
    'sk_key_0123456789abcdefghjk_',
    `sk_key_0123456789abcdefghj_${'a'.repeat(44)}`,
    `sk_key_0123456789abcdefghjkl${'a'.repeat(43)}`,
    `sk_key_0123456789ABCDEFGHJK_${'a'.repeat(43)}`,
    `sk_key_0123456789abcdefghji_${'a'.repeat(43)}`,
    `pk_key_0123456789abcdefghjk_${'a'.repeat(43)}`,
    `sk_key_0123456789abcdefghjk_${'a'.repeat(42)}#`,
    `sk_key_0123456789abcdefghjk_${'a'.repeat(42)}=`,
    `sk_key_0123456789abcdefghjk_${'a'.repeat(44)}`,
    ` sk_key_0123456789abcdefghjk_${'a'.repeat(43)}`,
  ])('refuses the malformed key %j', (key) => {
    expect(parseApiKey(key)).toBeNull();
  });
});

describe('API key storage (DynamoDB Local)', () => {
  it('stores only the SHA-256 of the secret: no attribute holds the key or the secret', async () => {
    const { deps } = depsAt();
    const { tenant, created, secret } = await aStoredKey(deps);
    const item = await rawItem(deps, tenant, created.keyId);
    expect(item).toEqual({
      ...keys.apiKey(tenant, created.keyId),
      entity: 'API_KEY',
      keyId: created.keyId,
      keyPrefix: created.apiKey.slice(0, 12),
      label: 'integration',
      secretHash: crypto.createHash('sha256').update(secret).digest('hex'),
      createdAt: T0.toISOString(),
      lastUsedAt: null,
      revokedAt: null,
      createdBy: 'usr_admin',
    });
    const raw = JSON.stringify(item);
    expect(raw).not.toContain(secret);
    expect(raw).not.toContain(created.apiKey);
    expect(JSON.stringify(await listApiKeys(deps, tenant, tenant.id))).not.toContain(secret);
  });

  it('lists the keys of its own tenant only', async () => {
    const { deps } = depsAt();
    const mine = await aStoredKey(deps);
    const theirs = await aStoredKey(deps);
    expect((await listApiKeys(deps, mine.tenant, mine.tenant.id)).map((k) => k.keyId)).toEqual([mine.created.keyId]);
    await expect(listApiKeys(deps, mine.tenant, theirs.tenant.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('authenticateApiKey (DynamoDB Local)', () => {
  it('answers an ADMIN principal for a good key of the tenant', async () => {
    const { deps } = depsAt();
    const { tenant, created } = await aStoredKey(deps);
    expect(await authenticateApiKey(deps, created.apiKey, tenant)).toEqual({
      kind: 'apiKey',
      keyId: created.keyId,
      authority: 1,
    });
  });

  it("answers null for a wrong secret, another tenant's key, a revoked key and a malformed key", async () => {
    const { deps } = depsAt();
    const { tenant, created, secret } = await aStoredKey(deps);
    const other = aMerchant();
    const flipped = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    expect(await authenticateApiKey(deps, `sk_${created.keyId}_${flipped}`, tenant)).toBeNull();
    expect(await authenticateApiKey(deps, created.apiKey, other)).toBeNull();
    expect(await authenticateApiKey(deps, `${created.apiKey}=`, tenant)).toBeNull();
    expect(await authenticateApiKey(deps, 'x'.repeat(10_000), tenant)).toBeNull();
    await revokeApiKey(deps, tenant, tenant.id, created.keyId);
    expect(await authenticateApiKey(deps, created.apiKey, tenant)).toBeNull();
  });

  it('compares the hashes in constant time, for a forged secret and a good one alike', async () => {
    const { deps } = depsAt();
    const { tenant, created } = await aStoredKey(deps);
    const spy = vi.mocked(crypto.timingSafeEqual);
    spy.mockClear();
    expect(await authenticateApiKey(deps, `sk_${created.keyId}_${'Z'.repeat(43)}`, tenant)).toBeNull();
    expect(await authenticateApiKey(deps, created.apiKey, tenant)).not.toBeNull();
    expect(spy).toHaveBeenCalledTimes(2);
    for (const [a, b] of spy.mock.calls) {
      expect([(a as Buffer).length, (b as Buffer).length]).toEqual([32, 32]);
    }
  });

  it('refuses, without throwing, a key whose stored hash is not a SHA-256 digest', async () => {
    const { deps } = depsAt();
    const { tenant, created } = await aStoredKey(deps);
    for (const broken of ['', 'abc', 'z'.repeat(64), null]) {
      await deps.store.doc.send(
        new UpdateCommand({
          TableName: deps.store.tableName,
          Key: keys.apiKey(tenant, created.keyId),
          UpdateExpression: 'SET secretHash = :h',
          ExpressionAttributeValues: { ':h': broken },
        }),
      );
      expect(await authenticateApiKey(deps, created.apiKey, tenant)).toBeNull();
    }
    expect(secretHashMatches('a'.repeat(64), 'a'.repeat(64))).toBe(true);
    expect(secretHashMatches('a'.repeat(63), 'a'.repeat(63))).toBe(false);
  });

  it('records lastUsedAt at the first use, then at most once a minute (injected clock)', async () => {
    const { deps, at } = depsAt();
    const { tenant, created } = await aStoredKey(deps);
    const lastUsed = async () => (await rawItem(deps, tenant, created.keyId))?.lastUsedAt;
    const use = async (ms: number) => {
      at(ms);
      expect(await authenticateApiKey(deps, created.apiKey, tenant)).not.toBeNull();
      return lastUsed();
    };
    expect(await lastUsed()).toBeNull();
    expect(await use(0)).toBe(T0.toISOString());
    expect(await use(30_000)).toBe(T0.toISOString());
    expect(await use(LAST_USED_EVERY_MS - 1)).toBe(T0.toISOString());
    expect(await use(LAST_USED_EVERY_MS)).toBe(new Date(T0.getTime() + LAST_USED_EVERY_MS).toISOString());
    expect(await use(LAST_USED_EVERY_MS + 30_000)).toBe(new Date(T0.getTime() + LAST_USED_EVERY_MS).toISOString());
    expect(await use(3 * LAST_USED_EVERY_MS)).toBe(new Date(T0.getTime() + 3 * LAST_USED_EVERY_MS).toISOString());
    const [listed] = await listApiKeys(deps, tenant, tenant.id);
    expect(listed?.lastUsedAt).toBe(new Date(T0.getTime() + 3 * LAST_USED_EVERY_MS).toISOString());
  });

  it('sends no write while lastUsedAt is fresh, and lets one write through for simultaneous first uses', async () => {
    const { deps, at } = depsAt();
    const { tenant, created } = await aStoredKey(deps);
    const sent: string[] = [];
    const updates: string[] = [];
    const counting: Deps = {
      ...deps,
      store: {
        tableName: deps.store.tableName,
        doc: {
          send: async (command: { input?: { Key?: { sk?: string } } }) => {
            // The key's own item (the creator's profile is read beside it, through the same store).
            if (command.input?.Key?.sk?.startsWith(keys.apiKeyPrefix)) sent.push(command.constructor.name);
            if (!(command instanceof UpdateCommand)) return deps.store.doc.send(command as never);
            try {
              const out = await deps.store.doc.send(command);
              updates.push('written');
              return out;
            } catch (error) {
              updates.push((error as Error).name);
              throw error;
            }
          },
        } as unknown as Deps['store']['doc'],
      },
    };
    const principals = await Promise.all([1, 2, 3].map(() => authenticateApiKey(counting, created.apiKey, tenant)));
    expect(principals.every((p) => p?.kind === 'apiKey' && p.keyId === created.keyId)).toBe(true);
    // Each request read the key; of the writes sent, the condition let exactly one through.
    expect(sent.filter((name) => name === 'GetCommand')).toHaveLength(3);
    expect(updates.filter((u) => u === 'written')).toEqual(['written']);
    expect(updates.every((u) => u === 'written' || u === 'ConditionalCheckFailedException')).toBe(true);

    sent.length = 0;
    at(10_000);
    expect(await authenticateApiKey(counting, created.apiKey, tenant)).not.toBeNull();
    expect(sent).toEqual(['GetCommand']);
  });

  it('never brings a key revoked meanwhile back as a stub', async () => {
    const { deps } = depsAt();
    const { tenant, created } = await aStoredKey(deps);
    const repo = apiKeyRepo(deps.store);
    expect(await repo.delete(tenant, created.keyId)).toBe(true);
    expect(await repo.touch(tenant, created.keyId, T0, LAST_USED_EVERY_MS)).toBe(false);
    expect(await rawItem(deps, tenant, created.keyId)).toBeUndefined();
    expect(await repo.delete(tenant, created.keyId)).toBe(false);
  });

  it('accepts a good key when recording its use fails, and logs the failure', async () => {
    const { deps } = depsAt();
    const { tenant, created } = await aStoredKey(deps);
    const errors: string[] = [];
    const failing: Deps = {
      ...deps,
      log: { info: () => {}, error: (message) => errors.push(message) },
      store: {
        tableName: deps.store.tableName,
        doc: {
          send: (command: object) => {
            if (command instanceof UpdateCommand) {
              return Promise.reject(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
            }
            return deps.store.doc.send(command as never);
          },
        } as unknown as Deps['store']['doc'],
      },
    };
    expect(await authenticateApiKey(failing, created.apiKey, tenant)).toMatchObject({ keyId: created.keyId });
    expect(errors).toEqual(['api key use not recorded']);
  });
});
