import {
  createLocalJWKSet,
  errors,
  exportJWK,
  generateKeyPair,
  type JWTPayload,
  type JWTVerifyGetKey,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { KeySetUnavailableError, remoteJwksVerifier } from '#shared/tokens/resource-server.ts';

const ISSUER = 'https://id.example/api/v1';
const now = Math.floor(Date.now() / 1000);
const claims = { sub: 'usr_1', sid: 'ses_1', app: 'app_1', mid: 'mid_1', roles: ['DEFAULT'], aud: 'app_1' };

let sign: (payload: JWTPayload, header?: Record<string, unknown>) => Promise<string>;
let keys: JWTVerifyGetKey;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] });
  sign = (payload, header = {}) =>
    new SignJWT(payload)
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', ...header })
      .setIssuer(ISSUER)
      .setIssuedAt(now)
      .setExpirationTime(now + 900)
      .sign(privateKey);
});

const verifier = () => remoteJwksVerifier({ issuerUrl: ISSUER, jwksUrl: `${ISSUER}/.well-known/jwks.json`, keys });

describe('remoteJwksVerifier', () => {
  it("answers a good token's caller and tenant", async () => {
    expect(await verifier()(await sign(claims))).toEqual({
      kind: 'token',
      sub: 'usr_1',
      sid: 'ses_1',
      app: 'app_1',
      mid: 'mid_1',
      roles: ['DEFAULT'],
      exp: now + 900,
    });
  });

  it('takes any aud: it is the tenant app, one per tenant, and the tenant comes from app/mid', async () => {
    expect(await verifier()(await sign({ ...claims, aud: 'someone-else' }))).not.toBeNull();
  });

  it('refuses another issuer, an expired token, an unknown kid, alg none and missing or odd claims', async () => {
    const verify = verifier();
    const { privateKey: otherKey } = await generateKeyPair('ES256');
    const bad = [
      await new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer('https://evil.example')
        .setExpirationTime(now + 60)
        .sign(otherKey),
      await new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer(ISSUER)
        .setExpirationTime(now + 60)
        .sign(otherKey),
      await sign(claims, { kid: 'k2' }),
      new UnsecuredJWT({ ...claims, iss: ISSUER, exp: now + 60 }).encode(),
      await sign({ ...claims, app: undefined }),
      await sign({ ...claims, mid: 'mid#1' }),
      await sign({ ...claims, roles: 'ADMIN' }),
      'not-a-jwt',
    ];
    for (const token of bad) expect(await verify(token)).toBeNull();
    const expired = remoteJwksVerifier({
      issuerUrl: ISSUER,
      jwksUrl: `${ISSUER}/.well-known/jwks.json`,
      keys,
      now: () => new Date((now + 901) * 1000),
    });
    expect(await expired(await sign(claims))).toBeNull();
  });

  it('refuses a token signed with the right key for another issuer', async () => {
    const verify = remoteJwksVerifier({ issuerUrl: 'https://id.other.example/api/v1', jwksUrl: ISSUER, keys });
    expect(await verify(await sign(claims))).toBeNull();
  });

  it('throws (503, not 401) when the key set cannot be fetched or read', async () => {
    const token = await sign(claims);
    for (const failure of [
      new errors.JWKSTimeout(),
      new errors.JWKSInvalid('not a JWK set'),
      new errors.JOSEError('Expected 200 OK from the JSON Web Key Set HTTP response'),
      new TypeError('fetch failed'),
    ]) {
      const verify = remoteJwksVerifier({
        issuerUrl: ISSUER,
        jwksUrl: `${ISSUER}/.well-known/jwks.json`,
        keys: async () => {
          throw failure;
        },
      });
      const error = await verify(token).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(KeySetUnavailableError);
      expect((error as Error).name).toBe('ServiceUnavailable');
    }
  });
});
