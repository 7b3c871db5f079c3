import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateMe } from '#shared/account/me.ts';
import { newActivity } from '#shared/activity/record.ts';
import type { Deps } from '#shared/deps.ts';
import { newId } from '#shared/random.ts';
import { activityRepo } from '#shared/store/activity-repo.ts';
import { keys } from '#shared/store/keys.ts';
import { transact } from '#shared/store/transact.ts';
import { EVENT_ACTIVITY_TYPES, EVENT_DATA, EVENT_TYPES, type EventType } from '#shared/webhooks/events.ts';
import { aTenantWith, aUser, type TestTenant } from '#test/support/auth.ts';
import { bearer, call, expectProblem, identityApi } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';
import { claimsOf } from '../oidc/helpers.ts';

/**
 * Webhooks end to end on the local stack, as on AWS: the table's stream into the dispatcher, the queue into the
 * deliverer, a receiver on this machine verifying each request with the `standardwebhooks` package. Retry waits run a
 * thousand times faster here (5 s become 5 ms).
 */

const api = useLocalStack({ webhooks: { timeScale: 0.001 } });
const { logIn } = identityApi(() => api.url);

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
}

/** A receiver on loopback: records every request; `failFirst` answers 500 that many times per webhook-id. */
function startReceiver() {
  const received: Received[] = [];
  const failures = new Map<string, number>();
  const behaviour = { failFirst: 0, status: 204, redirect: false };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ path: req.url ?? '/', headers: req.headers, body, json: JSON.parse(body) });
      const id = String(req.headers['webhook-id']);
      const failed = failures.get(id) ?? 0;
      if (behaviour.redirect) {
        res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
      } else if (failed < behaviour.failFirst) {
        failures.set(id, failed + 1);
        res.writeHead(500).end('not now');
      } else {
        res.writeHead(behaviour.status).end();
      }
    });
  });
  return {
    received,
    behaviour,
    url: '',
    async start() {
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
      const address = server.address();
      this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

const receiver = startReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.close());

/** What `find` finds, once it does: a busy machine (the suite's other projects beside) may take its time. */
async function until<T>(find: () => T | undefined, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found !== undefined && found !== null && found !== false) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** A tenant of the stack's own table, its admin signed in just now. */
async function anAdminTenant(): Promise<{ tenant: TestTenant; admin: string; deps: Deps }> {
  const deps = api.stack.deps;
  const tenant = await aTenantWith({}, deps);
  const { accessToken } = await logIn(tenant, tenant.adminEmail, tenant.adminPassword);
  return { tenant, admin: accessToken, deps };
}

async function anEndpoint(
  tenant: TestTenant,
  admin: string,
  path: string,
  eventTypes: readonly string[] = EVENT_TYPES,
): Promise<{ id: string; secret: string }> {
  const res = await call(api.url, 'POST', '/webhook-endpoints', bearer(tenant, admin), {
    url: `${receiver.url}${path}`,
    eventTypes,
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  return { id: res.body.id, secret: res.body.secret };
}

const to = (path: string) => receiver.received.filter((request) => request.path === path);

/** The standardwebhooks headers of a request, as the package reads them. */
const headersOf = (request: Received) => ({
  'webhook-id': String(request.headers['webhook-id']),
  'webhook-timestamp': String(request.headers['webhook-timestamp']),
  'webhook-signature': String(request.headers['webhook-signature']),
});

/** One activity of each kind that makes events, with the detail its change writes, straight into the outbox. */
const DETAIL: Partial<Record<(typeof EVENT_ACTIVITY_TYPES)[number], Record<string, string | string[] | null>>> = {
  SIGNUP: { via: 'INVITATION', email: 'ada@shop.test' },
  INVITED: { email: 'ada@shop.test' },
  PROFILE_UPDATED: { fields: ['firstName'] },
  EMAIL_CHANGE: { email: 'ada@new.test', previousEmail: 'ada@shop.test' },
  ROLE_ASSIGNED: { role: 'GARDENER', expiresAt: null },
  ROLE_REVOKED: { role: 'GARDENER' },
  LOGIN: { sessionId: 'ses_0123456789abcdefghjk' },
  LOGOUT: { sessionId: 'ses_0123456789abcdefghjk' },
  SESSION_REVOKED: { sessionId: null },
  REFRESH_TOKEN_REUSED: { sessionId: 'ses_0123456789abcdefghjk' },
};

describe('events', { timeout: 60_000 }, () => {
  it('sends every event type, each signed as Standard Webhooks says and shaped as its schema', async () => {
    const { tenant, admin, deps } = await anAdminTenant();
    const endpoint = await anEndpoint(tenant, admin, '/all');
    const userId = newId(deps.random, 'usr');
    const context = { ip: '203.0.113.9', userAgent: 'vitest', actorId: userId };
    for (const type of EVENT_ACTIVITY_TYPES) {
      const detail = DETAIL[type];
      const activity = newActivity(deps, userId, type, context, {
        ...(type === 'LOGIN' && { method: 'PASSWORD' as const }),
        ...(detail && { detail }),
      });
      await activityRepo(deps.store).record(tenant, activity);
    }
    const at = deps.clock.now().toISOString();
    await transact(deps.store, {
      audit: activityRepo(deps.store).auditItem(tenant, {
        id: newId(deps.random, 'aud'),
        type: 'USER_DELETED',
        subjectId: userId,
        at,
        ip: '203.0.113.9',
        userAgent: 'vitest',
        actorId: 'usr_admin',
      }),
    });
    const seen = await until(() => {
      const types = new Set(to('/all').map((request) => request.json.type));
      return EVENT_TYPES.every((type) => types.has(type)) ? types : undefined;
    }, 'every event type');
    expect([...seen].sort()).toEqual([...EVENT_TYPES].sort());
    const verifier = new Webhook(endpoint.secret);
    for (const request of to('/all')) {
      expect(verifier.verify(request.body, headersOf(request))).toEqual(request.json);
      const schema = EVENT_DATA[request.json.type as EventType];
      expect(v.safeParse(v.strictObject(schema.entries), request.json.data).success, request.body).toBe(true);
      expect(request.json.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    // Another secret does not verify them: the signature is the endpoint's own.
    const stranger = new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`);
    const [first] = to('/all');
    expect(() => stranger.verify((first as Received).body, headersOf(first as Received))).toThrow();
  });

  it('sends what the API changes, and only to endpoints subscribed to it', async () => {
    const { tenant, admin, deps } = await anAdminTenant();
    await anEndpoint(tenant, admin, '/invites', ['invitation.created', 'user.deleted']);
    await anEndpoint(tenant, admin, '/profiles', ['user.updated']);
    const invited = await call(api.url, 'POST', '/users/invitations', bearer(tenant, admin), {
      email: 'grace@shop.test',
    });
    expect(invited.status, invited.text).toBe(201);
    const invitation = await until(
      () => to('/invites').find((request) => request.json.type === 'invitation.created'),
      'invitation.created',
    );
    expect(invitation.json.data).toMatchObject({ userId: invited.body.userId, email: 'grace@shop.test' });

    const member = await aUser(tenant, {}, deps);
    const session = await logIn(tenant, member.email, member.password);
    const patched = await call(api.url, 'PATCH', '/users/me', bearer(tenant, session.accessToken), {
      firstName: 'Grace',
    });
    expect(patched.status, patched.text).toBe(200);
    const updated = await until(() => to('/profiles').find((r) => r.json.type === 'user.updated'), 'user.updated');
    expect(updated.json.data).toMatchObject({ userId: member.id, fields: ['firstName'], actorId: member.id });

    const deleted = await call(api.url, 'DELETE', `/users/${invited.body.userId}`, bearer(tenant, admin));
    expect(deleted.status, deleted.text).toBe(204);
    await until(() => to('/invites').find((r) => r.json.type === 'user.deleted'), 'user.deleted');
    // The profile endpoint wanted none of these; the invitation endpoint no profile change.
    expect(to('/profiles').map((r) => r.json.type)).toEqual(['user.updated']);
    expect(
      to('/invites')
        .map((r) => r.json.type)
        .sort(),
    ).toEqual(['invitation.created', 'user.deleted']);
  });

  it('sends no event for a change whose transaction failed', async () => {
    const { tenant, admin, deps } = await anAdminTenant();
    await anEndpoint(tenant, admin, '/faults', ['user.updated']);
    const member = await aUser(tenant, {}, deps);
    const merchant = { ...tenant } as never;
    const principal = { kind: 'user', userId: member.id } as never;
    const client = { ip: '203.0.113.9', userAgent: 'vitest', language: 'en' as const };
    // The store refuses the transaction that writes the change and its activity.
    const failing: Deps = {
      ...deps,
      store: {
        ...deps.store,
        doc: {
          send: async (command: { constructor: { name: string } }) => {
            if (command.constructor.name === 'TransactWriteCommand') throw new Error('injected fault');
            return deps.store.doc.send(command as never);
          },
        } as never,
      },
    };
    await expect(updateMe(failing, merchant, principal, { firstName: 'Lost' }, client)).rejects.toThrow('injected');
    await updateMe(deps, merchant, principal, { lastName: 'Kept' }, client);
    const kept = await until(() => to('/faults').find((r) => r.json.type === 'user.updated'), 'the kept change');
    expect(kept.json.data).toMatchObject({ fields: ['lastName'] });
    // The stream is read in order: the failed change, made first, would have come first.
    await new Promise((done) => setTimeout(done, 500));
    expect(to('/faults').map((r) => r.json.data.fields)).toEqual([['lastName']]);
  });
});

describe('delivery', { timeout: 60_000 }, () => {
  it('retries a failing receiver with the same webhook-id until it answers 2xx, and logs each attempt', async () => {
    const { tenant, admin } = await anAdminTenant();
    const endpoint = await anEndpoint(tenant, admin, '/flaky');
    receiver.behaviour.failFirst = 3;
    try {
      const sent = await call(api.url, 'POST', `/webhook-endpoints/${endpoint.id}/test`, bearer(tenant, admin));
      expect(sent.status, sent.text).toBe(202);
      // The admin's own sign-in (session.created) may come too: the test event is the one counted here.
      const tests = () => to('/flaky').filter((r) => r.json.type === 'webhook.test');
      const attempts = await until(() => (tests().length >= 4 ? tests() : undefined), '4 attempts');
      expect(new Set(attempts.map((r) => r.headers['webhook-id']))).toEqual(new Set([sent.body.eventId]));
    } finally {
      receiver.behaviour.failFirst = 0;
    }
    // The log shows each attempt, newest first: three refusals, then the delivery.
    const deadline = Date.now() + 5000;
    let items: { statusCode: number | null; eventType: string; attempt: number }[] = [];
    while (items.length < 4 && Date.now() < deadline) {
      const res = await call(api.url, 'GET', `/webhook-endpoints/${endpoint.id}/attempts`, bearer(tenant, admin));
      items = res.body.items.filter((item: { eventType: string }) => item.eventType === 'webhook.test');
      await new Promise((done) => setTimeout(done, 50));
    }
    expect(items.map((item) => [item.attempt, item.statusCode])).toEqual([
      [4, 204],
      [3, 500],
      [2, 500],
      [1, 500],
    ]);
  });
});

describe('endpoints', { timeout: 60_000 }, () => {
  it('refuses URLs that are not https or name a private, link-local or metadata address, or carry credentials', async () => {
    const { tenant, admin } = await anAdminTenant();
    for (const url of [
      'http://shop.example/hooks',
      'https://10.0.0.1/hooks',
      'https://192.168.1.5/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://[fd00:ec2::254]/hooks',
      'https://user:secret@shop.example/hooks',
    ]) {
      const res = await call(api.url, 'POST', '/webhook-endpoints', bearer(tenant, admin), {
        url,
        eventTypes: ['user.created'],
      });
      expectProblem(res, 400, 'WEBHOOK_URL_NOT_ALLOWED');
      expect(res.body.errors?.[0]?.path, url).toBe('url');
    }
  });

  it('never answers an API key, and another tenant cannot reach an endpoint', async () => {
    const { tenant, admin } = await anAdminTenant();
    const endpoint = await anEndpoint(tenant, admin, '/mine');
    const key = await call(api.url, 'POST', `/merchants/${tenant.id}/api-keys`, bearer(tenant, admin), {
      label: 'ci',
    });
    expect(key.status, key.text).toBe(201);
    const withKey = { ...tenant.headers, 'x-api-key': key.body.apiKey as string };
    expectProblem(await call(api.url, 'GET', '/webhook-endpoints', withKey), 403, 'FORBIDDEN');
    expectProblem(
      await call(api.url, 'POST', '/webhook-endpoints', withKey, { url: receiver.url, eventTypes: ['user.created'] }),
      403,
      'FORBIDDEN',
    );
    const other = await anAdminTenant();
    for (const [method, path] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/secret'],
      ['GET', '/attempts'],
      ['POST', '/test'],
    ] as const) {
      const res = await call(
        api.url,
        method,
        `/webhook-endpoints/${endpoint.id}${path}`,
        bearer(other.tenant, other.admin),
        method === 'PATCH' ? { enabled: false } : undefined,
      );
      expectProblem(res, 404, 'NOT_FOUND');
    }
  });

  it('lets an admin signed in more than ten minutes ago read and test, but change nothing until signing in again', async () => {
    const { tenant, admin } = await anAdminTenant();
    const endpoint = await anEndpoint(tenant, admin, '/stale');
    const { sub, sid } = claimsOf(admin);
    await api.stack.deps.store.doc.send(
      new UpdateCommand({
        TableName: api.stack.deps.store.tableName,
        Key: keys.session(tenant, sub, sid),
        UpdateExpression: 'SET authenticatedAt = :at',
        ExpressionAttributeValues: { ':at': new Date(Date.now() - 11 * 60_000).toISOString() },
      }),
    );
    const as = bearer(tenant, admin);
    const path = `/webhook-endpoints/${endpoint.id}`;
    expect((await call(api.url, 'GET', '/webhook-endpoints', as)).status).toBe(200);
    expect((await call(api.url, 'POST', `${path}/test`, as)).status).toBe(202);
    for (const [method, suffix, body] of [
      ['POST', '', { url: `${receiver.url}/other`, eventTypes: ['user.created'] }],
      ['PATCH', '', { url: `${receiver.url}/elsewhere` }],
      ['POST', '/secret', undefined],
      ['DELETE', '', undefined],
    ] as const) {
      const target = method === 'POST' && suffix === '' ? '/webhook-endpoints' : `${path}${suffix}`;
      expectProblem(await call(api.url, method, target, as, body), 403, 'REAUTHENTICATION_REQUIRED');
    }
    const read = await call(api.url, 'GET', path, as);
    expect(read.body).toMatchObject({ url: `${receiver.url}/stale`, secretCreatedAt: read.body.createdAt });
  });

  it('rotates the secret: for 24 hours each delivery is signed by the new secret and the old one', async () => {
    const { tenant, admin } = await anAdminTenant();
    const endpoint = await anEndpoint(tenant, admin, '/rotating');
    const rotated = await call(api.url, 'POST', `/webhook-endpoints/${endpoint.id}/secret`, bearer(tenant, admin));
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    const overlap = Date.parse(rotated.body.previousSecretExpiresAt) - Date.parse(rotated.body.secretCreatedAt);
    expect(overlap).toBe(24 * 3600 * 1000);
    await call(api.url, 'POST', `/webhook-endpoints/${endpoint.id}/test`, bearer(tenant, admin));
    const request = await until(() => to('/rotating')[0], 'the test event');
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated.body.secret as string]) {
      expect(new Webhook(secret).verify(request.body, headersOf(request))).toEqual(request.json);
    }
    // The secret is never answered again.
    const read = await call(api.url, 'GET', `/webhook-endpoints/${endpoint.id}`, bearer(tenant, admin));
    expect(JSON.stringify(read.body)).not.toContain('whsec_');
  });

  it('follows no redirect: a 3xx is a failed attempt, retried', async () => {
    const { tenant, admin } = await anAdminTenant();
    const endpoint = await anEndpoint(tenant, admin, '/moved');
    receiver.behaviour.redirect = true;
    try {
      await call(api.url, 'POST', `/webhook-endpoints/${endpoint.id}/test`, bearer(tenant, admin));
      await until(() => (to('/moved').length >= 2 ? true : undefined), 'a retry after the redirect');
    } finally {
      receiver.behaviour.redirect = false;
    }
    const log = await call(api.url, 'GET', `/webhook-endpoints/${endpoint.id}/attempts`, bearer(tenant, admin));
    const redirected = log.body.items.find((item: { statusCode: number }) => item.statusCode === 302);
    expect(redirected).toMatchObject({ error: 'redirect not followed' });
    expect(receiver.received.some((r) => r.path === '/elsewhere')).toBe(false);
  });
});
