import { request as httpRequest } from 'node:http';
import { type JWTPayload, SignJWT } from 'jose';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JwtAuthorizerSettings } from '#local/jwt-authorizer.ts';
import { signingKeys } from '#shared/tokens/signing-keys.ts';
import { aTenantWith, type TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { bearer, identityApi } from '#test/support/http.ts';
import { authorizeAs, issuerOf, localhostFetch, registerClient } from '#test/support/oidc.ts';
import { useLocalStack } from '#test/support/server.ts';
import { claimsOf, plantsApi, storedPlants } from './helpers.ts';

/**
 * The plant store's second mode (README, Plant store): an API Gateway JWT authorizer for one tenant's OpenID
 * Provider in front of POST /plants, emulated by the local gateway as API Gateway does it, fed by the RS256
 * access tokens of the clients it lists. The function takes the caller from the authorizer's claims.
 *
 * API Gateway's own refusal (401 `{"message":"Unauthorized"}`, no function run) is not an answer of the plant
 * store, and its OpenAPI document does not describe it: those requests go over node:http, past the recorder
 * that checks the plant store's answers against its document. Its 200s go through fetch and are checked.
 */

let settings: JwtAuthorizerSettings | undefined;
const api = useLocalStack({
  plantsJwtAuthorizer: () => {
    if (!settings) throw new Error('the test has not set the authorizer up yet');
    return settings;
  },
});
const { logIn } = identityApi(() => api.url);
const { createPlant } = plantsApi(api);

const CALLBACK = 'http://127.0.0.1:50123/callback';

interface Client {
  clientId: string;
  config: oidc.Configuration;
}

interface Provider {
  tenant: TestTenant;
  issuer: string;
  /** The admin's API access token: the signed-in user who completes the sign-in page. */
  userToken: string;
}

async function aProvider(): Promise<Provider> {
  const tenant = await aTenantWith();
  const admin = await logIn(tenant, tenant.adminEmail, tenant.adminPassword);
  return { tenant, issuer: issuerOf(api.stack, tenant), userToken: admin.accessToken };
}

/** A confidential client registered through the admin API, signing with `alg`, and openid-client's view of it. */
async function aClient(provider: Provider, alg: 'RS256' | 'ES256'): Promise<Client> {
  const registered = await registerClient(
    api.url,
    { headers: bearer(provider.tenant, provider.userToken) },
    {
      name: `Plant app ${alg}`,
      type: 'confidential',
      redirectUris: [CALLBACK],
      firstParty: true,
      idTokenSigningAlg: alg,
    },
  );
  const config = await oidc.discovery(
    new URL(provider.issuer),
    registered.clientId,
    undefined,
    oidc.ClientSecretBasic(registered.clientSecret as string),
    { execute: [oidc.allowInsecureRequests], [oidc.customFetch]: localhostFetch as unknown as oidc.CustomFetch },
  );
  return { clientId: registered.clientId, config };
}

/** The code flow with PKCE through openid-client, the sign-in page's step driven through the API: the access token. */
async function accessTokenOf(provider: Provider, client: Client): Promise<string> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(client.config, {
    redirect_uri: CALLBACK,
    scope: 'openid email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const done = await authorizeAs(api.url, provider.tenant, provider.userToken, url);
  expect(done.status, JSON.stringify(done.problem)).toBe(200);
  const tokens = await oidc.authorizationCodeGrant(client.config, done.redirectTo as URL, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  return tokens.access_token;
}

/** POST /plants past the answer recorder (API Gateway's refusals are not the plant store's answers). */
function postPlantRaw(
  body: unknown,
  authorization: string | undefined,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  const url = new URL('/plants', api.plantsUrl);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(payload)),
          ...(authorization === undefined ? {} : { authorization }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** API Gateway's answer to a request its JWT authorizer refuses, word for word. */
function expectRefusedByGateway(res: { status: number; headers: Record<string, unknown>; text: string }) {
  expect({ status: res.status, text: res.text }).toEqual({ status: 401, text: '{"message":"Unauthorized"}' });
  expect(res.headers['content-type']).toBe('application/json');
  expect(res.headers['apigw-requestid']).toEqual(expect.any(String));
}

/** A token signed with the identity's active RS256 key (the one the tenant's JWKS publishes), claims as given. */
async function signedRs256(claims: JWTPayload): Promise<string> {
  const { kid, privateKey } = await signingKeys(makeTestDeps()).active('RS256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: 'at+jwt' }).sign(privateKey);
}

let nextId = 7000;
const anId = () => nextId++;

let shop: Provider;
let rs256: Client;
let es256: Client;
let notListed: Client;
let otherTenant: Provider;
let otherTenantRs256: Client;
let token: string;

beforeAll(async () => {
  shop = await aProvider();
  otherTenant = await aProvider();
  [rs256, es256, notListed, otherTenantRs256] = await Promise.all([
    aClient(shop, 'RS256'),
    aClient(shop, 'ES256'),
    aClient(shop, 'RS256'),
    aClient(otherTenant, 'RS256'),
  ]);
  // The audience lists the ES256 client and the other tenant's client too: their tokens are refused for their
  // algorithm and their issuer, not for their audience. `notListed` is the one client left out.
  settings = {
    issuer: shop.issuer,
    audience: [rs256.clientId, es256.clientId, otherTenantRs256.clientId],
  };
  token = await accessTokenOf(shop, rs256);
});

describe('POST /plants behind the JWT authorizer (issuer: a tenant, audience: its RS256 client)', () => {
  it("takes the RS256 client's access token: 200, the plant stored in that tenant by the token's user", async () => {
    expect(claimsOf(token)).toMatchObject({ iss: shop.issuer, aud: rs256.clientId, client_id: rs256.clientId });
    const id = anId();
    const res = await createPlant({ id, name: 'Monstera', tag: 'tropical' }, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ id, name: 'Monstera', tag: 'tropical' });
    const [item, ...more] = await storedPlants(api.stack, shop.tenant);
    expect(more).toEqual([]);
    expect(item).toMatchObject({
      pk: `T#${shop.tenant.app}#${shop.tenant.mid}#PLANT#${id}`,
      id,
      name: 'Monstera',
      createdBy: shop.tenant.adminUserId,
    });
  });

  it('takes a token the test signs with the same key and claims (the control of the refusals below)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const forged = await signedRs256({ ...claimsOf(token), iat: now, exp: now + 300 });
    const res = await createPlant({ id: anId(), name: 'Control' }, forged);
    expect(res.status, res.text).toBe(200);
  });

  it('the function answers for itself past the authorizer: a body it refuses is its own 400', async () => {
    const res = await createPlant({ id: anId() }, token);
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ error: 400 });
  });
});

describe('POST /plants refused by the JWT authorizer: 401 {"message":"Unauthorized"}, and no function runs', () => {
  const refusals: [string, () => Promise<string | undefined>][] = [
    ['no Authorization header', async () => undefined],
    ['an empty bearer', async () => 'Bearer '],
    ['not a JWT', async () => 'Bearer not-a-token'],
    [
      "an ES256 client's access token (API Gateway verifies RSA only)",
      async () => `Bearer ${await accessTokenOf(shop, es256)}`,
    ],
    [
      "an RS256 client's token whose client id is not in the audience",
      async () => `Bearer ${await accessTokenOf(shop, notListed)}`,
    ],
    [
      "another tenant's token (another issuer), its client in the audience",
      async () => `Bearer ${await accessTokenOf(otherTenant, otherTenantRs256)}`,
    ],
    [
      'an expired token (signed with the right key)',
      async () => {
        const now = Math.floor(Date.now() / 1000);
        return `Bearer ${await signedRs256({ ...claimsOf(token), iat: now - 600, exp: now - 1 })}`;
      },
    ],
    [
      'a token not valid yet (nbf in the future)',
      async () => {
        const now = Math.floor(Date.now() / 1000);
        return `Bearer ${await signedRs256({ ...claimsOf(token), iat: now, nbf: now + 300, exp: now + 600 })}`;
      },
    ],
    [
      'a tampered token (another tenant in its claims, the signature kept)',
      async () => {
        const [header, , signature] = token.split('.');
        const claims = { ...claimsOf(token), app: otherTenant.tenant.app, mid: otherTenant.tenant.mid };
        return `Bearer ${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
      },
    ],
    [
      'a token of the right issuer and audience signed by another RSA key (same kid)',
      async () => {
        const { kid } = await signingKeys(makeTestDeps()).active('RS256');
        const { generateKeyPair } = await import('jose');
        const { privateKey } = await generateKeyPair('RS256');
        const signed = await new SignJWT({ ...claimsOf(token) })
          .setProtectedHeader({ alg: 'RS256', kid, typ: 'at+jwt' })
          .sign(privateKey);
        return `Bearer ${signed}`;
      },
    ],
  ];

  it.each(refusals)('%s', async (_, authorization) => {
    const before = await storedPlants(api.stack, shop.tenant);
    const res = await postPlantRaw({ id: anId(), name: 'Refused' }, await authorization());
    expectRefusedByGateway(res);
    expect(await storedPlants(api.stack, shop.tenant)).toEqual(before);
    expect(await storedPlants(api.stack, otherTenant.tenant)).toEqual([]);
  });
});
