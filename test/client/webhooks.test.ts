import { describe, expect, it } from 'vitest';
import { aTenantWith } from '#test/support/auth.ts';
import { useLocalStack } from '#test/support/server.ts';
import {
  ApiError,
  type FetchLike,
  IdentityClient,
  memoryCookieStore,
  WEBHOOK_EVENT_TYPES,
} from '../../client/src/index.ts';
import { EVENT_TYPES } from '../../shared/webhooks/events.ts';
import { BASE_URL, fakeFetch, problem, recordingCookies, tenantConfig, tokens } from './support/fake-fetch.ts';

/**
 * `admin.webhooks` in the SDK: its refusals as ApiError (the codes the console says in sentences), and the whole
 * surface against the local stack. An address on a public host given as its IP, so that no name is looked up.
 */

const ORIGIN = 'https://shop.example';
const RECEIVER = 'https://93.184.215.14/hooks/identity';

describe('admin.webhooks with a fake service', () => {
  it('passes on WEBHOOK_URL_NOT_ALLOWED with its field, and WEBHOOK_LIMIT_REACHED', async () => {
    const fake = fakeFetch((request) => {
      if (request.path === '/auth/discovery') return new Response(JSON.stringify(tenantConfig), { status: 200 });
      if (request.path === '/auth/login') return tokens(1);
      if (request.body?.url === 'https://10.0.0.1/x') {
        return new Response(
          JSON.stringify({
            type: 'about:blank',
            title: 'Bad Request',
            status: 400,
            code: 'WEBHOOK_URL_NOT_ALLOWED',
            errors: [{ path: 'url', message: 'must name a public host' }],
          }),
          { status: 400, headers: { 'content-type': 'application/problem+json' } },
        );
      }
      return problem(409, 'WEBHOOK_LIMIT_REACHED');
    });
    const client = new IdentityClient({ baseUrl: BASE_URL, fetch: fake.fetch, cookies: recordingCookies().store });
    await client.discover({ clientId: 'pk_1' });
    await client.login({ email: 'fern@shop.test', password: 'Fern-fern-1' });
    const refused = await client.admin.webhooks
      .create({ url: 'https://10.0.0.1/x', eventTypes: ['user.created'] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, code: 'WEBHOOK_URL_NOT_ALLOWED' });
    expect((refused as ApiError).errors).toEqual([{ path: 'url', message: 'must name a public host' }]);
    await expect(client.admin.webhooks.create({ url: RECEIVER, eventTypes: ['user.created'] })).rejects.toMatchObject({
      status: 409,
      code: 'WEBHOOK_LIMIT_REACHED',
    });
  });

  it('lists the same event types as the service, in its order', () => {
    expect([...WEBHOOK_EVENT_TYPES]).toEqual([...EVENT_TYPES]);
  });
});

describe('admin.webhooks against the local stack', () => {
  const api = useLocalStack();
  /** Node's fetch sends no Origin; discovery wants one, as a browser on the tenant's origin would send. */
  const fromOrigin: FetchLike = (url, init) => fetch(url, { ...init, headers: { ...init.headers, origin: ORIGIN } });

  async function anAdmin() {
    const tenant = await aTenantWith({ origins: [ORIGIN] });
    const client = new IdentityClient({ baseUrl: api.url, fetch: fromOrigin, cookies: memoryCookieStore() });
    await client.discover({ clientId: tenant.publicApiKey });
    await client.login({ email: tenant.adminEmail, password: tenant.adminPassword });
    return client;
  }

  it('adds an endpoint (its secret once), changes it, rotates its secret, queues a test, turns it off and deletes it', async () => {
    const client = await anAdmin();
    const webhooks = client.admin.webhooks;
    expect(await webhooks.list()).toEqual([]);

    const created = await webhooks.create({ url: RECEIVER, eventTypes: ['user.created', 'session.created'] });
    expect(created.secret).toMatch(/^whsec_/);
    expect(created).toMatchObject({ url: RECEIVER, description: null, enabled: true, disabledReason: null });
    const listed = await webhooks.list();
    expect(listed.map((endpoint) => endpoint.id)).toEqual([created.id]);
    expect(listed[0]).not.toHaveProperty('secret');
    expect(await webhooks.get(created.id)).not.toHaveProperty('secret');

    const changed = await webhooks.update(created.id, { eventTypes: ['user.deleted'], description: 'CRM' });
    expect(changed).toMatchObject({ eventTypes: ['user.deleted'], description: 'CRM', url: RECEIVER });

    const rotated = await webhooks.rotateSecret(created.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    const overlap = Date.parse(rotated.previousSecretExpiresAt ?? '') - Date.parse(rotated.secretCreatedAt);
    expect(overlap).toBe(24 * 60 * 60 * 1000);

    const queued = await webhooks.sendTest(created.id);
    expect(queued).toMatchObject({ events: 1 });
    expect(queued.eventId).toEqual(expect.any(String));
    const log = await webhooks.attempts(created.id, { limit: 10 });
    expect(log).toEqual({ items: expect.any(Array), nextCursor: null });
    await expect(webhooks.replay(created.id, new Date(Date.now() + 3_600_000).toISOString())).rejects.toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      errors: [{ path: 'since' }],
    });

    expect(await webhooks.update(created.id, { enabled: false })).toMatchObject({ enabled: false });
    await expect(webhooks.sendTest(created.id)).rejects.toMatchObject({ status: 409, code: 'CONFLICT' });
    await expect(webhooks.replay(created.id, new Date().toISOString())).rejects.toMatchObject({ code: 'CONFLICT' });

    await webhooks.delete(created.id);
    await expect(webhooks.get(created.id)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await webhooks.list()).toEqual([]);
  });

  it('refuses an address inside a private network at its url field', async () => {
    const client = await anAdmin();
    const refused = await client.admin.webhooks
      .create({ url: 'https://10.0.0.1/x', eventTypes: ['user.created'] })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400, code: 'WEBHOOK_URL_NOT_ALLOWED' });
    expect((refused as ApiError).errors.map((error) => error.path)).toEqual(['url']);
    expect(await client.admin.webhooks.list()).toEqual([]);
  });
});
