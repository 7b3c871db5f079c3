import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '#shared/store/keys.ts';
import { oidcClientRepo } from '#shared/store/oidc-client-repo.ts';
import type { TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { expectInvalid, expectProblem, isoTimestamp } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';
import { merchantsApi } from '../merchants/helpers.ts';

/**
 * /oidc/clients: the tenant's OpenID Connect
 * clients, registered by its admins. A confidential client's secret is shown
 * once (create, rotate) and stored as a SHA-256 hash only; a public client has
 * none, and rotating one is 409 CONFLICT.
 */

const api = useLocalStack();
const { call, anAdmin, aPlainUser } = merchantsApi(() => api.url);

/** `cs_` and 32 random bytes in base64url. */
const SECRET_FORMAT = /^cs_[A-Za-z0-9_-]{43}$/;
const CLIENT_ID = /^cli_[0-9a-hjkmnp-tv-z]{20}$/;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

type Headers = Record<string, string>;
const create = (headers: Headers, body: unknown) => call('POST', '/oidc/clients', headers, body);
const list = (headers: Headers) => call('GET', '/oidc/clients', headers);
const get = (headers: Headers, id: string) => call('GET', `/oidc/clients/${id}`, headers);
const patch = (headers: Headers, id: string, body: unknown) => call('PATCH', `/oidc/clients/${id}`, headers, body);
const remove = (headers: Headers, id: string) => call('DELETE', `/oidc/clients/${id}`, headers);
const rotate = (headers: Headers, id: string) => call('POST', `/oidc/clients/${id}/secret`, headers);

const publicApp = {
  name: 'Shop app',
  type: 'public',
  redirectUris: ['com.example.shop:/callback', 'http://127.0.0.1:49152/cb'],
};
const webServer = {
  name: 'Shop back office',
  type: 'confidential',
  redirectUris: ['https://shop.example/callback'],
  postLogoutRedirectUris: ['https://shop.example/'],
  grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
  firstParty: true,
  accessTokenLifetimeSeconds: 300,
  refreshTokenLifetimeSeconds: 86_400,
  idTokenSigningAlg: 'RS256',
};

async function aClient(headers: Headers, body: object = webServer) {
  const res = await create(headers, body);
  expect(res.status, res.text).toBe(201);
  return res.body as { clientId: string; clientSecret: string | null; updatedAt: string };
}

/** Makes the session behind `token` have proven its first factor 11 minutes ago (past the 10 of a recent sign-in). */
async function ageSignIn(tenant: TestTenant, token: string) {
  const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
  const deps = makeTestDeps();
  await deps.store.doc.send(
    new UpdateCommand({
      TableName: deps.store.tableName,
      Key: keys.session(tenant, claims.sub, claims.sid),
      UpdateExpression: 'SET authenticatedAt = :at',
      ExpressionAttributeValues: { ':at': new Date(Date.now() - 11 * 60_000).toISOString() },
    }),
  );
}

describe('POST /oidc/clients', () => {
  it('registers a public client with the defaults, and no secret', async () => {
    const { tenant, headers } = await anAdmin();
    const res = await create(headers, publicApp);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      clientId: expect.stringMatching(CLIENT_ID),
      name: 'Shop app',
      type: 'public',
      redirectUris: publicApp.redirectUris,
      postLogoutRedirectUris: [],
      grantTypes: ['authorization_code', 'refresh_token'],
      firstParty: false,
      accessTokenLifetimeSeconds: 900,
      refreshTokenLifetimeSeconds: 604_800,
      idTokenSigningAlg: 'ES256',
      createdAt: isoTimestamp,
      updatedAt: res.body.createdAt,
      secretCreatedAt: null,
      createdBy: tenant.adminUserId,
      clientSecret: null,
    });
  });

  it("answers a confidential client's secret once: never listed, read or stored as such", async () => {
    const { tenant, headers } = await anAdmin();
    const res = await create(headers, webServer);
    expect(res.status, res.text).toBe(201);
    const { clientSecret, ...client } = res.body;
    expect(clientSecret).toMatch(SECRET_FORMAT);
    expect(client).toEqual({
      ...webServer,
      clientId: expect.stringMatching(CLIENT_ID),
      createdAt: isoTimestamp,
      updatedAt: res.body.createdAt,
      secretCreatedAt: res.body.createdAt,
      createdBy: tenant.adminUserId,
    });

    const listed = await list(headers);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([client]);
    const read = await get(headers, client.clientId);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(client);
    for (const answer of [listed.text, read.text]) {
      for (const hidden of [clientSecret, 'clientSecret', 'secretHash']) expect(answer).not.toContain(hidden);
    }
    const stored = await oidcClientRepo(makeTestDeps().store).get(tenant, client.clientId);
    expect(stored?.secretHash).toBe(sha256(clientSecret));
    expect(JSON.stringify(stored)).not.toContain(clientSecret);
  });

  it('makes a distinct id and secret for each client, listed oldest first', async () => {
    const { headers } = await anAdmin();
    const first = await aClient(headers, { ...webServer, name: 'first' });
    const second = await aClient(headers, { ...webServer, name: 'second' });
    expect(first.clientId).not.toBe(second.clientId);
    expect(first.clientSecret).not.toBe(second.clientSecret);
    expect((await list(headers)).body.map((c: { name: string }) => c.name)).toEqual(['first', 'second']);
  });

  it.each([
    ['a relative redirect URI', { redirectUris: ['/callback'] }, 'redirectUris.0'],
    ['a redirect URI with a fragment', { redirectUris: ['https://shop.example/cb#x'] }, 'redirectUris.0'],
    ['plain http to a host', { redirectUris: ['http://shop.example/cb'] }, 'redirectUris.0'],
    ['a wildcard', { redirectUris: ['https://*.shop.example/cb'] }, 'redirectUris.0'],
    ['a scheme without a dot', { redirectUris: ['myapp:/callback'] }, 'redirectUris.0'],
    ['no redirect URI', { redirectUris: [] }, 'redirectUris'],
    [
      '11 redirect URIs',
      { redirectUris: Array.from({ length: 11 }, (_, i) => `https://shop.example/${i}`) },
      'redirectUris',
    ],
    ['a bad post-logout URI', { postLogoutRedirectUris: ['http://shop.example/'] }, 'postLogoutRedirectUris.0'],
    // Stored and compared serialized: a text a browser reads as another URL is refused, not silently rewritten.
    ['an https:host URI', { redirectUris: ['https:shop.example/cb'] }, 'redirectUris.0'],
    ['a URI with backslashes', { redirectUris: ['https:\\\\shop.example\\cb'] }, 'redirectUris.0'],
    ['an upper-case host', { redirectUris: ['https://Shop.example/cb'] }, 'redirectUris.0'],
    ['a host without its path', { redirectUris: ['https://shop.example'] }, 'redirectUris.0'],
    [
      '11 post-logout URIs',
      { postLogoutRedirectUris: Array.from({ length: 11 }, (_, i) => `https://shop.example/${i}`) },
      'postLogoutRedirectUris',
    ],
    ['no grant type', { grantTypes: [] }, 'grantTypes'],
    ['a repeated grant type', { grantTypes: ['authorization_code', 'authorization_code'] }, 'grantTypes'],
    ['an unknown grant type', { grantTypes: ['password'] }, 'grantTypes.0'],
    ['client_credentials for a public client', { grantTypes: ['client_credentials'] }, 'grantTypes'],
    ['refresh_token without authorization_code', { grantTypes: ['refresh_token'] }, 'grantTypes'],
    ['an access token of 59 s', { accessTokenLifetimeSeconds: 59 }, 'accessTokenLifetimeSeconds'],
    ['an access token of 3601 s', { accessTokenLifetimeSeconds: 3601 }, 'accessTokenLifetimeSeconds'],
    ['a refresh token of 3599 s', { refreshTokenLifetimeSeconds: 3599 }, 'refreshTokenLifetimeSeconds'],
    ['a refresh token of 2592001 s', { refreshTokenLifetimeSeconds: 2_592_001 }, 'refreshTokenLifetimeSeconds'],
    ['HS256', { idTokenSigningAlg: 'HS256' }, 'idTokenSigningAlg'],
    ['an unknown type', { type: 'native' }, 'type'],
    ['no name', { name: '  ' }, 'name'],
    ['a secret of its own', { clientSecret: 'cs_mine' }, 'clientSecret'],
  ])('answers 400 VALIDATION_FAILED to %s (%j naming %s), and registers nothing', async (_case, change, path) => {
    const { headers } = await anAdmin();
    expectInvalid(await create(headers, { ...publicApp, ...change }), path);
    expect((await list(headers)).body).toEqual([]);
  });

  it('answers 400 VALIDATION_FAILED to a native app scheme on a confidential client, naming the URI', async () => {
    const { headers } = await anAdmin();
    const body = { ...webServer, redirectUris: ['https://shop.example/cb', 'com.example.shop:/callback'] };
    expectInvalid(await create(headers, body), 'redirectUris.1');
  });

  it('accepts the lifetimes at their bounds', async () => {
    const { headers } = await anAdmin();
    await aClient(headers, { ...publicApp, accessTokenLifetimeSeconds: 60, refreshTokenLifetimeSeconds: 3600 });
    await aClient(headers, { ...publicApp, accessTokenLifetimeSeconds: 3600, refreshTokenLifetimeSeconds: 2_592_000 });
  });

  it('answers 403 REAUTHENTICATION_REQUIRED when the sign-in is older than 10 minutes, and registers nothing', async () => {
    const { tenant, token, headers } = await anAdmin();
    await ageSignIn(tenant, token);
    expectProblem(await create(headers, webServer), 403, 'REAUTHENTICATION_REQUIRED');
    expect((await list(headers)).body).toEqual([]);
  });

  it('answers 403 FORBIDDEN to an API key, which may still list', async () => {
    const { tenant, headers } = await anAdmin();
    const key = await call('POST', `/merchants/${tenant.id}/api-keys`, headers, { label: 'oidc' });
    const withKey = { ...tenant.headers, 'x-api-key': key.body.apiKey };
    expectProblem(await create(withKey, webServer), 403, 'FORBIDDEN');
    expect((await list(withKey)).status).toBe(200);
  });
});

