import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import type { Deps } from '#shared/deps.ts';
import { transactAdminWrite } from '#shared/store/transact.ts';

/**
 * transactAdminWrite: a transaction DynamoDB cancelled only because another
 * was in flight on its items is sent again (DynamoDB Local serialises
 * transactions, so this is driven with a fake client); a failed condition or
 * throttling is left to the caller and the handler.
 */

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: `Transaction cancelled [${codes.join(', ')}]`,
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

/** A store whose client answers each send with the next of `answers` (an error is thrown). */
function storeAnswering(...answers: (Error | 'ok')[]) {
  const send = vi.fn(async () => {
    const answer = answers.shift() ?? 'ok';
    if (answer instanceof Error) throw answer;
    return {};
  });
  return { send, deps: { store: { doc: { send }, tableName: 'unit-test' } } as unknown as Pick<Deps, 'store'> };
}

const items = [{ ConditionCheck: { TableName: 'unit-test', Key: { pk: 'p', sk: 's' }, ConditionExpression: 'x' } }];

describe('transactAdminWrite', () => {
  it('sends the same transaction again after a TransactionConflict, and succeeds', async () => {
    const { send, deps } = storeAnswering(cancelled('None', 'TransactionConflict'), 'ok');
    await expect(transactAdminWrite(deps, items)).resolves.toBeUndefined();
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('answers 409 CONFLICT after three sends that all met another transaction', async () => {
    const { send, deps } = storeAnswering(
      cancelled('TransactionConflict', 'None'),
      cancelled('None', 'TransactionConflict'),
      cancelled('TransactionConflict', 'TransactionConflict'),
    );
    await expect(transactAdminWrite(deps, items)).rejects.toMatchObject({ status: 409, code: 'CONFLICT' });
    expect(send).toHaveBeenCalledTimes(3);
  });

  it.each([
    ['a failed condition', cancelled('None', 'ConditionalCheckFailed')],
    ['a failed condition beside a conflict', cancelled('TransactionConflict', 'ConditionalCheckFailed')],
    ['throttling', cancelled('ThrottlingError', 'None')],
  ])('throws %s as DynamoDB did, without sending again', async (_, error) => {
    const { send, deps } = storeAnswering(error);
    await expect(transactAdminWrite(deps, items)).rejects.toBe(error);
    expect(send).toHaveBeenCalledTimes(1);
  });
});
