import { ConditionalCheckFailedException, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import type { StoreClient } from '#shared/store/client.ts';
import { type Session, sessionRepo } from '#shared/store/session-repo.ts';
import { storeAnswering } from '#test/support/fake-store.ts';

/**
 * The refresh rotation is one conditional UpdateItem of the session, no transaction: on AWS, refreshes racing
 * with one token are serialised on the item instead of cancelling each other for the conflict, so the loser is
 * judged on what the winner left. What it sends, and how it answers a lost condition and throttling.
 */

const session = {
  id: 'ses_1',
  userId: 'usr_1',
  refreshHash: 'presented-hash',
  refreshGen: 4,
  prevRotatedAt: '2026-11-25T11:55:00.000Z',
} as Session;

const rotate = (store: StoreClient) =>
  sessionRepo(store).rotateRefresh(
    { app: 'app_1', mid: 'mid_1' },
    session,
    'next-hash',
    new Date('2026-11-25T12:00:00.000Z'),
    0,
  );

const conditionFailed = () =>
  new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

describe('sessionRepo.rotateRefresh', () => {
  it('writes the session item alone: the next hash and generation, the presented hash and both rotation times', async () => {
    const { send, store } = storeAnswering('ok');
    expect(await rotate(store)).toBe(true);
    expect(send).toHaveBeenCalledTimes(1);
    const [[command]] = send.mock.calls as unknown as [[{ input: Record<string, unknown> }]];
    expect(command.constructor.name).toBe('UpdateCommand');
    expect(command.input).toMatchObject({
      ConditionExpression: expect.stringContaining('refreshHash = :presented'),
      ExpressionAttributeValues: expect.objectContaining({
        ':next': 'next-hash',
        ':gen': 5,
        ':presented': 'presented-hash',
        ':now': '2026-11-25T12:00:00.000Z',
        ':older': '2026-11-25T11:55:00.000Z',
      }),
    });
  });

  it('answers false when the token is no longer current (the grace answer follows), without sending again', async () => {
    const { send, store } = storeAnswering(conditionFailed());
    expect(await rotate(store)).toBe(false);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('leaves throttling to the handler (503)', async () => {
    const throttled = new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} });
    const { store } = storeAnswering(throttled);
    await expect(rotate(store)).rejects.toBe(throttled);
  });
});