describe('PATCH /oidc/clients/{clientId}', () => {
  it('changes the fields given, under the same rules', async () => {
    const { headers } = await anAdmin();
    const created = await aClient(headers);
    const res = await patch(headers, created.clientId, {
      name: 'Renamed',
      redirectUris: ['https://shop.example/new'],
      grantTypes: ['authorization_code'],
      idTokenSigningAlg: 'ES256',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      clientId: created.clientId,
      name: 'Renamed',
      type: 'confidential',
      redirectUris: ['https://shop.example/new'],
      grantTypes: ['authorization_code'],
      idTokenSigningAlg: 'ES256',
      firstParty: true,
    });
    expect(res.body.updatedAt > created.updatedAt).toBe(true);
    expect('clientSecret' in res.body).toBe(false);
    expect((await get(headers, created.clientId)).body).toEqual(res.body);
  });

  it.each([
    ['the type', { type: 'public' }, 'type'],
    ['the id', { clientId: 'cli_mine' }, 'clientId'],
    ['a redirect URI with a fragment', { redirectUris: ['https://shop.example/cb#x'] }, 'redirectUris.0'],
    ['refresh_token alone', { grantTypes: ['refresh_token'] }, 'grantTypes'],
  ])('answers 400 VALIDATION_FAILED to %s (%j naming %s)', async (_case, body, path) => {
    const { headers } = await anAdmin();
    const created = await aClient(headers);
    expectInvalid(await patch(headers, created.clientId, body), path);
  });

  it('refuses an API key that would send a client’s sign-ins elsewhere (403 FORBIDDEN); it may still rename it', async () => {
    const { tenant, headers } = await anAdmin();
    const created = await aClient(headers);
    const key = await call('POST', `/merchants/${tenant.id}/api-keys`, headers, { label: 'oidc' });
    const withKey = { ...tenant.headers, 'x-api-key': key.body.apiKey };
    expectProblem(
      await patch(withKey, created.clientId, { redirectUris: ['https://evil.example/cb'] }),
      403,
      'FORBIDDEN',
    );
    expectProblem(
      await patch(withKey, created.clientId, { postLogoutRedirectUris: ['https://evil.example/'] }),
      403,
      'FORBIDDEN',
    );
    expect((await patch(withKey, created.clientId, { name: 'Back office' })).status).toBe(200);
    expect((await get(headers, created.clientId)).body).toMatchObject({
      name: 'Back office',
      redirectUris: webServer.redirectUris,
      postLogoutRedirectUris: webServer.postLogoutRedirectUris,
    });
  });

  it('answers 403 REAUTHENTICATION_REQUIRED to a redirect URI or first-party change when the sign-in is older than 10 minutes', async () => {
    const { tenant, token, headers } = await anAdmin();
    const created = await aClient(headers);
    await ageSignIn(tenant, token);
    const res = await patch(headers, created.clientId, { redirectUris: ['https://shop.example/other'] });
    expectProblem(res, 403, 'REAUTHENTICATION_REQUIRED');
    expect((await get(headers, created.clientId)).body.redirectUris).toEqual(webServer.redirectUris);
    // Whether users are asked for consent is guarded the same way; the name is not.
    expectProblem(await patch(headers, created.clientId, { firstParty: false }), 403, 'REAUTHENTICATION_REQUIRED');
    expect((await get(headers, created.clientId)).body.firstParty).toBe(true);
    expect((await patch(headers, created.clientId, { name: 'Renamed' })).status).toBe(200);
  });

  it("judges a change with the client's stored type: no client_credentials for a public client", async () => {
    const { headers } = await anAdmin();
    const created = await aClient(headers, publicApp);
    expectInvalid(await patch(headers, created.clientId, { grantTypes: ['client_credentials'] }), 'grantTypes');
    expect((await get(headers, created.clientId)).body.grantTypes).toEqual(['authorization_code', 'refresh_token']);
  });
});

