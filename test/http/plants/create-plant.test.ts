import { generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { bearer } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';
import { claimsOf, expectPlantError, plantsApi, storedPlants } from './helpers.ts';

const api = useLocalStack();
const plants = plantsApi(api);
const { createPlant, aSignedInUser, signedByIdentity } = plantsApi(api);

let nextId = 1000;
const anId = () => nextId++;

describe('POST /plants', () => {
  it("stores the plant under the token's tenant and answers 200 with it, as stored", async () => {
    const { tenant, user, token } = await aSignedInUser();
    const id = anId();
    const res = await createPlant({ id, name: 'Monstera', tag: 'tropical' }, token);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({ id, name: 'Monstera', tag: 'tropical' });

    const [item, ...more] = await storedPlants(api.stack, tenant);
    expect(more).toEqual([]);
    expect(item).toMatchObject({
      pk: `T#${tenant.app}#${tenant.mid}#PLANT#${id}`,
      sk: 'PLANT',
      entity: 'PLANT',
      id,
      name: 'Monstera',
      tag: 'tropical',
      createdBy: user.id,
    });
  });

  it('leaves tag out of the answer when none was given', async () => {
    const { token } = await aSignedInUser();
    const id = anId();
    const res = await createPlant({ id, name: 'Fern' }, token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, name: 'Fern' });
    expect(res.text).not.toContain('tag');
  });

  it('takes the largest and smallest ids a JSON number holds exactly (±(2^53 - 1)) and returns them unaltered', async () => {
    const { token } = await aSignedInUser();
    for (const literal of ['9007199254740991', '-9007199254740991', '0']) {
      const res = await createPlant(`{"id":${literal},"name":"Edge"}`, token);
      expect(res.status, res.text).toBe(200);
      expect(res.text).toBe(`{"id":${literal},"name":"Edge"}`);
    }
  });

  it('needs no tenant headers: the tenant comes from the token, even when other headers name another', async () => {
    const { tenant, token } = await aSignedInUser();
    const other = await aTenantWith();
    const id = anId();
    const res = await createPlant({ id, name: 'Aloe' }, token, { 'x-app-id': other.app, 'x-mid-key': other.mid });
    expect(res.status).toBe(200);
    expect(await storedPlants(api.stack, tenant)).toHaveLength(1);
    expect(await storedPlants(api.stack, other)).toEqual([]);
  });

  it('answers 400 to an id already taken in the tenant, and keeps the first plant', async () => {
    const { tenant, token } = await aSignedInUser();
    const id = anId();
    expect((await createPlant({ id, name: 'First' }, token)).status).toBe(200);
    const again = await createPlant({ id, name: 'Second' }, token);
    expectPlantError(again, 400, /^id: /);
    const items = await storedPlants(api.stack, tenant);
    expect(items.map((i) => i.name)).toEqual(['First']);
  });

  it('lets two tenants have a plant of the same id', async () => {
    const a = await aSignedInUser();
    const b = await aSignedInUser();
    const id = anId();
    expect((await createPlant({ id, name: 'Basil' }, a.token)).status).toBe(200);
    const res = await createPlant({ id, name: 'Thyme' }, b.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, name: 'Thyme' });
    expect((await storedPlants(api.stack, a.tenant)).map((i) => i.name)).toEqual(['Basil']);
    expect((await storedPlants(api.stack, b.tenant)).map((i) => i.name)).toEqual(['Thyme']);
  });

  it('lets two users of one tenant share its plants: the second one cannot take an id the first took', async () => {
    const { tenant, token } = await aSignedInUser();
    const colleague = await aUser(tenant);
    const { accessToken: colleagueToken } = await plants.logIn(tenant, colleague.email, colleague.password);
    const id = anId();
    expect((await createPlant({ id, name: 'Ivy' }, token)).status).toBe(200);
    expectPlantError(await createPlant({ id, name: 'Ivy again' }, colleagueToken), 400);
  });
});

