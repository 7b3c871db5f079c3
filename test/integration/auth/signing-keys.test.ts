import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { signingKeys } from '#shared/auth/signing-keys.ts';
import { issueAccessToken, verifyAccessToken } from '#shared/auth/tokens.ts';
import { localKeyVault } from '#shared/crypto/key-vault.ts';
import type { Deps } from '#shared/deps.ts';
import { keys } from '#shared/store/keys.ts';
import { aClock, aKeysTable, aProcess, countingQueries, MINUTE } from './keys-table.ts';

const subject = { sub: 'usr_1', sid: 'ses_1', app: 'app_1', mid: 'mid_1', roles: ['DEFAULT'] };

async function storedKeys(deps: Deps): Promise<Record<string, any>[]> {
  const { Items } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.signingKeysPartition },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}

/** Counts the vault calls and the table reads of one process. */
function instrumented(deps: Deps) {
  const encrypt = vi.fn(deps.vault.encrypt);
  const decrypt = vi.fn(deps.vault.decrypt);
  const { queries } = countingQueries(deps);
  return { deps: { ...deps, vault: { encrypt, decrypt } }, encrypt, decrypt, queries };
}

const kidsOf = (jwks: { keys: { kid: string }[] }) => jwks.keys.map((k) => k.kid).sort();

