import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { createLocalJWKSet, decodeProtectedHeader, importJWK, jwtVerify, SignJWT } from 'jose';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { JwksResponse } from '#functions/meta/routes.ts';
import { localKeyVault } from '#shared/crypto/key-vault.ts';
import type { Deps } from '#shared/deps.ts';
import { keys } from '#shared/store/keys.ts';
import { issueAccessToken, verifyAccessToken } from '#shared/tokens/access-token.ts';
import { signingKeys } from '#shared/tokens/signing-keys.ts';
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
    const rotated = await signingKeys(aProcess(table, { clock })).rotate();
    // A deployment that never asked for RS256 gets no RSA key from a rotation either.
    expect(rotated).toEqual({ ES256: expect.any(String) });
    const newKid = rotated.ES256;
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
    const kidB = (await signingKeys(aProcess(table)).rotate()).ES256;
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

/** Claims verifyAccessToken accepts, for a token signed by hand. */
function apiClaims(deps: Deps): Record<string, unknown> {
  const iat = Math.floor(deps.clock.now().getTime() / 1000);
  return { ...subject, iss: deps.config.issuerUrl, aud: subject.app, iat, exp: iat + 900, jti: 'jti_1' };
}

const PRIVATE_RSA_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth'];

describe('signingKeys RS256 (DynamoDB Local)', () => {
  it('makes no RSA key until active("RS256") is asked for, then one, beside an unchanged ES256 key', async () => {
    const table = await aKeysTable();
    const creator = instrumented(aProcess(table));
    const es = await signingKeys(creator.deps).active();
    expect(es).toMatchObject({ alg: 'ES256', privateKey: { algorithm: { name: 'ECDSA', namedCurve: 'P-256' } } });
    expect((await storedKeys(aProcess(table))).map((i) => i.publicJwk.kty)).toEqual(['EC']);
    expect(creator.encrypt).toHaveBeenCalledTimes(1);

    // Concurrent first uses in one process share one key generation per algorithm.
    const [rs, rsAgain, esAgain] = await Promise.all([
      signingKeys(creator.deps).active('RS256'),
      signingKeys(creator.deps).active('RS256'),
      signingKeys(creator.deps).active(),
    ]);
    expect(rs.alg).toBe('RS256');
    expect(rs.kid).toMatch(/^key_[0-9a-z]{20}$/);
    expect(rs.kid).not.toBe(es.kid);
    expect(rsAgain.kid).toBe(rs.kid);
    expect(esAgain.kid).toBe(es.kid);
    expect(rs.privateKey.algorithm).toMatchObject({
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      hash: { name: 'SHA-256' },
    });
    expect(rs.privateKey.extractable).toBe(false);
    expect(creator.encrypt).toHaveBeenCalledTimes(2);
    expect(creator.encrypt.mock.calls[1]?.[1]).toEqual({ purpose: 'jwt-signing', kid: rs.kid });

    // Another process: the same key of each algorithm, one KMS call for each, then none (cached per algorithm).
    const other = instrumented(aProcess(table));
    expect((await signingKeys(other.deps).active('RS256')).kid).toBe(rs.kid);
    expect((await signingKeys(other.deps).active()).kid).toBe(es.kid);
    expect((await signingKeys(other.deps).active('RS256')).kid).toBe(rs.kid);
    expect((await signingKeys(other.deps).active()).kid).toBe(es.kid);
    expect(other.decrypt).toHaveBeenCalledTimes(2);
    expect(other.encrypt).not.toHaveBeenCalled();

    // Stored like the ES256 key: the same attributes, the private half only encrypted, bound to its kid.
    const items = await storedKeys(aProcess(table));
    expect(items).toHaveLength(2);
    const item = items.find((i) => i.kid === rs.kid);
    if (!item) throw new Error('no RS256 key item');
    expect(Object.keys(item).sort()).toEqual(
      ['pk', 'sk', 'entity', 'kid', 'publicJwk', 'encryptedPrivateKey', 'createdAt', 'retiredAt'].sort(),
    );
    expect(item.publicJwk).toEqual({
      kty: 'RSA',
      n: expect.any(String),
      e: 'AQAB',
      kid: rs.kid,
      alg: 'RS256',
      use: 'sig',
    });
    expect(Buffer.from(item.publicJwk.n, 'base64url')).toHaveLength(256);
    const plaintext = await creator.deps.vault.decrypt(item.encryptedPrivateKey, {
      purpose: 'jwt-signing',
      kid: rs.kid,
    });
    const privateJwk = JSON.parse(Buffer.from(plaintext).toString('utf8'));
    expect(privateJwk).toMatchObject({ kty: 'RSA', n: item.publicJwk.n, e: 'AQAB' });
    const stored = JSON.stringify(item);
    for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi']) {
      expect(privateJwk[member], member).toMatch(/^[\w-]{40,}$/);
      expect(stored.includes(privateJwk[member]), member).toBe(false);
    }
    await expect(
      creator.deps.vault.decrypt(item.encryptedPrivateKey, { purpose: 'jwt-signing', kid: es.kid }),
    ).rejects.toThrow();
  });

  it('publishes the RS256 key with the RSA shape and public members only, and a JWT it signs verifies with it', async () => {
    const table = await aKeysTable();
    const signer = aProcess(table);
    const es = await signingKeys(signer).active();
    const rs = await signingKeys(signer).active('RS256');

    const jwks = await signingKeys(aProcess(table)).publicJwks();
    expect(kidsOf(jwks)).toEqual([es.kid, rs.kid].sort());
    expect(v.parse(JwksResponse, jwks)).toEqual(jwks); // strict: any private member would fail
    const rsa = jwks.keys.find((k) => k.kid === rs.kid);
    expect(rsa && Object.keys(rsa).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
    for (const member of PRIVATE_RSA_MEMBERS) expect(rsa).not.toHaveProperty(member);
    expect(jwks.keys.find((k) => k.kid === es.kid)).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });

    const token = await new SignJWT({ scope: 'openid' })
      .setProtectedHeader({ alg: rs.alg, kid: rs.kid, typ: 'JWT' })
      .setIssuer('http://acme.localhost:3000')
      .setAudience('cli_1')
      .setSubject('usr_1')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(rs.privateKey);
    // As a relying party does: the JWK Set as published, the algorithm pinned.
    const verified = await jwtVerify(token, createLocalJWKSet(jwks), {
      algorithms: ['RS256'],
      issuer: 'http://acme.localhost:3000',
      audience: 'cli_1',
    });
    expect(verified.payload).toMatchObject({ sub: 'usr_1', scope: 'openid' });
    expect(verified.protectedHeader).toMatchObject({ alg: 'RS256', kid: rs.kid });
    if (!rsa) throw new Error('no RSA key published');
    expect((await jwtVerify(token, await importJWK(rsa, 'RS256'))).payload.sub).toBe('usr_1');
    // The published EC key does not verify it.
    const ec = jwks.keys.find((k) => k.kid === es.kid);
    if (!ec) throw new Error('no EC key published');
    await expect(jwtVerify(token, await importJWK(ec, 'ES256'))).rejects.toThrow();
  });

  it('never lets the RS256 key verify an API access token', async () => {
    const table = await aKeysTable();
    const signer = aProcess(table);
    const es = await signingKeys(signer).active();
    const rs = await signingKeys(signer).active('RS256');
    const verifier = aProcess(table);

    // The control: the same claims signed with the ES256 key verify.
    const good = await new SignJWT(apiClaims(signer))
      .setProtectedHeader({ alg: 'ES256', kid: es.kid, typ: 'JWT' })
      .sign(es.privateKey);
    expect(await verifyAccessToken(verifier, good)).toMatchObject({ sub: 'usr_1' });

    const rsaSigned = await new SignJWT(apiClaims(signer))
      .setProtectedHeader({ alg: 'RS256', kid: rs.kid, typ: 'JWT' })
      .sign(rs.privateKey);
    expect(decodeProtectedHeader(rsaSigned)).toMatchObject({ alg: 'RS256', kid: rs.kid });
    expect(await verifyAccessToken(verifier, rsaSigned)).toBeNull();
    // Claiming ES256 under the RSA key's kid: the ES256 lookup finds no key for that kid.
    const underRsaKid = await new SignJWT(apiClaims(signer))
      .setProtectedHeader({ alg: 'ES256', kid: rs.kid, typ: 'JWT' })
      .sign(es.privateKey);
    expect(await verifyAccessToken(verifier, underRsaKid)).toBeNull();

    // The lookups: verificationKey pins ES256 unless told; verificationKeyFor says which algorithm.
    const keysOf = signingKeys(verifier);
    expect(await keysOf.verificationKey(rs.kid)).toBeNull();
    expect(await keysOf.verificationKey(es.kid, 'RS256')).toBeNull();
    expect(await keysOf.verificationKey(rs.kid, 'RS256')).toMatchObject({ algorithm: { name: 'RSASSA-PKCS1-v1_5' } });
    expect(await keysOf.verificationKey(es.kid)).toMatchObject({ algorithm: { name: 'ECDSA' } });
    expect(await keysOf.verificationKeyFor(rs.kid)).toMatchObject({ alg: 'RS256', key: { type: 'public' } });
    expect(await keysOf.verificationKeyFor(es.kid)).toMatchObject({ alg: 'ES256', key: { type: 'public' } });
    expect(await keysOf.verificationKeyFor('key_unknown0000000000')).toBeNull();
  });

  it('rotates both algorithms in one transaction: both old keys retired and published an hour, new ones active', async () => {
    const table = await aKeysTable();
    const clock = aClock();
    const signer = aProcess(table, { clock });
    const oldEs = (await signingKeys(signer).active()).kid;
    const oldRs = (await signingKeys(signer).active('RS256')).kid;

    clock.advance(MINUTE);
    const rotator = aProcess(table, { clock });
    const send = rotator.store.doc.send.bind(rotator.store.doc);
    const transactions: any[] = [];
    rotator.store.doc.send = ((command: any, ...rest: any[]) => {
      if (command instanceof TransactWriteCommand) transactions.push(command.input);
      return (send as any)(command, ...rest);
    }) as typeof rotator.store.doc.send;
    const kids = await signingKeys(rotator).rotate();
    expect(kids).toEqual({ ES256: expect.any(String), RS256: expect.any(String) });
    expect([kids.ES256, kids.RS256]).not.toContain(oldEs);
    expect([kids.ES256, kids.RS256]).not.toContain(oldRs);
    expect(transactions).toHaveLength(1);
    expect(transactions[0].TransactItems).toHaveLength(4); // two new keys, two retired

    // The rotating process signs with the new keys at once; a fresh one too.
    expect((await signingKeys(rotator).active('RS256')).kid).toBe(kids.RS256);
    expect((await signingKeys(rotator).active()).kid).toBe(kids.ES256);
    expect((await signingKeys(aProcess(table, { clock })).active('RS256')).kid).toBe(kids.RS256);
    expect((await signingKeys(aProcess(table, { clock })).active()).kid).toBe(kids.ES256);

    const items = await storedKeys(aProcess(table));
    for (const kid of [oldEs, oldRs]) {
      expect(items.find((i) => i.kid === kid)).toMatchObject({
        retiredAt: clock.now().toISOString(),
        ttl: Math.ceil(clock.now().getTime() / 1000) + 3600,
      });
    }
    expect(items.find((i) => i.kid === kids.ES256)).toMatchObject({ retiredAt: null, publicJwk: { alg: 'ES256' } });
    expect(items.find((i) => i.kid === kids.RS256)).toMatchObject({ retiredAt: null, publicJwk: { alg: 'RS256' } });

    clock.advance(59 * MINUTE);
    const all = [oldEs, oldRs, kids.ES256, kids.RS256 ?? ''].sort();
    expect(kidsOf(await signingKeys(aProcess(table, { clock })).publicJwks())).toEqual(all);
    expect(await signingKeys(aProcess(table, { clock })).verificationKey(oldRs, 'RS256')).not.toBeNull();
    clock.advance(2 * MINUTE); // 61 minutes after
    expect(kidsOf(await signingKeys(aProcess(table, { clock })).publicJwks())).toEqual(
      [kids.ES256, kids.RS256 ?? ''].sort(),
    );
    expect(await signingKeys(aProcess(table, { clock })).verificationKeyFor(oldRs)).toBeNull();
    expect(await signingKeys(aProcess(table, { clock })).verificationKeyFor(oldEs)).toBeNull();
  });
});
