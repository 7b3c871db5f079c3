import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { eventIdOf, eventTimeOf } from '#shared/store/webhook-repo.ts';
import { retryWaitMs } from '#shared/webhooks/delivery.ts';
import { EVENT_ACTIVITY_TYPES, eventsOf } from '#shared/webhooks/events.ts';
import { postEvent } from '#shared/webhooks/post.ts';
import { newSigningSecret, signedHeaders } from '#shared/webhooks/signing.ts';
import { passesStreamFilter } from '#shared/webhooks/stream-filter.ts';

const now = () => Date.now();

describe('signing', () => {
  it('signs as Standard Webhooks verifies, with every secret given', () => {
    const [a, b] = [newSigningSecret(), newSigningSecret()];
    const body = JSON.stringify({ type: 'user.created', timestamp: '2026-11-29T10:00:00.000Z', data: {} });
    const headers = signedHeaders([a, b], 'evt_1', new Date(), body);
    expect(String(headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [a, b]) expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
    // A body changed on the way does not verify.
    expect(() => new Webhook(a).verify(body.replace('created', 'deleted'), headers)).toThrow();
  });
});

describe('event ids', () => {
  it('are the same for the same item and type, and tell the time of the change', () => {
    const at = '2026-11-29T10:11:12.345Z';
    expect(eventIdOf('act_1', 'user.created', at)).toBe(eventIdOf('act_1', 'user.created', at));
    expect(eventIdOf('act_1', 'user.created', at)).not.toBe(eventIdOf('act_1', 'user.verified', at));
    expect(eventTimeOf(eventIdOf('act_1', 'user.created', at))).toBe(at);
    for (const bad of ['evt_', 'evt_zzzzzzzzz', `evt_${'#'.repeat(29)}`, 'act_0123'])
      expect(eventTimeOf(bad)).toBeNull();
  });
});

describe('the stream filter', () => {
  const record = (entity: string, type: string, eventName = 'INSERT') => ({
    eventName,
    dynamodb: { NewImage: { entity: { S: entity }, type: { S: type } } },
  });

  it('lets through new activity that makes events, deletions, and requests; nothing else', () => {
    for (const type of EVENT_ACTIVITY_TYPES) expect(passesStreamFilter(record('ACTIVITY', type)), type).toBe(true);
    expect(passesStreamFilter(record('AUDIT', 'USER_DELETED'))).toBe(true);
    expect(passesStreamFilter(record('WEBHOOK_REQUEST', 'x'))).toBe(true);
    expect(passesStreamFilter(record('ACTIVITY', 'LOGIN_FAILED'))).toBe(false);
    expect(passesStreamFilter(record('ACTIVITY', 'LOGIN', 'MODIFY'))).toBe(false);
    expect(passesStreamFilter(record('ACTIVITY', 'LOGIN', 'REMOVE'))).toBe(false);
    expect(passesStreamFilter(record('SESSION', 'LOGIN'))).toBe(false);
    expect(passesStreamFilter(record('WEBHOOK_EVENT', 'user.created'))).toBe(false);
  });

  it('agrees with the events: each type it lets through makes at least one event', () => {
    for (const type of EVENT_ACTIVITY_TYPES) {
      const events = eventsOf({
        entity: 'ACTIVITY',
        id: 'act_1',
        type,
        at: '2026-11-29T10:00:00.000Z',
        actorId: 'usr_1',
        userId: 'usr_1',
        detail: { email: 'ada@shop.test', via: 'SIGNUP', fields: ['phone'], role: 'ADMIN' },
      });
      expect(events.length, type).toBeGreaterThan(0);
    }
  });
});

describe('retry waits', () => {
  it('start at about 5 s, grow four times each, stop growing at 6 hours, never below 80 % of their step', () => {
    expect(retryWaitMs(1, () => 1)).toBe(5000);
    expect(retryWaitMs(1, () => 0)).toBe(4000);
    expect(retryWaitMs(2, () => 1)).toBe(20_000);
    expect(retryWaitMs(8, () => 1)).toBe(6 * 3600_000);
    expect(retryWaitMs(30, () => 1)).toBe(6 * 3600_000);
  });
});

describe('a POST to an endpoint', () => {
  it('never reaches loopback, private or metadata addresses outside local runs', async () => {
    let reached = false;
    const server = createServer((_req, res) => {
      reached = true;
      res.writeHead(204).end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      for (const url of [
        `http://127.0.0.1:${port}/hook`,
        `https://127.0.0.1:${port}/hook`,
        `https://localhost:${port}/hook`,
        'https://169.254.169.254/latest/meta-data',
        'https://10.1.2.3/hook',
        'https://[::1]/hook',
      ]) {
        const outcome = await postEvent(url, {}, '{}', { allowLoopback: false, now });
        expect(outcome.statusCode, url).toBeNull();
        expect(outcome.error, url).toMatch(/^URL must/);
      }
      expect(reached).toBe(false);
      // The same receiver, in a local run: delivered.
      const local = await postEvent(`http://127.0.0.1:${port}/hook`, {}, '{}', { allowLoopback: true, now });
      expect(local).toMatchObject({ statusCode: 204, error: null });
      expect(reached).toBe(true);
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });
});