describe('DELETE /oidc/clients/{clientId}', () => {
  it('answers 204, then 404 NOT_FOUND to every route', async () => {
    const { headers } = await anAdmin();
    const { clientId } = await aClient(headers);
    const res = await remove(headers, clientId);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectProblem(await get(headers, clientId), 404, 'NOT_FOUND');
    expectProblem(await patch(headers, clientId, { name: 'back' }), 404, 'NOT_FOUND');
    expectProblem(await rotate(headers, clientId), 404, 'NOT_FOUND');
    expectProblem(await remove(headers, clientId), 404, 'NOT_FOUND');
    expect((await list(headers)).body).toEqual([]);
  });
});

describe('POST /oidc/clients/{clientId}/secret', () => {
  it('answers a new secret once; the stored hash is the new one', async () => {
    const { tenant, headers } = await anAdmin();
    const created = await aClient(headers);
    const res = await rotate(headers, created.clientId);
    expect(res.status, res.text).toBe(200);
    expect(res.body.clientSecret).toMatch(SECRET_FORMAT);
    expect(res.body.clientSecret).not.toBe(created.clientSecret);
    expect(res.body).toMatchObject({ clientId: created.clientId, secretCreatedAt: res.body.updatedAt });
    const stored = await oidcClientRepo(makeTestDeps().store).get(tenant, created.clientId);
    expect(stored?.secretHash).toBe(sha256(res.body.clientSecret));
    expect(stored?.secretHash).not.toBe(sha256(created.clientSecret ?? ''));
    expect((await get(headers, created.clientId)).text).not.toContain(res.body.clientSecret);
  });

  it('answers 409 CONFLICT for a public client, which has no secret', async () => {
    const { headers } = await anAdmin();
    const { clientId } = await aClient(headers, publicApp);
    expectProblem(await rotate(headers, clientId), 409, 'CONFLICT');
    expect((await get(headers, clientId)).body.secretCreatedAt).toBeNull();
  });

  it('answers 403 REAUTHENTICATION_REQUIRED when the sign-in is older than 10 minutes, and keeps the secret', async () => {
    const { tenant, token, headers } = await anAdmin();
    const created = await aClient(headers);
    await ageSignIn(tenant, token);
    expectProblem(await rotate(headers, created.clientId), 403, 'REAUTHENTICATION_REQUIRED');
    const stored = await oidcClientRepo(makeTestDeps().store).get(tenant, created.clientId);
    expect(stored?.secretHash).toBe(sha256(created.clientSecret ?? ''));
  });
});

