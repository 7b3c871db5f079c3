import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { makeDeps } from '#shared/deps.ts';
import { dispatch } from '#shared/webhooks/dispatch.ts';
import { sqsDeliveryQueue } from '#shared/webhooks/queue.ts';
import { storeAnswering } from '#test/support/fake-store.ts';

/**
 * The AWS ends of the webhooks, where only a mock can stand in: the EventBridge bus of context webhookEventBus, and
 * SQS refusing part of a batch.
 */

const bus = mockClient(EventBridgeClient);
const sqs = mockClient(SQSClient);
afterEach(() => {
  bus.reset();
  sqs.reset();
});

function depsWithBus() {
  const deps = makeDeps({
    TABLE_NAME: 'unit',
    AWS_REGION: 'us-east-1',
    WEBHOOK_EVENT_BUS: 'merchant-events',
    SERVICE_NAME: 'Identity',
  });
  // A tenant without endpoints: the Query of its endpoints finds none.
  const { store } = storeAnswering();
  return { ...deps, store: { ...store, doc: { send: async () => ({ Items: [] }) } } as never };
}

const activity = {
  pk: 'T#app_1#mid_1#U#usr_1#ACT',
  entity: 'ACTIVITY',
  id: 'act_1',
  type: 'ROLE_ASSIGNED',
  at: '2026-11-29T10:00:00.000Z',
  actorId: 'usr_admin',
  userId: 'usr_1',
  detail: { role: 'GARDENER', expiresAt: null },
};

describe('the event bus (context webhookEventBus)', () => {
  it('gets every event, with its tenant, whether or not the tenant has endpoints', async () => {
    bus.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: '1' }] });
    const queue = { send: async () => {}, deadLetter: async () => {} };
    expect(await dispatch(depsWithBus(), queue, [activity])).toBe(0);
    const [call] = bus.commandCalls(PutEventsCommand);
    const [entry] = call?.args[0].input.Entries ?? [];
    expect(entry).toMatchObject({
      EventBusName: 'merchant-events',
      Source: 'identity.Identity',
      DetailType: 'user.role_assigned',
    });
    expect(JSON.parse(entry?.Detail ?? '{}')).toMatchObject({
      app: 'app_1',
      mid: 'mid_1',
      type: 'user.role_assigned',
      data: { userId: 'usr_1', role: 'GARDENER', expiresAt: null, actorId: 'usr_admin' },
    });
  });

  it('throws when the bus refuses an event, so that the stream hands the batch again', async () => {
    bus.on(PutEventsCommand).resolves({ FailedEntryCount: 1, Entries: [{ ErrorCode: 'ThrottlingException' }] });
    const queue = { send: async () => {}, deadLetter: async () => {} };
    await expect(dispatch(depsWithBus(), queue, [activity])).rejects.toThrow(/EventBridge refused 1/);
  });
});

describe('the deliveries queue on SQS', () => {
  it('sends in batches of ten, each delay at most 15 minutes, and throws when SQS refuses part of one', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const queue = sqsDeliveryQueue('https://sqs.example/q', 'https://sqs.example/dlq', 'us-east-1');
    const message = {
      app: 'a',
      mid: 'm',
      endpointId: 'whe_1',
      event: { id: 'evt_1', type: 'user.created' as const, timestamp: 'now', data: {} },
      attempt: 1,
      firstAttemptAt: null,
      dueAt: 'now',
    };
    await queue.send(Array.from({ length: 12 }, (_, i) => ({ message, delaySeconds: i === 0 ? 5000 : 1.2 })));
    const calls = sqs.commandCalls(SendMessageBatchCommand);
    expect(calls.map((c) => c.args[0].input.Entries?.length)).toEqual([10, 2]);
    expect(calls[0]?.args[0].input.Entries?.[0]?.DelaySeconds).toBe(900);
    expect(calls[0]?.args[0].input.Entries?.[1]?.DelaySeconds).toBe(2);

    sqs.on(SendMessageBatchCommand).resolves({
      Successful: [],
      Failed: [{ Id: '0', Code: 'x', SenderFault: false }],
    });
    await expect(queue.send([{ message, delaySeconds: 0 }])).rejects.toThrow(/SQS refused 1 of 1/);
  });
});
