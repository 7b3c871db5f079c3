import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { totpCodeAt } from '#shared/auth/totp.ts';
import { challengeHash } from '#shared/passkeys/relying-party.ts';
import { keys, passkeyKeys } from '#shared/store/keys.ts';
import { aTenantWith, aUser, type TestTenant, type TestUser, userPartitionItems } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { type Answer, bearer, call, expectProblem, post } from '#test/support/http.ts';
import { issuerOf } from '#test/support/oidc.ts';
import { useLocalStack } from '#test/support/server.ts';
import { answer, register, type SoftCredential } from '#test/support/soft-authenticator.ts';
import { ageSignIn, atIssuer } from '../oidc/helpers.ts';

/**
 * Passkeys through the API, signed by a software authenticator where a test must craft what no browser sends (the
 * journeys use Chromium's virtual authenticator). Each tenant is its own relying party: RP ID `<subdomain>.localhost`,
 * origins its hosted origin and its allowed origins.
 */

const api = useLocalStack();
const deps = makeTestDeps();

const rpIdOf = (tenant: TestTenant) => `${tenant.subdomain}.localhost`;
const originOf = (tenant: TestTenant) => issuerOf(api.stack, tenant);

async function signIn(tenant: TestTenant, user: TestUser): Promise<string> {
  const first = await post(`${api.url}/auth/login`, { email: user.email, password: user.password }, tenant.headers);
  expect(first.status, first.text).toBe(200);
  if (!first.body.data.challengeRequired) return first.body.data.accessToken;
  const second = await post(
    `${api.url}/auth/login/verify`,
    { challengeId: first.body.data.challengeId, code: totpCodeAt(user.totpSecret ?? '', new Date()) },
    tenant.headers,
  );
  expect(second.status, second.text).toBe(200);
  return second.body.data.accessToken;
}

/** Adds a passkey through the API: options, the authenticator's new credential, the registration. */
async function addPasskey(
  tenant: TestTenant,
  token: string,
  tweak: { origin?: string; rpId?: string; userVerified?: boolean; name?: string; synced?: boolean } = {},
): Promise<{ credential: SoftCredential; res: Answer }> {
  const options = await post(`${api.url}/users/me/passkeys/options`, {}, bearer(tenant, token));
  expect(options.status, options.text).toBe(200);
  const { credential, json } = register({
    challenge: options.body.options.challenge,
    origin: tweak.origin ?? originOf(tenant),
    rpId: tweak.rpId ?? options.body.options.rp.id,
    userHandle: options.body.options.user.id,
    ...(tweak.userVerified === undefined ? {} : { userVerified: tweak.userVerified }),
    ...(tweak.synced === undefined ? {} : { synced: tweak.synced }),
  });
  const body = { credential: json, ...(tweak.name ? { name: tweak.name } : {}) };
  const res = await post(`${api.url}/users/me/passkeys`, body, bearer(tenant, token));
  return { credential, res };
}

async function signInOptions(tenant: TestTenant, email?: string): Promise<string> {
  const res = await post(`${api.url}/auth/passkeys/options`, email ? { email } : {}, tenant.headers);
  expect(res.status, res.text).toBe(200);
  expect(res.body.options.allowCredentials ?? []).toEqual([]);
  expect(res.body.options.userVerification).toBe('required');
  return res.body.options.challenge;
}

function signInWith(tenant: TestTenant, credential: unknown) {
  return post(`${api.url}/auth/passkeys/sign-in`, { credential }, tenant.headers);
}

/** A user with a passkey, and a session to manage it from. */
async function withPasskey(tenant: TestTenant, options: { totp?: boolean; synced?: boolean } = {}) {
  const user = await aUser(tenant, { totp: options.totp ?? false });
  const token = await signIn(tenant, user);
  const { credential, res } = await addPasskey(tenant, token, { synced: options.synced ?? false });
  expect(res.status, res.text).toBe(201);
  return { user, token, credential, passkey: res.body as { id: string; name: string } };
}

const ceremony = (tenant: TestTenant, challenge: string) => ({
  challenge,
  origin: originOf(tenant),
  rpId: rpIdOf(tenant),
});

