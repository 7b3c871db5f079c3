import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '#shared/deps.ts';
import type { Mailer, MailMessage } from '#shared/mail/message.ts';
import { newId } from '#shared/random.ts';
import { HOUR_MS } from '#shared/store/ttl.ts';
import { webhookRepo } from '#shared/store/webhook-repo.ts';
import { createWebhookEndpoint } from '#shared/webhooks/admin.ts';
import { deliver, RETRY_WINDOW_MS } from '#shared/webhooks/delivery.ts';
import type { DeliveryMessage, DeliveryQueue } from '#shared/webhooks/queue.ts';
import { aTenantWith } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';

/**
 * One delivery's life on the clock of a day: each failure puts the same event back on the queue with a longer wait,
 * until 24 hours after the first attempt; then the dead-letter queue, the endpoint turned off, its creator mailed.
 */

let status = 500;
let requests = 0;
const server: Server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    requests += 1;
    res.writeHead(status).end();
  });
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

/** A queue that keeps what is sent to it, for the test to hand on. */
function aQueue() {
  const sent: { message: DeliveryMessage; delaySeconds: number }[] = [];
  const dead: DeliveryMessage[] = [];
  const queue: DeliveryQueue = {
    send: async (messages) => {
      sent.push(...messages);
    },
    deadLetter: async (message) => {
      dead.push(message);
    },
  };
  return { queue, sent, dead };
}

async function setUp() {
  let now = Date.parse('2026-11-20T10:00:00.000Z');
  const mails: { to: string; message: MailMessage }[] = [];
  const mailer: Mailer = {
    send: async (_tenant, to, message) => {
      mails.push({ to, message });
    },
  };
  const base = makeTestDeps();
  const deps: Deps = {
    ...base,
    mailer,
    clock: { now: () => new Date(now) },
    config: { ...base.config, webhooks: { ...base.config.webhooks, allowLoopback: true } },
  };
  const tenant = await aTenantWith({}, deps);
  const admin = { kind: 'user', userId: tenant.adminUserId, authenticatedAt: new Date(now).toISOString() } as never;
  const created = await createWebhookEndpoint(deps, tenant, admin, { url, eventTypes: ['user.created'] });
  const first: DeliveryMessage = {
    app: tenant.app,
    mid: tenant.mid,
    endpointId: created.id,
    event: {
      id: 'evt_0000000000aaaaaaaaaaaaaaaaaaaa',
      type: 'user.created',
      timestamp: new Date(now).toISOString(),
      data: { userId: newId(deps.random, 'usr'), email: 'ada@shop.test', via: 'SIGNUP', actorId: 'x' },
    },
    attempt: 1,
    firstAttemptAt: null,
    dueAt: new Date(now).toISOString(),
  };
  return { deps, tenant, endpointId: created.id, first, mails, at: (ms: number) => (now = ms), now: () => now };
}

describe('a delivery that keeps failing', () => {
  it('is retried with the same event and longer waits for 24 hours, then dead-lettered, and the endpoint turned off', async () => {
    status = 500;
    const { deps, tenant, endpointId, first, mails, at, now } = await setUp();
    const { queue, sent, dead } = aQueue();
    const started = now();
    let message = first;
    const waits: number[] = [];
    for (let i = 0; i < 40 && dead.length === 0; i++) {
      // Each hop of at most 15 minutes comes back; the deliverer sends it on until its time.
      at(Date.parse(message.dueAt));
      const before = sent.length;
      await deliver(deps, queue, message);
      if (dead.length > 0) break;
      const next = sent[before];
      expect(next, `attempt ${message.attempt}`).toBeDefined();
      if (next?.message.attempt !== message.attempt) waits.push(Date.parse(next?.message.dueAt ?? '') - now());
      message = next?.message as DeliveryMessage;
      expect(message.event).toEqual(first.event);
    }
    // Each wait is drawn from 80-100 % of 5 s × 4^(n-1), at most 6 h (the last one cut short at 24 h), and the last
    // attempt is 24 h after the first.
    waits.slice(0, -1).forEach((wait, i) => {
      const full = Math.min(6 * HOUR_MS, 5000 * 4 ** i);
      expect(wait, `wait ${i + 1}`).toBeGreaterThanOrEqual(0.8 * full);
      expect(wait, `wait ${i + 1}`).toBeLessThanOrEqual(full);
    });
    expect(waits.length).toBeGreaterThan(8);
    expect(now() - started).toBe(RETRY_WINDOW_MS);
    expect(dead).toHaveLength(1);
    expect(dead[0]?.event.id).toBe(first.event.id);

    const endpoint = await webhookRepo(deps.store).get(tenant, endpointId);
    expect(endpoint).toMatchObject({ enabled: false, disabledReason: 'FAILING' });
    expect(mails).toEqual([{ to: tenant.adminEmail, message: { kind: 'WEBHOOK_DISABLED', url } }]);
    // Every attempt is in the log, the last one with no retry.
    const log = await webhookRepo(deps.store).attempts(tenant, endpointId, 100, null, new Date(now()));
    expect(log.items[0]).toMatchObject({ statusCode: 500, error: 'answered 500', retryAt: null });
    expect(log.items.length).toBe(requests);
  });

  it('is not turned off when another delivery got through meanwhile, and a turned-off endpoint is sent nothing', async () => {
    status = 500;
    const { deps, tenant, endpointId, first, mails, at, now } = await setUp();
    const { queue, dead } = aQueue();
    await deliver(deps, queue, first);
    // Another event got through an hour later: the endpoint is not failing since the first attempt any more.
    status = 204;
    at(now() + HOUR_MS);
    await deliver(deps, queue, { ...first, event: { ...first.event, id: 'evt_0000000000bbbbbbbbbbbbbbbbbbbb' } });
    status = 500;
    at(now() + RETRY_WINDOW_MS);
    await deliver(deps, queue, {
      ...first,
      attempt: 9,
      firstAttemptAt: new Date(now() - RETRY_WINDOW_MS).toISOString(),
      dueAt: new Date(now()).toISOString(),
    });
    expect(dead).toHaveLength(1);
    expect((await webhookRepo(deps.store).get(tenant, endpointId))?.enabled).toBe(true);
    expect(mails).toEqual([]);

    // Off by an admin: nothing is sent, no attempt made.
    const endpoint = await webhookRepo(deps.store).get(tenant, endpointId);
    if (!endpoint) throw new Error('the endpoint is gone');
    const off = { ...endpoint, enabled: false, updatedAt: new Date(now()).toISOString() };
    expect(await webhookRepo(deps.store).save(tenant, off, endpoint.updatedAt)).toBe(true);
    const count = requests;
    expect(await deliver(deps, queue, first)).toBe('DROPPED');
    expect(requests).toBe(count);
  });
});
