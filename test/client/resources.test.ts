import { describe, expect, it } from 'vitest';
import { IdentityClient } from '../../client/src/index.ts';
import { BASE_URL, fakeFetch, json, noContent, recordingCookies, tenantConfig, tokens } from './support/fake-fetch.ts';

/** [name, call, method, path, query, body]: one row per identity endpoint behind a bearer. */
const rows: Array<[string, (c: IdentityClient) => Promise<unknown>, string, string, Record<string, string>, unknown]> =
  [
    ['me.get', (c) => c.me.get(), 'GET', '/users/me', {}, undefined],
    [
      'me.update',
      (c) => c.me.update({ firstName: 'Ivy', phone: null }),
      'PATCH',
      '/users/me',
      {},
      { firstName: 'Ivy', phone: null },
    ],
    [
      'me.changePassword',
      (c) => c.me.changePassword({ currentPassword: 'old', newPassword: 'Fern-fern-2', totpCode: '123456' }),
      'POST',
      '/users/me/password',
      {},
      { currentPassword: 'old', newPassword: 'Fern-fern-2', totpCode: '123456' },
    ],
    [
      'me.startEmailChange',
      (c) => c.me.startEmailChange({ newEmail: 'n@shop.test' }),
      'POST',
      '/users/me/email-change',
      {},
      { newEmail: 'n@shop.test' },
    ],
    [
      'me.verifyEmailChange',
      (c) => c.me.verifyEmailChange({ challengeId: 'chl_1', code: '123456' }),
      'POST',
      '/users/me/email-change/verify',
      {},
      { challengeId: 'chl_1', code: '123456' },
    ],
    ['me.totp.init', (c) => c.me.totp.init(), 'POST', '/users/me/totp/init', {}, undefined],
    [
      'me.totp.verify',
      (c) => c.me.totp.verify({ code: '123456' }),
      'POST',
      '/users/me/totp/verify',
      {},
      { code: '123456' },
    ],
    [
      'me.totp.disable',
      (c) => c.me.totp.disable({ code: '123456' }),
      'POST',
      '/users/me/totp/disable',
      {},
      { code: '123456' },
    ],
    ['me.sessions.list', (c) => c.me.sessions.list(), 'GET', '/users/me/sessions', {}, undefined],
    ['me.sessions.revoke', (c) => c.me.sessions.revoke('ses/1'), 'DELETE', '/users/me/sessions/ses%2F1', {}, undefined],
    ['me.sessions.revokeAll', (c) => c.me.sessions.revokeAll(), 'POST', '/sessions/revoke-all', {}, undefined],
    ['me.activity', (c) => c.me.activity(), 'GET', '/users/me/activity', {}, undefined],
    [
      'me.activity (a page)',
      (c) => c.me.activity({ limit: 20, cursor: 'abc=+/' }),
      'GET',
      '/users/me/activity',
      { limit: '20', cursor: 'abc=+/' },
      undefined,
    ],
    ['admin.users.list', (c) => c.admin.users.list(), 'GET', '/users', {}, undefined],
    ['admin.users.get', (c) => c.admin.users.get('usr_1'), 'GET', '/users/usr_1', {}, undefined],
    ['admin.users.delete', (c) => c.admin.users.delete('usr_1'), 'DELETE', '/users/usr_1', {}, undefined],
    [
      'admin.users.setStatus',
      (c) => c.admin.users.setStatus('usr_1', 'DISABLED'),
      'PATCH',
      '/users/usr_1/status',
      {},
      { status: 'DISABLED' },
    ],
    [
      'admin.users.invite',
      (c) => c.admin.users.invite({ email: 'i@shop.test', firstName: 'I' }),
      'POST',
      '/users/invitations',
      {},
      { email: 'i@shop.test', firstName: 'I' },
    ],
    [
      'admin.users.resendInvitation',
      (c) => c.admin.users.resendInvitation('usr_1'),
      'POST',
      '/users/usr_1/invitation',
      {},
      undefined,
    ],
    [
      'admin.users.sendPasswordReset',
      (c) => c.admin.users.sendPasswordReset('usr_1'),
      'POST',
      '/users/usr_1/password-reset',
      {},
      undefined,
    ],
    ['admin.users.resetTotp', (c) => c.admin.users.resetTotp('usr_1'), 'DELETE', '/users/usr_1/totp', {}, undefined],
    [
      'admin.users.clearMailSuppression',
      (c) => c.admin.users.clearMailSuppression('usr_1'),
      'DELETE',
      '/users/usr_1/mail-suppression',
      {},
      undefined,
    ],
    ['admin.users.devices', (c) => c.admin.users.devices('usr_1'), 'GET', '/users/usr_1/devices', {}, undefined],
    ['admin.users.activity', (c) => c.admin.users.activity('usr_1'), 'GET', '/users/usr_1/activity', {}, undefined],
    [
      'admin.users.activity (a page)',
      (c) => c.admin.users.activity('usr_1', { limit: 20, cursor: 'abc=+/' }),
      'GET',
      '/users/usr_1/activity',
      { limit: '20', cursor: 'abc=+/' },
      undefined,
    ],
    ['admin.merchant.get', (c) => c.admin.merchant.get(), 'GET', '/merchants/me', {}, undefined],
    [
      'admin.merchant.update',
      (c) => c.admin.merchant.update('mer_1', { primaryColor: '#112233', allowedOrigins: ['https://a.example'] }),
      'PATCH',
      '/merchants/mer_1',
      {},
      { primaryColor: '#112233', allowedOrigins: ['https://a.example'] },
    ],
    [
      'admin.merchant.apiKeys.list',
      (c) => c.admin.merchant.apiKeys.list('mer_1'),
      'GET',
      '/merchants/mer_1/api-keys',
      {},
      undefined,
    ],
    [
      'admin.merchant.apiKeys.create',
      (c) => c.admin.merchant.apiKeys.create('mer_1', { label: 'ci' }),
      'POST',
      '/merchants/mer_1/api-keys',
      {},
      { label: 'ci' },
    ],
    [
      'admin.merchant.apiKeys.revoke',
      (c) => c.admin.merchant.apiKeys.revoke('mer_1', 'key_1'),
      'DELETE',
      '/merchants/mer_1/api-keys/key_1',
      {},
      undefined,
    ],
    ['admin.roles.list', (c) => c.admin.roles.list(), 'GET', '/roles', {}, undefined],
    [
      'admin.roles.create',
      (c) => c.admin.roles.create({ name: 'EDITOR', priority: 10 }),
      'POST',
      '/roles',
      {},
      { name: 'EDITOR', priority: 10 },
    ],
    ['admin.roles.delete', (c) => c.admin.roles.delete('rol_1'), 'DELETE', '/roles/rol_1', {}, undefined],
    [
      'admin.roles.assign',
      (c) => c.admin.roles.assign({ userId: 'usr_1', roleId: 'rol_1', expiresAt: '2027-01-01T00:00:00Z' }),
      'POST',
      '/roles/assign',
      {},
      { userId: 'usr_1', roleId: 'rol_1', expiresAt: '2027-01-01T00:00:00Z' },
    ],
    [
      'admin.roles.revoke',
      (c) => c.admin.roles.revoke({ userId: 'usr_1', roleId: 'rol_1' }),
      'POST',
      '/roles/revoke',
      {},
      { userId: 'usr_1', roleId: 'rol_1' },
    ],
    ['admin.oidcClients.list', (c) => c.admin.oidcClients.list(), 'GET', '/oidc/clients', {}, undefined],
    ['admin.oidcClients.get', (c) => c.admin.oidcClients.get('cli/1'), 'GET', '/oidc/clients/cli%2F1', {}, undefined],
    [
      'admin.oidcClients.create',
      (c) => c.admin.oidcClients.create({ name: 'Shop', type: 'public', redirectUris: ['https://shop.test/cb'] }),
      'POST',
      '/oidc/clients',
      {},
      { name: 'Shop', type: 'public', redirectUris: ['https://shop.test/cb'] },
    ],
    [
      'admin.oidcClients.update',
      (c) => c.admin.oidcClients.update('cli_1', { firstParty: true }),
      'PATCH',
      '/oidc/clients/cli_1',
      {},
      { firstParty: true },
    ],
    [
      'admin.oidcClients.delete',
      (c) => c.admin.oidcClients.delete('cli_1'),
      'DELETE',
      '/oidc/clients/cli_1',
      {},
      undefined,
    ],
    [
      'admin.oidcClients.rotateSecret',
      (c) => c.admin.oidcClients.rotateSecret('cli_1'),
      'POST',
      '/oidc/clients/cli_1/secret',
      {},
      undefined,
    ],
    ['admin.webhooks.list', (c) => c.admin.webhooks.list(), 'GET', '/webhook-endpoints', {}, undefined],
    ['admin.webhooks.get', (c) => c.admin.webhooks.get('whe/1'), 'GET', '/webhook-endpoints/whe%2F1', {}, undefined],
    [
      'admin.webhooks.create',
      (c) => c.admin.webhooks.create({ url: 'https://hooks.shop.test/in', eventTypes: ['user.created'] }),
      'POST',
      '/webhook-endpoints',
      {},
      { url: 'https://hooks.shop.test/in', eventTypes: ['user.created'] },
    ],
    [
      'admin.webhooks.update',
      (c) => c.admin.webhooks.update('whe_1', { enabled: false }),
      'PATCH',
      '/webhook-endpoints/whe_1',
      {},
      { enabled: false },
    ],
    [
      'admin.webhooks.delete',
      (c) => c.admin.webhooks.delete('whe_1'),
      'DELETE',
      '/webhook-endpoints/whe_1',
      {},
      undefined,
    ],
    [
      'admin.webhooks.rotateSecret',
      (c) => c.admin.webhooks.rotateSecret('whe_1'),
      'POST',
      '/webhook-endpoints/whe_1/secret',
      {},
      undefined,
    ],
    [
      'admin.webhooks.attempts',
      (c) => c.admin.webhooks.attempts('whe_1'),
      'GET',
      '/webhook-endpoints/whe_1/attempts',
      {},
      undefined,
    ],
    [
      'admin.webhooks.attempts (a page)',
      (c) => c.admin.webhooks.attempts('whe_1', { limit: 25, cursor: 'eyJzayI6IngifQ' }),
      'GET',
      '/webhook-endpoints/whe_1/attempts',
      { limit: '25', cursor: 'eyJzayI6IngifQ' },
      undefined,
    ],
    [
      'admin.webhooks.sendTest',
      (c) => c.admin.webhooks.sendTest('whe_1'),
      'POST',
      '/webhook-endpoints/whe_1/test',
      {},
      undefined,
    ],
    [
      'admin.webhooks.redeliver',
      (c) => c.admin.webhooks.redeliver('whe_1', 'msg_1'),
      'POST',
      '/webhook-endpoints/whe_1/redeliver',
      {},
      { eventId: 'msg_1' },
    ],
    [
      'admin.webhooks.replay',
      (c) => c.admin.webhooks.replay('whe_1', '2026-11-28T12:00:00.000Z'),
      'POST',
      '/webhook-endpoints/whe_1/replay',
      {},
      { since: '2026-11-28T12:00:00.000Z' },
    ],
  ];

