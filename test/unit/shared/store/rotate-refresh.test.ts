import { describe, expect, it } from 'vitest';
import type { StoreClient } from '#shared/store/client.ts';
import { sessionRepo } from '#shared/store/session-repo.ts';
import { cancelled, storeAnswering } from '#test/support/fake-store.ts';

/**
 * The refresh rotation when tabs refresh at once on AWS: DynamoDB may cancel
 * a transaction only because another was in flight on the session item
 * (DynamoDB Local serialises transactions, so a fake client drives this). It
 * is sent again and judged on what the other left: a rotated token is
 * NOT_CURRENT (the grace answer follows), never a 503.
 */

const rotate = (store: StoreClient) =>
  sessionRepo(store).rotateRefresh(
    { app: 'app_1', mid: 'mid_1' },
    'usr_1',
    'ses_1',
    'presented-hash',
    'next-hash',
    new Date('2026-11-25T12:00:00.000Z'),
    0,
  );

describe('sessionRepo.rotateRefresh', () => {
  it('sends the rotation again after a TransactionConflict and finds the token rotated by the other: NOT_CURRENT', async () => {
    const { send, store } = storeAnswering(
      cancelled('TransactionConflict', 'None'),
      cancelled('ConditionalCheckFailed', 'None'),
    );
    expect(await rotate(store)).toBe('NOT_CURRENT');
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('rotates when the second send meets no one', async () => {
    const { send, store } = storeAnswering(cancelled('None', 'TransactionConflict'), 'ok');
    expect(await rotate(store)).toBe('ROTATED');
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('leaves throttling to the handler (503), without sending again', async () => {
    const throttled = cancelled('ThrottlingError', 'None');
    const { send, store } = storeAnswering(throttled);
    await expect(rotate(store)).rejects.toBe(throttled);
    expect(send).toHaveBeenCalledTimes(1);
  });
});