describe('POST /plants: validation (400 { error, message }, nothing stored)', () => {
  it.each([
    ['no name', { id: 1 }, /name: is required/],
    ['no id', { name: 'Fern' }, /id: is required/],
    ['an empty name', { id: 1, name: '' }, /name: /],
    ['a name over 256 characters', { id: 1, name: 'x'.repeat(257) }, /name: .*256/],
    ['an unknown field', { id: 1, name: 'Fern', colour: 'green' }, /colour: is not a known field/],
    ['a null tag', { id: 1, name: 'Fern', tag: null }, /tag: /],
    ['an id as a string', { id: '1', name: 'Fern' }, /id: /],
    ['a body that is an array', [{ id: 1, name: 'Fern' }], /body: must be a JSON object/],
  ])('refuses %s', async (_, body, message) => {
    const { tenant, token } = await aSignedInUser();
    expectPlantError(await createPlant(body, token), 400, message);
    expect(await storedPlants(api.stack, tenant)).toEqual([]);
  });

  it.each([
    ['a fraction', '1.5'],
    ['2^53 + 1, which JSON.parse rounds to 2^53', '9007199254740993'],
    ['-(2^53 + 1)', '-9007199254740993'],
    ['2^53 itself', '9007199254740992'],
    ['an id far beyond int64', '123456789012345678901234567890'],
    ['a fraction JSON.parse rounds to an integer', '9007199254740990.5'],
    ['a fraction JSON.parse rounds to 1', '1.0000000000000001'],
  ])('refuses %s as an id, rather than store it altered', async (_, literal) => {
    const { tenant, token } = await aSignedInUser();
    const res = await createPlant(`{"id":${literal},"name":"Big"}`, token);
    expectPlantError(res, 400, /^id: /);
    expect(await storedPlants(api.stack, tenant)).toEqual([]);
  });

  it('takes an integer written with a fraction or exponent that denotes it exactly (1.0, 2e3)', async () => {
    const { token } = await aSignedInUser();
    const res = await createPlant('{"id":2e3,"name":"Exact"}', token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ id: 2000, name: 'Exact' });
    expect((await createPlant('{"id":1.0,"name":"One"}', token)).body).toEqual({ id: 1, name: 'One' });
  });

  it('answers 400 to malformed JSON, 415 to another media type and 413 to a body over 16 KiB', async () => {
    const { token } = await aSignedInUser();
    expectPlantError(await createPlant('{"id": 1,', token), 400, /not valid JSON/);
    expectPlantError(await createPlant('id=1', token, { 'content-type': 'text/plain' }), 415);
    expectPlantError(await createPlant({ id: 1, name: 'x'.repeat(17 * 1024) }, token), 413);
  });

  it('checks the bearer before the body: no token and a bad body is 401', async () => {
    expectPlantError(await createPlant({ nonsense: true }, undefined), 401);
  });
});

describe('POST /plants: the bearer (401 { error, message } with WWW-Authenticate)', () => {
  it('answers 401 without a token, with a malformed one, with another scheme or with an API key', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer not.a.jwt' },
      { authorization: 'Bearer ' },
      { authorization: 'Basic dXNlcjpwYXNz' },
      { 'x-api-key': 'sk_key_whatever' },
    ];
    for (const headers of attempts) {
      const res = await createPlant({ id: 1, name: 'Fern' }, undefined, headers);
      expectPlantError(res, 401, /access token/);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('refuses a forged token: its claims re-signed with another key under the same kid', async () => {
    const { tenant, token } = await aSignedInUser();
    const { privateKey } = await generateKeyPair('ES256');
    const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString());
    const forged = await new SignJWT(claimsOf(token)).setProtectedHeader(header).sign(privateKey);
    expectPlantError(await createPlant({ id: anId(), name: 'Forged' }, forged), 401);
    // A real signature with one changed claim is as bad.
    const [h, , s] = token.split('.');
    const otherClaims = Buffer.from(JSON.stringify({ ...claimsOf(token), app: 'app_other' })).toString('base64url');
    expectPlantError(await createPlant({ id: anId(), name: 'Tampered' }, `${h}.${otherClaims}.${s}`), 401);
    expect(await storedPlants(api.stack, tenant)).toEqual([]);
  });

  it('refuses an unsigned token (alg none) and an HS256 one with real claims', async () => {
    const { token } = await aSignedInUser();
    const claims = claimsOf(token);
    expectPlantError(await createPlant({ id: anId(), name: 'None' }, new UnsecuredJWT(claims).encode()), 401);
    const hs256 = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('a shared secret of thirty-two bytes!'));
    expectPlantError(await createPlant({ id: anId(), name: 'Hmac' }, hs256), 401);
  });

  it('refuses a token signed by the identity but expired, from another issuer, or without tenant claims', async () => {
    const { token } = await aSignedInUser();
    const claims = claimsOf(token);
    const now = Math.floor(Date.now() / 1000);
    const expired = await signedByIdentity({ ...claims, iat: now - 1000, exp: now - 100 });
    const otherIssuer = await signedByIdentity({ ...claims, iss: 'https://id.other.example/api/v1' });
    const { app: _app, ...noApp } = claims;
    const withoutApp = await signedByIdentity(noApp);
    const badTenant = await signedByIdentity({ ...claims, mid: 'mid#PLANT#1' });
    for (const bad of [expired, otherIssuer, withoutApp, badTenant]) {
      const res = await createPlant({ id: anId(), name: 'Nope' }, bad);
      expectPlantError(res, 401, /access token/);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    // The same claims, signed the same way, are good: what failed was only what was changed.
    expect((await createPlant({ id: anId(), name: 'Yes' }, await signedByIdentity(claims))).status).toBe(200);
  });

  it("takes a logged-out session's token until it expires (JWT checks only, as the contract says)", async () => {
    const { tenant, token } = await aSignedInUser();
    const logout = await fetch(`${api.url}/auth/logout`, {
      method: 'DELETE',
      headers: bearer(tenant, token),
    });
    expect(logout.status).toBe(204);
    // The identity service refuses it at once ...
    const me = await fetch(`${api.url}/users/me`, { headers: bearer(tenant, token) });
    expect(me.status).toBe(401);
    // ... the plant store, which checks signature, iss and exp only, until exp.
    const res = await createPlant({ id: anId(), name: 'Still here' }, token);
    expect(res.status, res.text).toBe(200);
  });
});