async function signedIn(answer: () => Response) {
  const fake = fakeFetch((r) => {
    if (r.path === '/auth/discovery') return json(200, tenantConfig);
    if (r.path === '/auth/login') return tokens(1);
    return answer();
  });
  const client = new IdentityClient({ baseUrl: BASE_URL, fetch: fake.fetch, cookies: recordingCookies().store });
  await client.discover({ clientId: 'pk_1' });
  await client.login({ email: 'fern@shop.test', password: 'Fern-fern-1' });
  fake.requests.length = 0;
  return { client, fake };
}

describe('resource methods', () => {
  it.each(rows)('%s sends %s %s with the bearer and tenant headers', async (_name, call, method, path, query, body) => {
    const { client, fake } = await signedIn(() => json(200, { ok: true }));
    await call(client);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method, path, body });
    expect(request?.query).toEqual(query);
    expect(request?.headers).toMatchObject({ authorization: 'Bearer at-1', 'x-app-id': 'app_1', 'x-mid-key': 'mid_1' });
  });

  it('returns the parsed answer, and undefined for 204', async () => {
    const { client } = await signedIn(() => json(200, [{ id: 'rol_1' }]));
    expect(await client.admin.roles.list()).toEqual([{ id: 'rol_1' }]);
    const other = await signedIn(() => noContent());
    expect(await other.client.admin.roles.delete('rol_1')).toBeUndefined();
  });

  it('me.sessions.revokeAll() ends this session locally too', async () => {
    const { client } = await signedIn(() => noContent());
    await client.me.sessions.revokeAll();
    expect(client.isAuthenticated()).toBe(false);
  });
});