describe('adding a passkey', () => {
  it('asks for a discoverable credential with user verification for the tenant’s RP ID, and lists it', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const token = await signIn(tenant, user);
    const options = await post(`${api.url}/users/me/passkeys/options`, {}, bearer(tenant, token));
    expect(options.body.options).toMatchObject({
      rp: { id: rpIdOf(tenant), name: expect.stringMatching(/^Shop /) },
      user: { name: user.email },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    expect(options.body.options.pubKeyCredParams.map((p: { alg: number }) => p.alg)).toEqual([-7, -8, -257]);

    const { res } = await addPasskey(tenant, token, { name: 'Work laptop' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^pkey_[A-Za-z0-9_-]{24}$/),
      name: 'Work laptop',
      createdAt: expect.any(String),
      lastUsedAt: null,
      deviceType: 'singleDevice',
      backedUp: false,
    });
    const list = await call(api.url, 'GET', '/users/me/passkeys', bearer(tenant, token));
    expect(list.body).toEqual([res.body]);
    // The new passkey's own list excludes it next time, so an authenticator that holds it says so.
    const again = await post(`${api.url}/users/me/passkeys/options`, {}, bearer(tenant, token));
    expect(again.body.options.excludeCredentials).toHaveLength(1);
  });

  it('names a passkey from the browser when its owner gives no name', async () => {
    const tenant = await aTenantWith();
    const token = await signIn(tenant, await aUser(tenant));
    const { res } = await addPasskey(tenant, token);
    // The test's fetch says no browser: the last resort.
    expect(res.body.name).toEqual(expect.any(String));
    expect(res.body.name.length).toBeGreaterThan(0);
  });

  it('needs a recent sign-in (403 REAUTHENTICATION_REQUIRED), for the options and for the registration', async () => {
    const tenant = await aTenantWith();
    const token = await signIn(tenant, await aUser(tenant));
    const options = await post(`${api.url}/users/me/passkeys/options`, {}, bearer(tenant, token));
    await ageSignIn(tenant, token, 11 * 60_000);
    expectProblem(
      await post(`${api.url}/users/me/passkeys/options`, {}, bearer(tenant, token)),
      403,
      'REAUTHENTICATION_REQUIRED',
    );
    const { json } = register({ ...ceremony(tenant, options.body.options.challenge), userHandle: 'dXNy' });
    expectProblem(
      await post(`${api.url}/users/me/passkeys`, { credential: json }, bearer(tenant, token)),
      403,
      'REAUTHENTICATION_REQUIRED',
    );
  });

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP ID', { rpId: 'evil.localhost' }],
    ['no user verification', { userVerified: false }],
  ])('refuses a credential made for %s (400 PASSKEY_NOT_VERIFIED), storing nothing', async (_, tweak) => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const token = await signIn(tenant, user);
    const { res } = await addPasskey(tenant, token, tweak);
    expectProblem(res, 400, 'PASSKEY_NOT_VERIFIED');
    expect((await call(api.url, 'GET', '/users/me/passkeys', bearer(tenant, token))).body).toEqual([]);
  });

  it('accepts a credential made on one of the tenant’s own origins (related origins)', async () => {
    const tenant = await aTenantWith({ origins: ['https://shop.example'] });
    const token = await signIn(tenant, await aUser(tenant));
    const { res } = await addPasskey(tenant, token, { origin: 'https://shop.example' });
    expect(res.status, res.text).toBe(201);
  });

  it('takes each registration challenge once, and only in the session it was given to', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const token = await signIn(tenant, user);
    const other = await signIn(tenant, user);
    const options = await post(`${api.url}/users/me/passkeys/options`, {}, bearer(tenant, token));
    const made = () =>
      register({ ...ceremony(tenant, options.body.options.challenge), userHandle: options.body.options.user.id });
    // Another session of the same user cannot answer it (and using it up there is not possible either).
    expectProblem(
      await post(`${api.url}/users/me/passkeys`, { credential: made().json }, bearer(tenant, other)),
      400,
      'PASSKEY_NOT_VERIFIED',
    );
    // It was taken by that attempt: this session's answer finds it gone too.
    expectProblem(
      await post(`${api.url}/users/me/passkeys`, { credential: made().json }, bearer(tenant, token)),
      400,
      'PASSKEY_NOT_VERIFIED',
    );
  });

  it('refuses a credential id another account of the tenant holds (409 ALREADY_EXISTS)', async () => {
    const tenant = await aTenantWith();
    const first = await withPasskey(tenant);
    const thief = await aUser(tenant);
    const token = await signIn(tenant, thief);
    const options = await post(`${api.url}/users/me/passkeys/options`, {}, bearer(tenant, token));
    // The thief's authenticator claims the victim's credential id, with a key of its own.
    const { json } = register({
      ...ceremony(tenant, options.body.options.challenge),
      userHandle: options.body.options.user.id,
      credentialId: first.credential.id,
    });
    const res = await post(`${api.url}/users/me/passkeys`, { credential: json }, bearer(tenant, token));
    expectProblem(res, 409, 'ALREADY_EXISTS');
    expect((await call(api.url, 'GET', '/users/me/passkeys', bearer(tenant, token))).body).toEqual([]);
  });
});