describe('tenants and authority', () => {
  it("gives another tenant's admin 404 NOT_FOUND for A's client, and none of A's clients in its list", async () => {
    const a = await anAdmin();
    const b = await anAdmin();
    const { clientId } = await aClient(a.headers);
    expectProblem(await get(b.headers, clientId), 404, 'NOT_FOUND');
    expectProblem(await patch(b.headers, clientId, { name: 'taken' }), 404, 'NOT_FOUND');
    expectProblem(await rotate(b.headers, clientId), 404, 'NOT_FOUND');
    expectProblem(await remove(b.headers, clientId), 404, 'NOT_FOUND');
    expect((await list(b.headers)).body).toEqual([]);
    expect((await get(a.headers, clientId)).body.name).toBe(webServer.name);
  });

  it('answers 404 NOT_FOUND to an id that names nothing', async () => {
    const { headers } = await anAdmin();
    expectProblem(await get(headers, 'cli_00000000000000000000'), 404, 'NOT_FOUND');
    expectProblem(await get(headers, 'not%23an-id'), 404, 'NOT_FOUND');
  });

  it('answers 403 FORBIDDEN to a plain user', async () => {
    const { tenant, headers } = await anAdmin();
    const { clientId } = await aClient(headers);
    const user = await aPlainUser(tenant);
    expectProblem(await list(user.headers), 403, 'FORBIDDEN');
    expectProblem(await get(user.headers, clientId), 403, 'FORBIDDEN');
    expectProblem(await create(user.headers, webServer), 403, 'FORBIDDEN');
    expectProblem(await rotate(user.headers, clientId), 403, 'FORBIDDEN');
  });
});