describe('signingKeys (DynamoDB Local)', () => {
  it('creates an ES256 key on first use and reuses it, in this process and in others', async () => {
    const table = await aKeysTable();
    const first = await signingKeys(aProcess(table)).active();
    expect(first.kid).toMatch(/^key_[0-9a-z]{20}$/);
    expect(first.privateKey.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: 'P-256' });
    expect(first.privateKey.extractable).toBe(false);

    const again = await signingKeys(aProcess(table)).active();
    expect(again.kid).toBe(first.kid);
    const items = await storedKeys(aProcess(table));
    expect(items.map((i) => i.kid)).toEqual([first.kid]);
    expect(items[0]).toMatchObject({
      ...keys.signingKey(first.kid),
      entity: 'SIGNING_KEY',
      kid: first.kid,
      retiredAt: null,
      publicJwk: { kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: first.kid },
    });
  });

  it('stores the private key only encrypted, bound to its kid', async () => {
    const deps = aProcess(await aKeysTable());
    const { kid } = await signingKeys(deps).active();
    const { Item } = await deps.store.doc.send(
      new GetCommand({ TableName: deps.store.tableName, Key: keys.signingKey(kid) }),
    );
    if (!Item) throw new Error('no key item');
    expect(Object.keys(Item).sort()).toEqual(
      ['pk', 'sk', 'entity', 'kid', 'publicJwk', 'encryptedPrivateKey', 'createdAt', 'retiredAt'].sort(),
    );
    expect(Item.publicJwk).not.toHaveProperty('d');

    const plaintext = await deps.vault.decrypt(Item.encryptedPrivateKey, { purpose: 'jwt-signing', kid });
    const privateJwk = JSON.parse(Buffer.from(plaintext).toString('utf8'));
    expect(privateJwk).toMatchObject({ kty: 'EC', crv: 'P-256', x: Item.publicJwk.x, y: Item.publicJwk.y });
    const d: string = privateJwk.d;
    expect(d).toMatch(/^[\w-]{43}$/);
    const dBytes = Buffer.from(d, 'base64url');
    const stored = JSON.stringify(Item);
    for (const form of [d, dBytes.toString('base64'), dBytes.toString('hex'), dBytes.toString('latin1')]) {
      expect(stored.includes(form)).toBe(false);
    }
    // Moved to another kid, the ciphertext does not decrypt (the vault context binds it).
    await expect(
      deps.vault.decrypt(Item.encryptedPrivateKey, { purpose: 'jwt-signing', kid: 'key_other' }),
    ).rejects.toThrow();
  });

  it('rotates: a new active key, the old one published for an hour and its tokens still verifying', async () => {
    const table = await aKeysTable();
    const clock = aClock();
    const signer = aProcess(table, { clock });
    const before = await issueAccessToken(signer, subject);
    const oldKid = (await signingKeys(signer).active()).kid;

    clock.advance(MINUTE);
    const newKid = await signingKeys(aProcess(table, { clock })).rotate();
    expect(newKid).not.toBe(oldKid);

    // Every process picks the new key once its cache is gone; the rotating one at once.
    expect((await signingKeys(aProcess(table, { clock })).active()).kid).toBe(newKid);
    const items = await storedKeys(aProcess(table));
    const old = items.find((i) => i.kid === oldKid);
    expect(old?.retiredAt).toBe(clock.now().toISOString());
    expect(old?.ttl).toBe(Math.ceil(clock.now().getTime() / 1000) + 3600);
    expect(items.find((i) => i.kid === newKid)).toMatchObject({ retiredAt: null });
    expect(items.find((i) => i.kid === newKid)).not.toHaveProperty('ttl');

    // A token signed before the rotation verifies after it: in the signer (cached list) and a fresh process.
    clock.advance(10 * MINUTE);
    expect(await verifyAccessToken(signer, before.accessToken)).toMatchObject({ sub: 'usr_1' });
    expect(await verifyAccessToken(aProcess(table, { clock }), before.accessToken)).toMatchObject({ sub: 'usr_1' });
    expect(kidsOf(await signingKeys(aProcess(table, { clock })).publicJwks())).toEqual([oldKid, newKid].sort());

    clock.advance(49 * MINUTE); // 59 minutes after the rotation
    expect(kidsOf(await signingKeys(aProcess(table, { clock })).publicJwks())).toEqual([oldKid, newKid].sort());
    clock.advance(2 * MINUTE); // 61 minutes after
    expect(kidsOf(await signingKeys(aProcess(table, { clock })).publicJwks())).toEqual([newKid]);
    expect(await signingKeys(aProcess(table, { clock })).verificationKey(oldKid)).toBeNull();
  });

  it('verifies a token whose kid the process has not seen yet with one fresh read', async () => {
    const table = await aKeysTable();
    const clock = aClock();
    await signingKeys(aProcess(table, { clock })).active();
    const verifier = instrumented(aProcess(table, { clock }));
    await signingKeys(verifier.deps).publicJwks(); // the verifier's cache now holds the first key only
    expect(verifier.queries).toHaveBeenCalledTimes(1);

    await signingKeys(aProcess(table, { clock })).rotate(); // another function
    const token = await issueAccessToken(aProcess(table, { clock }), subject);
    expect(await verifyAccessToken(verifier.deps, token.accessToken)).toMatchObject({ sid: 'ses_1' });
    expect(verifier.queries).toHaveBeenCalledTimes(2);
    expect(await verifyAccessToken(verifier.deps, token.accessToken)).not.toBeNull();
    expect(verifier.queries).toHaveBeenCalledTimes(2);
  });

  it('caches per process: no KMS call per login, the decrypted key for 5 minutes, the key list for 60 s', async () => {
    const table = await aKeysTable();
    const clock = aClock();
    const creator = instrumented(aProcess(table, { clock }));
    await issueAccessToken(creator.deps, subject);
    expect(creator.encrypt).toHaveBeenCalledTimes(1);
    expect(creator.decrypt).not.toHaveBeenCalled();

    const p = instrumented(aProcess(table, { clock }));
    const token = await issueAccessToken(p.deps, subject);
    expect(p.decrypt).toHaveBeenCalledTimes(1);
    const reads = p.queries.mock.calls.length;
    for (let i = 0; i < 3; i++) await issueAccessToken(p.deps, subject);
    await verifyAccessToken(p.deps, token.accessToken);
    clock.advance(59_000);
    await verifyAccessToken(p.deps, token.accessToken);
    expect(p.decrypt).toHaveBeenCalledTimes(1);
    expect(p.queries).toHaveBeenCalledTimes(reads);

    clock.advance(2_000); // the key list is 61 s old: read again, still no KMS call
    await verifyAccessToken(p.deps, token.accessToken);
    expect(p.queries).toHaveBeenCalledTimes(reads + 1);
    await issueAccessToken(p.deps, subject);
    expect(p.decrypt).toHaveBeenCalledTimes(1);

    clock.advance(4 * MINUTE); // the decrypted key is over 5 minutes old
    await issueAccessToken(p.deps, subject);
    expect(p.decrypt).toHaveBeenCalledTimes(2);
    expect(p.encrypt).not.toHaveBeenCalled();
  });

  it('two cold starts racing on first use each make a key: both are published and both verify', async () => {
    const table = await aKeysTable();
    // Hold each process's Put until both have reached it: both saw an empty partition.
    let arrived = 0;
    let release: () => void = () => undefined;
    const bothThere = new Promise<void>((done) => {
      release = done;
    });
    const racing = () => {
      const deps = aProcess(table);
      const send = deps.store.doc.send.bind(deps.store.doc);
      deps.store.doc.send = (async (command: any, ...rest: any[]) => {
        if (command instanceof PutCommand) {
          arrived++;
          if (arrived === 2) release();
          await bothThere;
        }
        return (send as any)(command, ...rest);
      }) as typeof deps.store.doc.send;
      return deps;
    };
    const [a, b] = [racing(), racing()];
    const [tokenA, tokenB] = await Promise.all([issueAccessToken(a, subject), issueAccessToken(b, subject)]);

    const items = await storedKeys(aProcess(table));
    expect(items).toHaveLength(2);
    const jwks = await signingKeys(aProcess(table)).publicJwks();
    expect(kidsOf(jwks)).toEqual(items.map((i) => i.kid).sort());
    const verifier = aProcess(table);
    expect(await verifyAccessToken(verifier, tokenA.accessToken)).not.toBeNull();
    expect(await verifyAccessToken(verifier, tokenB.accessToken)).not.toBeNull();
    // Every process converges on one active key: the newest (createdAt, then kid).
    const kids = await Promise.all([1, 2, 3].map(() => signingKeys(aProcess(table)).active()));
    expect(new Set(kids.map((k) => k.kid)).size).toBe(1);
  });

  it('lets one of two simultaneous rotations win, and the other write nothing', async () => {
    const table = await aKeysTable();
    await signingKeys(aProcess(table)).active();
    // A has read the keys and is about to write when B rotates.
    const a = aProcess(table);
    let atWrite: () => void = () => undefined;
    let proceed: () => void = () => undefined;
    const reachedWrite = new Promise<void>((done) => {
      atWrite = done;
    });
    const mayWrite = new Promise<void>((done) => {
      proceed = done;
    });
    const send = a.store.doc.send.bind(a.store.doc);
    a.store.doc.send = (async (command: any, ...rest: any[]) => {
      if (command instanceof TransactWriteCommand) {
        atWrite();
        await mayWrite;
      }
      return (send as any)(command, ...rest);
    }) as typeof a.store.doc.send;

    const rotatingA = signingKeys(a).rotate();
    await reachedWrite;
    const kidB = await signingKeys(aProcess(table)).rotate();
    proceed();
    await expect(rotatingA).rejects.toThrow('another rotation ran at the same time; nothing rotated');
    expect(await storedKeys(aProcess(table))).toHaveLength(2);
    expect((await signingKeys(aProcess(table)).active()).kid).toBe(kidB);
  });

  it('refuses to rotate with a vault that cannot read the current key, writing nothing', async () => {
    const table = await aKeysTable();
    await signingKeys(aProcess(table)).active();
    const stranger = aProcess(table, { vault: localKeyVault(new Uint8Array(32).fill(7)) });
    await expect(signingKeys(stranger).rotate()).rejects.toThrow(/does not decrypt with this key vault/);
    expect(await storedKeys(aProcess(table))).toHaveLength(1);
  });

  it('publishes nothing before the first key exists', async () => {
    expect(await signingKeys(aProcess(await aKeysTable())).publicJwks({ fresh: true })).toEqual({ keys: [] });
  });
});
