import { describe, expect, it } from 'vitest';
import { ApiError, CLIENT_ERROR_CODES, IdentityClient } from '../../client/src/index.ts';
import {
  BASE_URL,
  fakeFetch,
  json,
  noContent,
  problem,
  recordingCookies,
  tenantConfig,
  tokens,
} from './support/fake-fetch.ts';

/**
 * The SDK's passkey calls outside a browser: what it sends, and that a ceremony it cannot hold (Node has no
 * WebAuthn) is refused before anything is sent. The ceremonies themselves run in Chromium (test/web/journeys/
 * passkeys*.test.ts), against the local stack.
 */
function aClient() {
  const fake = fakeFetch((request) => {
    if (request.path === '/auth/discovery') return json(200, tenantConfig);
    if (request.path === '/auth/login') return tokens(1);
    if (request.method === 'GET' && request.path.endsWith('/passkeys')) return json(200, []);
    if (request.method === 'PATCH') return json(200, { id: 'pkey_1', name: request.body.name });
    if (request.method === 'DELETE') return noContent();
    return problem(404, 'NOT_FOUND');
  });
  const client = new IdentityClient({ baseUrl: BASE_URL, fetch: fake.fetch, cookies: recordingCookies().store });
  return { client, fake };
}

async function signedIn() {
  const made = aClient();
  await made.client.discover({ clientId: tenantConfig.publicApiKey });
  await made.client.login({ email: 'ann@shop.test', password: 'Monstera-42-leaf' });
  return made;
}

describe('passkeys in the SDK', () => {
  it('says a runtime without WebAuthn can use no passkey, and sends nothing when asked to', async () => {
    const { client, fake } = aClient();
    await client.discover({ clientId: tenantConfig.publicApiKey });
    expect(await client.passkeySupport()).toEqual({ passkeys: false, autofill: false, platform: false });
    const refusal = await client.signInWithPasskey().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 0, code: CLIENT_ERROR_CODES.PASSKEYS_UNSUPPORTED });
    expect(await client.reauthenticateWithPasskey().catch((error: unknown) => error)).toMatchObject({
      code: CLIENT_ERROR_CODES.PASSKEYS_UNSUPPORTED,
    });
    // No challenge asked for: nothing here could answer it.
    expect(fake.requests.map((r) => r.path)).toEqual(['/auth/discovery']);
  });

  it('lists, renames and removes the signed-in user’s passkeys with the bearer, ids encoded', async () => {
    const { client, fake } = await signedIn();
    expect(await client.passkeys.list()).toEqual([]);
    expect(await client.passkeys.rename('pkey_a/b', 'Phone')).toEqual({ id: 'pkey_1', name: 'Phone' });
    await client.passkeys.remove('pkey_a/b');
    expect(fake.to('PATCH', '/users/me/passkeys/pkey_a%2Fb')[0]?.body).toEqual({ name: 'Phone' });
    expect(fake.to('DELETE', '/users/me/passkeys/pkey_a%2Fb')).toHaveLength(1);
    expect(fake.to('GET', '/users/me/passkeys')[0]?.headers.authorization).toMatch(/^Bearer /);
  });

  it('lets an admin read and remove a user’s passkeys', async () => {
    const { client, fake } = await signedIn();
    expect(await client.admin.users.passkeys('usr_1')).toEqual([]);
    await client.admin.users.removePasskey('usr_1', 'pkey_2');
    expect(fake.to('DELETE', '/users/usr_1/passkeys/pkey_2')).toHaveLength(1);
  });
});