describe('signing in with a passkey', () => {
  it('signs in with no TOTP step, an amr of a key with user verification, recorded as a passkey login', async () => {
    const tenant = await aTenantWith();
    const { user, credential, passkey } = await withPasskey(tenant, { totp: true });
    const challenge = await signInOptions(tenant);
    const res = await signInWith(tenant, answer(credential, ceremony(tenant, challenge)));
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ tokenType: 'Bearer', user: { id: user.id, email: user.email } });
    const items = await userPartitionItems(tenant, user.id);
    const amrs = items.filter((item) => String(item.sk).startsWith('SESSION#')).map((item) => item.amr);
    expect(amrs).toContainEqual(['hwk', 'user', 'mfa']);
    const activity = await call(api.url, 'GET', '/users/me/activity', bearer(tenant, res.body.data.accessToken));
    expect(activity.body.items[0]).toMatchObject({ type: 'LOGIN', method: 'PASSKEY' });
    const listed = await call(api.url, 'GET', '/users/me/passkeys', bearer(tenant, res.body.data.accessToken));
    expect(listed.body[0]).toMatchObject({ id: passkey.id, lastUsedAt: expect.any(String) });
  });

  it('takes a challenge with an address only for that account’s passkey', async () => {
    const tenant = await aTenantWith();
    const { user, credential } = await withPasskey(tenant);
    const other = await signInOptions(tenant, 'someone-else@shop.test');
    expectProblem(await signInWith(tenant, answer(credential, ceremony(tenant, other))), 401, 'INVALID_CREDENTIALS');
    const own = await signInOptions(tenant, user.email.toUpperCase());
    expect((await signInWith(tenant, answer(credential, ceremony(tenant, own)))).status).toBe(200);
  });

  it('refuses a replayed answer and an answer to a challenge used up by a failed one', async () => {
    const tenant = await aTenantWith();
    const { credential } = await withPasskey(tenant);
    const challenge = await signInOptions(tenant);
    const signed = answer(credential, ceremony(tenant, challenge));
    expect((await signInWith(tenant, signed)).status).toBe(200);
    expectProblem(await signInWith(tenant, signed), 401, 'INVALID_CREDENTIALS');
  });

  it('refuses an answer to an expired challenge', async () => {
    const tenant = await aTenantWith();
    const { credential } = await withPasskey(tenant);
    const challenge = await signInOptions(tenant);
    await deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.tableName,
        Key: passkeyKeys.challenge(tenant, challengeHash(challenge)),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    expectProblem(
      await signInWith(tenant, answer(credential, ceremony(tenant, challenge))),
      401,
      'INVALID_CREDENTIALS',
    );
  });

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP ID', { rpId: 'evil.localhost' }],
    ['no user verification', { userVerified: false }],
  ])('refuses an answer signed for %s (401 INVALID_CREDENTIALS)', async (_, tweak) => {
    const tenant = await aTenantWith();
    const { credential } = await withPasskey(tenant);
    const challenge = await signInOptions(tenant);
    const res = await signInWith(tenant, answer(credential, { ...ceremony(tenant, challenge), ...tweak }));
    expectProblem(res, 401, 'INVALID_CREDENTIALS');
  });

  it('never accepts one tenant’s passkey at another tenant, even with a user handle of that tenant', async () => {
    const home = await aTenantWith();
    const elsewhere = await aTenantWith();
    const { credential } = await withPasskey(home);
    const victim = await aUser(elsewhere);
    const challenge = await signInOptions(elsewhere);
    // Signed for the other tenant's RP ID and origin: still not a passkey of that tenant.
    const asIs = answer(credential, ceremony(elsewhere, challenge));
    expectProblem(await signInWith(elsewhere, asIs), 401, 'INVALID_CREDENTIALS');
    const challenge2 = await signInOptions(elsewhere);
    const handle = Buffer.from(victim.id, 'utf8').toString('base64url');
    const pointed = answer(credential, { ...ceremony(elsewhere, challenge2), userHandle: handle });
    expectProblem(await signInWith(elsewhere, pointed), 401, 'INVALID_CREDENTIALS');
  });

  it('refuses a counter that goes backwards on a passkey kept on one device, and records it', async () => {
    const tenant = await aTenantWith();
    const { user, credential, token } = await withPasskey(tenant);
    const first = await signInOptions(tenant);
    expect((await signInWith(tenant, answer(credential, { ...ceremony(tenant, first), counter: 5 }))).status).toBe(200);
    const second = await signInOptions(tenant);
    const copied = answer(credential, { ...ceremony(tenant, second), counter: 3 });
    expectProblem(await signInWith(tenant, copied), 401, 'INVALID_CREDENTIALS');
    const activity = await call(api.url, 'GET', `/users/${user.id}/activity`, bearer(tenant, token));
    expect(activity.status).toBe(403);
    const own = await call(api.url, 'GET', '/users/me/activity', bearer(tenant, token));
    expect(own.body.items.map((item: { type: string }) => item.type)).toContain('PASSKEY_COUNTER_MISMATCH');
  });

  it('lets a synced passkey’s counter stay at 0', async () => {
    const tenant = await aTenantWith();
    const { credential } = await withPasskey(tenant, { synced: true });
    for (let i = 0; i < 2; i++) {
      const challenge = await signInOptions(tenant);
      const res = await signInWith(tenant, answer(credential, { ...ceremony(tenant, challenge), counter: 0 }));
      expect(res.status, res.text).toBe(200);
    }
  });

  it('tells a disabled account so only after its passkey is proven', async () => {
    const tenant = await aTenantWith();
    const { user, credential } = await withPasskey(tenant);
    await deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.tableName,
        Key: keys.user(tenant, user.id),
        UpdateExpression: 'SET #s = :disabled',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':disabled': 'DISABLED' },
      }),
    );
    const challenge = await signInOptions(tenant);
    expectProblem(await signInWith(tenant, answer(credential, ceremony(tenant, challenge))), 403, 'ACCOUNT_DISABLED');
  });

  it('is refused everywhere once the tenant turns passkeys off (403 PASSKEYS_NOT_ALLOWED)', async () => {
    const tenant = await aTenantWith();
    const { credential, token } = await withPasskey(tenant);
    const challenge = await signInOptions(tenant);
    await deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.tableName,
        Key: keys.merchant(tenant),
        UpdateExpression: 'SET passkeysAllowed = :off',
        ExpressionAttributeValues: { ':off': false },
      }),
    );
    expectProblem(
      await signInWith(tenant, answer(credential, ceremony(tenant, challenge))),
      403,
      'PASSKEYS_NOT_ALLOWED',
    );
    expectProblem(await post(`${api.url}/auth/passkeys/options`, {}, tenant.headers), 403, 'PASSKEYS_NOT_ALLOWED');
    expectProblem(
      await post(`${api.url}/users/me/passkeys/options`, {}, bearer(tenant, token)),
      403,
      'PASSKEYS_NOT_ALLOWED',
    );
    const discovery = await call(api.url, 'GET', `/auth/discovery?clientId=${tenant.publicApiKey}`, {
      origin: 'https://shop.example',
    });
    expect(discovery.body.passkeysAllowed).toBe(false);
    expect((await atIssuer(originOf(tenant), '/.well-known/webauthn')).status).toBe(404);
  });
});

