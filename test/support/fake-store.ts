import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { vi } from 'vitest';
import type { StoreClient } from '#shared/store/client.ts';

/**
 * A store whose client answers what DynamoDB on AWS does and DynamoDB Local
 * never shows (it serialises transactions): for unit tests of the store's
 * answers to cancelled transactions.
 */

/** A transaction DynamoDB cancelled, with one reason code per item. */
export const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: `Transaction cancelled [${codes.join(', ')}]`,
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

/** A store whose client answers each send with the next of `answers` (an error is thrown). */
export function storeAnswering(...answers: (Error | 'ok')[]) {
  const send = vi.fn(async () => {
    const answer = answers.shift() ?? 'ok';
    if (answer instanceof Error) throw answer;
    return {};
  });
  return { send, store: { doc: { send }, tableName: 'unit-test' } as unknown as StoreClient };
}
