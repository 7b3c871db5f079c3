import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '#local/gateway.ts';
import { awsClaimString, jwtAuthorizer } from '#local/jwt-authorizer.ts';
import { REPO_ROOT } from '#local/stack.ts';
import type { RouteDef } from '#shared/http/route.ts';

const ISSUER = 'http://shop.localhost:3000';
const CLIENT = 'cli_abcdefghjkmnpqrstvwx';
const NOW = new Date('2026-06-01T12:00:00Z');
const now = Math.floor(NOW.getTime() / 1000);

const rsa = await generateKeyPair('RS256');
const ec = await generateKeyPair('ES256');
const jwks = {
  keys: [
    { ...(await exportJWK(rsa.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' },
    { ...(await exportJWK(ec.publicKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' },
  ],
};

/** The issuer's discovery document and JWK Set, as its hosted origin serves them; counts the reads. */
const reads: string[] = [];
const fakeFetch = (async (input: string | URL | Request) => {
  const url = String(input instanceof Request ? input.url : input);
  reads.push(url);
  if (url === `${ISSUER}/.well-known/openid-configuration`) {
    return Response.json({ issuer: ISSUER, jwks_uri: `${ISSUER}/api/v1/.well-known/jwks.json` });
  }
  if (url === `${ISSUER}/api/v1/.well-known/jwks.json`) return Response.json(jwks);
  return new Response('not found', { status: 404 });
}) as typeof fetch;

const authorize = jwtAuthorizer({
  settings: { issuer: ISSUER, audience: [CLIENT, 'cli_second0000000000000'] },
  fetch: fakeFetch,
  now: () => NOW,
});

const goodClaims = (): JWTPayload => ({
  iss: ISSUER,
  sub: 'usr_1',
  aud: CLIENT,
  client_id: CLIENT,
  scope: 'openid email',
  sid: 'ses_1',
  app: 'app_1',
  mid: 'mid_1',
  roles: ['DEFAULT', 'SUPER_ADMIN'],
  iat: now - 10,
  exp: now + 300,
  jti: 'jti_1',
});

function sign(claims: JWTPayload, header: { alg?: string; kid?: string | undefined } = {}) {
  const alg = header.alg ?? 'RS256';
  const key = alg === 'ES256' ? ec.privateKey : rsa.privateKey;
  const kid = 'kid' in header ? header.kid : alg === 'ES256' ? 'ec-1' : 'rsa-1';
  return new SignJWT(claims).setProtectedHeader({ alg, typ: 'at+jwt', ...(kid ? { kid } : {}) }).sign(key);
}

describe('the local JWT authorizer', () => {
  it('lets a good RS256 token through with every claim a string, as API Gateway passes them, and scopes null', async () => {
    const context = await authorize(`Bearer ${await sign(goodClaims())}`);
    expect(context).toEqual({
      jwt: {
        claims: {
          iss: ISSUER,
          sub: 'usr_1',
          aud: CLIENT,
          client_id: CLIENT,
          scope: 'openid email',
          sid: 'ses_1',
          app: 'app_1',
          mid: 'mid_1',
          roles: '[DEFAULT SUPER_ADMIN]',
          iat: String(now - 10),
          exp: String(now + 300),
          jti: 'jti_1',
        },
        scopes: null,
      },
    });
  });

  it('reads the discovery document once and the JWK Set from its jwks_uri', async () => {
    await authorize(`Bearer ${await sign(goodClaims())}`);
    expect(reads.filter((u) => u.endsWith('/openid-configuration'))).toHaveLength(1);
    expect(reads.filter((u) => u.endsWith('/api/v1/.well-known/jwks.json'))).toHaveLength(1);
  });

  it('takes the token alone too (the identity source may hold it without "Bearer")', async () => {
    expect(await authorize(await sign(goodClaims()))).not.toBeNull();
  });

  it('takes client_id among the audience when aud is not', async () => {
    expect(await authorize(`Bearer ${await sign({ ...goodClaims(), aud: 'https://elsewhere' })}`)).not.toBeNull();
    expect(
      await authorize(`Bearer ${await sign({ ...goodClaims(), aud: ['x', 'cli_second0000000000000'] })}`),
    ).not.toBeNull();
  });

  it.each<[string, () => Promise<string | undefined>]>([
    ['no header', async () => undefined],
    ['an empty header', async () => ''],
    ['a bearer that is no JWT', async () => 'Bearer abc.def'],
    [
      'an ES256 token (RSA only), its key published',
      async () => `Bearer ${await sign(goodClaims(), { alg: 'ES256' })}`,
    ],
    ['no kid', async () => `Bearer ${await sign(goodClaims(), { kid: undefined })}`],
    ['a kid the JWK Set lacks', async () => `Bearer ${await sign(goodClaims(), { kid: 'rsa-9' })}`],
    ['another issuer', async () => `Bearer ${await sign({ ...goodClaims(), iss: 'http://other.localhost:3000' })}`],
    [
      'the issuer with a trailing slash (compared exactly)',
      async () => `Bearer ${await sign({ ...goodClaims(), iss: `${ISSUER}/` })}`,
    ],
    [
      'neither aud nor client_id listed',
      async () => `Bearer ${await sign({ ...goodClaims(), aud: 'cli_other', client_id: 'cli_other' })}`,
    ],
    ['expired', async () => `Bearer ${await sign({ ...goodClaims(), exp: now })}`],
    ['no exp', async () => `Bearer ${await sign({ ...goodClaims(), exp: undefined })}`],
    ['nbf in the future', async () => `Bearer ${await sign({ ...goodClaims(), nbf: now + 60 })}`],
    ['iat in the future', async () => `Bearer ${await sign({ ...goodClaims(), iat: now + 60 })}`],
    [
      'a payload changed after signing',
      async () => {
        const [h, , s] = (await sign(goodClaims())).split('.');
        const changed = Buffer.from(JSON.stringify({ ...goodClaims(), app: 'app_2' })).toString('base64url');
        return `Bearer ${h}.${changed}.${s}`;
      },
    ],
  ])('refuses %s', async (_, header) => {
    expect(await authorize(await header())).toBeNull();
  });

  it('refuses while the issuer cannot be read, and reads it again at the next request', async () => {
    let up = false;
    const flaky = (async (input: string | URL | Request) => {
      if (!up) throw new TypeError('fetch failed');
      return fakeFetch(input);
    }) as typeof fetch;
    const check = jwtAuthorizer({ settings: { issuer: ISSUER, audience: [CLIENT] }, fetch: flaky, now: () => NOW });
    const token = `Bearer ${await sign(goodClaims())}`;
    expect(await check(token)).toBeNull();
    up = true;
    expect(await check(token)).not.toBeNull();
  });
});

describe('awsClaimString', () => {
  it.each<[unknown, string]>([
    ['text', 'text'],
    [1767225600, '1767225600'],
    [true, 'true'],
    [['a', 'b'], '[a b]'],
    [[], '[]'],
    [{ b: 1, a: 'x' }, 'map[a:x b:1]'],
  ])('%j → %s', (value, text) => {
    expect(awsClaimString(value)).toBe(text);
  });
});

describe('the local gateway behind a JWT authorizer', () => {
  const base: Omit<RouteDef, 'operationId' | 'method' | 'path'> = {
    entry: 'test/support/echo-handler.ts',
    summary: 'echo',
    tag: 'test',
    tenant: 'none',
    auth: 'none',
    status: 200,
    table: [],
  };
  const gateway = createGateway({
    routes: [
      { ...base, operationId: 'guarded', method: 'POST', path: '/plants' },
      { ...base, operationId: 'open', method: 'GET', path: '/openapi.json' },
    ],
    basePath: '',
    root: REPO_ROOT,
    jwtAuthorizer: { routes: ['guarded'], authorize },
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((done) => gateway.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => gateway.close(() => done())));

  it("answers API Gateway's 401 itself, and the function never runs", async () => {
    const res = await fetch(`${url}/plants`, { method: 'POST', headers: { authorization: 'Bearer nope' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-echo')).toBeNull();
    expect(await res.text()).toBe('{"message":"Unauthorized"}');
  });

  it('hands the function the claims in requestContext.authorizer.jwt', async () => {
    const res = await fetch(`${url}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await sign(goodClaims())}` },
    });
    expect(res.status).toBe(200);
    const event = (await res.json()) as APIGatewayProxyEventV2WithJWTAuthorizer;
    expect(event.requestContext.authorizer.jwt.scopes).toBeNull();
    expect(event.requestContext.authorizer.jwt.claims).toMatchObject({
      sub: 'usr_1',
      app: 'app_1',
      exp: String(now + 300),
    });
  });

  it('leaves the routes without the authorizer alone (no check, no authorizer in the event)', async () => {
    const res = await fetch(`${url}/openapi.json`);
    expect(res.status).toBe(200);
    const event = (await res.json()) as { requestContext: Record<string, unknown> };
    expect(event.requestContext.authorizer).toBeUndefined();
  });
});
