import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '#shared/tokens/access-token.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { bodyOf } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();
const subject = { sub: 'usr_wk', sid: 'ses_wk', app: 'app_wk', mid: 'mid_wk', roles: ['DEFAULT'] };
let accessToken: string;

beforeAll(async () => {
  // Issued as a login function of this deployment would: same table, same secrets key, the stack's issuer.
  const base = makeTestDeps();
  ({ accessToken } = await issueAccessToken({ ...base, config: { ...base.config, issuerUrl: api.url } }, subject));
});

describe('GET /.well-known/jwks.json', () => {
  it('answers the public signing keys without tenant headers, cacheable, and never a private part', async () => {
    const res = await fetch(`${api.url}/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const { keys } = await bodyOf(res);
    expect(keys.length).toBeGreaterThan(0);
    // ES256 keys, and RS256 ones once an OpenID Connect client asked for RS256: public members only.
    for (const key of keys) {
      if (key.kty === 'RSA') {
        expect(Object.keys(key).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
        expect(key).toMatchObject({ alg: 'RS256', use: 'sig', kid: expect.any(String) });
      } else {
        expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
        expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: expect.any(String) });
      }
      expect(key).not.toHaveProperty('d');
    }
    expect(keys.map((k: { kid: string }) => k.kid)).toContain(decodeProtectedHeader(accessToken).kid);
  });

  it('verifies an access token of this deployment with jose, as a resource server would', async () => {
    const jwks = createRemoteJWKSet(new URL(`${api.url}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(accessToken, jwks, {
      issuer: api.url,
      audience: subject.app,
      algorithms: ['ES256'],
    });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    expect(payload).toMatchObject({ ...subject, iss: api.url, aud: subject.app });
  });
});

describe('GET /.well-known/openid-configuration', () => {
  it('names the issuer and where its keys are, without tenant headers', async () => {
    const res = await fetch(`${api.url}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const config = await bodyOf(res);
    expect(config).toEqual({ issuer: api.url, jwks_uri: `${api.url}/.well-known/jwks.json` });
    expect((await fetch(config.jwks_uri)).status).toBe(200);
  });
});
