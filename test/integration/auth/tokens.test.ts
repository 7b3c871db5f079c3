import {
  type CryptoKey,
  decodeJwt,
  decodeProtectedHeader,
  exportSPKI,
  generateKeyPair,
  importJWK,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '#shared/deps.ts';
import { ACCESS_TOKEN_TTL_SECONDS, issueAccessToken, verifyAccessToken } from '#shared/tokens/access-token.ts';
import { signingKeys } from '#shared/tokens/signing-keys.ts';
import { aClock, aKeysTable, aProcess, MINUTE } from './keys-table.ts';

const ISSUER = 'http://localhost:3000/api/v1';
const subject = { sub: 'usr_1', sid: 'ses_1', app: 'app_1', mid: 'mid_1', roles: ['USER', 'DEFAULT'] };

const clock = aClock();
let deps: Deps;
let kid: string;
let privateKey: CryptoKey;
let token: string;

beforeAll(async () => {
  deps = aProcess(await aKeysTable(), { clock });
  ({ accessToken: token } = await issueAccessToken(deps, subject));
  ({ kid, privateKey } = await signingKeys(deps).active());
});

const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

/** The claims we issue, for crafting tokens with one thing wrong. */
function goodClaims(): Record<string, unknown> {
  const iat = nowSeconds();
  return { ...subject, iss: ISSUER, aud: subject.app, iat, exp: iat + 900, jti: 'jti_1' };
}

/** Signs claims as given (no defaults added) with our real key unless told otherwise. */
function sign(claims: Record<string, unknown>, key: CryptoKey | Uint8Array = privateKey, header: object = {}) {
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT', ...header }).sign(key);
}

function without(claims: Record<string, unknown>, name: string) {
  const { [name]: _dropped, ...rest } = claims;
  return rest;
}

describe('issueAccessToken', () => {
  it('signs ES256 with the active kid and exactly the contract claims, for 15 minutes', async () => {
    const issued = await issueAccessToken(deps, subject);
    expect(issued.expiresIn).toBe(900);
    expect(ACCESS_TOKEN_TTL_SECONDS).toBe(900);
    expect(decodeProtectedHeader(issued.accessToken)).toEqual({ alg: 'ES256', kid, typ: 'JWT' });
    const claims = decodeJwt(issued.accessToken);
    expect(Object.keys(claims).sort()).toEqual(
      ['iss', 'aud', 'sub', 'sid', 'app', 'mid', 'roles', 'iat', 'exp', 'jti'].sort(),
    );
    expect(claims).toMatchObject({ iss: ISSUER, aud: 'app_1', sub: 'usr_1', sid: 'ses_1', app: 'app_1', mid: 'mid_1' });
    expect(claims.roles).toEqual(['USER', 'DEFAULT']);
    expect(claims.iat).toBe(nowSeconds());
    expect(claims.exp).toBe(nowSeconds() + 900);
    expect(claims.jti).toEqual(expect.any(String));
    expect(decodeJwt(token).jti).not.toBe(claims.jti);
  });
});

describe('verifyAccessToken', () => {
  it('answers the claims of a good token', async () => {
    expect(await verifyAccessToken(deps, token)).toEqual(decodeJwt(token));
  });

  it('accepts a token until its exp, and refuses it from then on (deps.clock)', async () => {
    const expiring = (await issueAccessToken(deps, subject)).accessToken;
    const at = (offset: number) =>
      aProcess(deps.store.tableName, { clock: aClock(new Date(clock.now().getTime() + offset).toISOString()) });
    expect(await verifyAccessToken(at(15 * MINUTE - 1000), expiring)).not.toBeNull();
    expect(await verifyAccessToken(at(15 * MINUTE), expiring)).toBeNull();
    expect(await verifyAccessToken(at(60 * MINUTE), expiring)).toBeNull();
  });

  it('refuses alg none', async () => {
    const unsecured = new UnsecuredJWT(goodClaims()).encode();
    expect(await verifyAccessToken(deps, unsecured)).toBeNull();
    const [, payload] = token.split('.');
    const noneWithKid = Buffer.from(JSON.stringify({ alg: 'none', kid, typ: 'JWT' })).toString('base64url');
    expect(await verifyAccessToken(deps, `${noneWithKid}.${payload}.`)).toBeNull();
  });

  it('refuses HS256 keyed with our public key (algorithm confusion)', async () => {
    const jwk = (await signingKeys(deps).publicJwks()).keys.find((k) => k.kid === kid);
    if (jwk?.kty !== 'EC') throw new Error('no ES256 public key');
    const pem = await exportSPKI((await importJWK(jwk, 'ES256', { extractable: true })) as CryptoKey);
    for (const secret of [pem, JSON.stringify(jwk), jwk.x]) {
      const forged = await sign(goodClaims(), new TextEncoder().encode(secret), { alg: 'HS256' });
      expect(await verifyAccessToken(deps, forged)).toBeNull();
    }
  });

  it('refuses a tampered payload', async () => {
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
    const tampered = Buffer.from(JSON.stringify({ ...claims, roles: ['SUPER_ADMIN'] })).toString('base64url');
    expect(await verifyAccessToken(deps, `${header}.${tampered}.${signature}`)).toBeNull();
  });

  it('refuses an unknown kid, a foreign key under our kid, and no kid', async () => {
    const foreign = (await generateKeyPair('ES256')).privateKey;
    expect(
      await verifyAccessToken(deps, await sign(goodClaims(), foreign, { kid: 'key_unknown0000000000' })),
    ).toBeNull();
    expect(await verifyAccessToken(deps, await sign(goodClaims(), foreign))).toBeNull();
    const noKid = await new SignJWT(goodClaims()).setProtectedHeader({ alg: 'ES256', typ: 'JWT' }).sign(privateKey);
    expect(await verifyAccessToken(deps, noKid)).toBeNull();
  });

  it('accepts a token we craft with the good claims (the hostile cases differ in one thing only)', async () => {
    expect(await verifyAccessToken(deps, await sign(goodClaims()))).not.toBeNull();
  });

  it('refuses a wrong issuer', async () => {
    const claims = { ...goodClaims(), iss: 'https://evil.example/api/v1' };
    expect(await verifyAccessToken(deps, await sign(claims))).toBeNull();
  });

  it.each(['sub', 'sid', 'app', 'mid', 'jti', 'exp', 'iat', 'iss', 'aud', 'roles'])(
    'refuses a token without %s',
    async (claim) => {
      expect(await verifyAccessToken(deps, await sign(without(goodClaims(), claim)))).toBeNull();
    },
  );

  it('refuses aud other than the app claim, or as a list', async () => {
    expect(await verifyAccessToken(deps, await sign({ ...goodClaims(), aud: 'app_2' }))).toBeNull();
    expect(await verifyAccessToken(deps, await sign({ ...goodClaims(), aud: [subject.app] }))).toBeNull();
    expect(await verifyAccessToken(deps, await sign({ ...goodClaims(), aud: [subject.app, 'app_2'] }))).toBeNull();
  });

  it('refuses another typ and claims of the wrong type', async () => {
    expect(await verifyAccessToken(deps, await sign(goodClaims(), privateKey, { typ: 'at+jwt' }))).toBeNull();
    expect(await verifyAccessToken(deps, await sign({ ...goodClaims(), roles: 'SUPER_ADMIN' }))).toBeNull();
    expect(await verifyAccessToken(deps, await sign({ ...goodClaims(), sid: 42 }))).toBeNull();
  });

  it('answers null for anything that is not a JWT', async () => {
    for (const junk of ['', 'not-a-token', 'a.b.c', `${token}x`, token.split('.').slice(0, 2).join('.')]) {
      expect(await verifyAccessToken(deps, junk)).toBeNull();
    }
  });
});

describe('verifyAccessToken of a token it verified before (the per-process memory of good tokens)', () => {
  it('answers the same claims again, and they cannot be changed by whoever reads them', async () => {
    const process = aProcess(await aKeysTable(), { clock: aClock(clock.now().toISOString()) });
    const issued = (await issueAccessToken(process, subject)).accessToken;
    const first = await verifyAccessToken(process, issued);
    expect(await verifyAccessToken(process, issued)).toEqual(first);
    expect(first).toEqual(decodeJwt(issued));
    expect(() => {
      (first as { roles: string[] }).roles.push('SUPER_ADMIN');
    }).toThrow();
    expect((await verifyAccessToken(process, issued))?.roles).toEqual(['USER', 'DEFAULT']);
  });

  it('still refuses it from its exp on, in the same process', async () => {
    const later = aClock(clock.now().toISOString());
    const process = aProcess(await aKeysTable(), { clock: later });
    const issued = (await issueAccessToken(process, subject)).accessToken;
    expect(await verifyAccessToken(process, issued)).not.toBeNull();
    later.advance(15 * MINUTE - 1000);
    expect(await verifyAccessToken(process, issued)).not.toBeNull();
    later.advance(1000);
    expect(await verifyAccessToken(process, issued)).toBeNull();
  });

  it('refuses it once its key is no longer published, though the token has not expired', async () => {
    const later = aClock(clock.now().toISOString());
    const table = await aKeysTable();
    const process = aProcess(table, { clock: later });
    const key = await signingKeys(process).active();
    const iat = Math.floor(later.now().getTime() / 1000);
    // A token that outlives its key (ours live 15 minutes; this one says 3 hours): only the key can end it.
    const longLived = await new SignJWT({
      ...subject,
      iss: ISSUER,
      aud: subject.app,
      iat,
      exp: iat + 3 * 3600,
      jti: 'j',
    })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'JWT' })
      .sign(key.privateKey);
    expect(await verifyAccessToken(process, longLived)).not.toBeNull();
    await signingKeys(aProcess(table, { clock: later })).rotate();
    later.advance(59 * MINUTE);
    expect(await verifyAccessToken(process, longLived)).not.toBeNull();
    later.advance(2 * MINUTE); // the retired key is unpublished an hour after the rotation
    expect(await verifyAccessToken(process, longLived)).toBeNull();
  });

  it('remembers nothing of a refused token: its tampered twin of a good one is refused every time', async () => {
    const process = aProcess(await aKeysTable(), { clock: aClock(clock.now().toISOString()) });
    const issued = (await issueAccessToken(process, subject)).accessToken;
    expect(await verifyAccessToken(process, issued)).not.toBeNull();
    const [header, payload, signature] = issued.split('.');
    const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString());
    const elevated = Buffer.from(JSON.stringify({ ...claims, roles: ['SUPER_ADMIN'] })).toString('base64url');
    const tampered = `${header}.${elevated}.${signature}`;
    expect(await verifyAccessToken(process, tampered)).toBeNull();
    expect(await verifyAccessToken(process, tampered)).toBeNull();
    expect((await verifyAccessToken(process, issued))?.roles).toEqual(['USER', 'DEFAULT']);
  });
});