describe('managing passkeys', () => {
  it('renames and removes one; a removed passkey signs in no more', async () => {
    const tenant = await aTenantWith();
    const { token, credential, passkey } = await withPasskey(tenant);
    const renamed = await call(api.url, 'PATCH', `/users/me/passkeys/${passkey.id}`, bearer(tenant, token), {
      name: '  Phone  ',
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.name).toBe('Phone');
    const removed = await call(api.url, 'DELETE', `/users/me/passkeys/${passkey.id}`, bearer(tenant, token));
    expect(removed.status, removed.text).toBe(204);
    expectProblem(
      await call(api.url, 'DELETE', `/users/me/passkeys/${passkey.id}`, bearer(tenant, token)),
      404,
      'NOT_FOUND',
    );
    const challenge = await signInOptions(tenant);
    expectProblem(
      await signInWith(tenant, answer(credential, ceremony(tenant, challenge))),
      401,
      'INVALID_CREDENTIALS',
    );
    const activity = await call(api.url, 'GET', '/users/me/activity', bearer(tenant, token));
    expect(activity.body.items.map((item: { type: string }) => item.type)).toEqual(
      expect.arrayContaining(['PASSKEY_ADDED', 'PASSKEY_REMOVED']),
    );
  });

  it('needs a recent sign-in to rename or remove one', async () => {
    const tenant = await aTenantWith();
    const { token, passkey } = await withPasskey(tenant);
    await ageSignIn(tenant, token, 11 * 60_000);
    expectProblem(
      await call(api.url, 'PATCH', `/users/me/passkeys/${passkey.id}`, bearer(tenant, token), { name: 'x' }),
      403,
      'REAUTHENTICATION_REQUIRED',
    );
    expectProblem(
      await call(api.url, 'DELETE', `/users/me/passkeys/${passkey.id}`, bearer(tenant, token)),
      403,
      'REAUTHENTICATION_REQUIRED',
    );
  });

  it('proves it is you again with a passkey: no TOTP code, only this user’s passkey, only this session’s challenge', async () => {
    const tenant = await aTenantWith();
    const { token, credential } = await withPasskey(tenant, { totp: true });
    await ageSignIn(tenant, token, 11 * 60_000);
    const options = await post(`${api.url}/auth/reauthenticate/passkey/options`, {}, bearer(tenant, token));
    expect(options.status, options.text).toBe(200);
    expect(options.body.options.allowCredentials).toEqual([
      expect.objectContaining({ id: credential.id, type: 'public-key' }),
    ]);
    const signed = answer(credential, ceremony(tenant, options.body.options.challenge));
    const res = await post(`${api.url}/auth/reauthenticate/passkey`, { credential: signed }, bearer(tenant, token));
    expect(res.status, res.text).toBe(204);
    // Fresh again: a guarded change passes.
    expect((await post(`${api.url}/users/me/passkeys/options`, {}, bearer(tenant, token))).status).toBe(200);
    // A sign-in challenge is not a reauthentication challenge.
    const signInChallenge = await signInOptions(tenant);
    const wrongCeremony = answer(credential, ceremony(tenant, signInChallenge));
    expectProblem(
      await post(`${api.url}/auth/reauthenticate/passkey`, { credential: wrongCeremony }, bearer(tenant, token)),
      401,
      'INVALID_CREDENTIALS',
    );
  });

  it('lets an admin see and remove a user’s passkeys; GET /users/{id} counts them', async () => {
    const tenant = await aTenantWith();
    const { user, passkey, credential } = await withPasskey(tenant);
    const admin = { email: tenant.adminEmail, password: tenant.adminPassword } as TestUser;
    const adminToken = await signIn(tenant, admin);
    const detail = await call(api.url, 'GET', `/users/${user.id}`, bearer(tenant, adminToken));
    expect(detail.body.passkeyCount).toBe(1);
    const listed = await call(api.url, 'GET', `/users/${user.id}/passkeys`, bearer(tenant, adminToken));
    expect(listed.body).toEqual([expect.objectContaining({ id: passkey.id })]);
    const removed = await call(
      api.url,
      'DELETE',
      `/users/${user.id}/passkeys/${passkey.id}`,
      bearer(tenant, adminToken),
    );
    expect(removed.status, removed.text).toBe(204);
    expect((await call(api.url, 'GET', `/users/${user.id}`, bearer(tenant, adminToken))).body.passkeyCount).toBe(0);
    const challenge = await signInOptions(tenant);
    expectProblem(
      await signInWith(tenant, answer(credential, ceremony(tenant, challenge))),
      401,
      'INVALID_CREDENTIALS',
    );
  });

  it('leaves nothing behind when the user is deleted: the credential id can be registered again', async () => {
    const tenant = await aTenantWith();
    const { user, passkey } = await withPasskey(tenant);
    const admin = { email: tenant.adminEmail, password: tenant.adminPassword } as TestUser;
    const adminToken = await signIn(tenant, admin);
    const deleted = await call(api.url, 'DELETE', `/users/${user.id}`, bearer(tenant, adminToken));
    expect(deleted.status, deleted.text).toBe(204);
    const claim = await deps.store.doc.send(
      new GetCommand({
        TableName: deps.store.tableName,
        Key: passkeyKeys.claim(tenant, passkey.id),
      }),
    );
    expect(claim.Item).toBeUndefined();
  });

  it('serves the tenant’s related origins at /.well-known/webauthn of its hosted origin', async () => {
    const tenant = await aTenantWith({ origins: ['https://shop.example', 'https://app.shop.example'] });
    const res = await atIssuer(originOf(tenant), '/.well-known/webauthn');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ origins: [originOf(tenant), 'https://shop.example', 'https://app.shop.example'] });
  });
});
