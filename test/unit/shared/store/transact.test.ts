import { describe, expect, it } from 'vitest';
import { transact } from '#shared/store/transact.ts';
import { cancelled, storeAnswering } from '#test/support/fake-store.ts';

/**
 * transact: a transaction DynamoDB cancelled only because another was in
 * flight on its items is sent again when asked (DynamoDB Local serialises
 * transactions, so this is driven with a fake client); a failed condition
 * comes back by the item's name; throttling is left to the handler.
 */

const check = (pk: string) => ({
  ConditionCheck: { TableName: 'unit-test', Key: { pk, sk: 's' }, ConditionExpression: 'x' },
});
const items = { first: check('a'), second: check('b') };

describe('transact', () => {
  it('sends the same transaction again after a TransactionConflict, and succeeds', async () => {
    const { send, store } = storeAnswering(cancelled('None', 'TransactionConflict'), 'ok');
    expect(await transact(store, items, { retryConflicts: true })).toEqual(new Set());
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('answers 409 CONFLICT after three sends that all met another transaction', async () => {
    const { send, store } = storeAnswering(
      cancelled('TransactionConflict', 'None'),
      cancelled('None', 'TransactionConflict'),
      cancelled('TransactionConflict', 'TransactionConflict'),
    );
    await expect(transact(store, items, { retryConflicts: true })).rejects.toMatchObject({
      status: 409,
      code: 'CONFLICT',
    });
    expect(send).toHaveBeenCalledTimes(3);
  });

  it.each([
    ['a failed condition', cancelled('None', 'ConditionalCheckFailed')],
    ['a failed condition beside a conflict', cancelled('TransactionConflict', 'ConditionalCheckFailed')],
  ])('names the item of %s, without sending again', async (_, error) => {
    const { send, store } = storeAnswering(error);
    expect(await transact(store, items, { retryConflicts: true })).toEqual(new Set(['second']));
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('names items by their place among those sent: a null item is left out', async () => {
    const { send, store } = storeAnswering(cancelled('None', 'ConditionalCheckFailed'));
    expect(await transact(store, { first: check('a'), skipped: null, third: check('c') })).toEqual(new Set(['third']));
    const [command] = send.mock.calls[0] as unknown as [{ input: { TransactItems: unknown[] } }];
    expect(command.input.TransactItems).toHaveLength(2);
  });

  it.each([
    ['throttling', cancelled('ThrottlingError', 'None'), { retryConflicts: true }],
    ['a conflict, when not asked to retry', cancelled('None', 'TransactionConflict'), {}],
  ])('throws %s as DynamoDB did, without sending again', async (_, error, options) => {
    const { send, store } = storeAnswering(error);
    await expect(transact(store, items, options)).rejects.toBe(error);
    expect(send).toHaveBeenCalledTimes(1);
  });
});
