import {
  ConditionalCheckFailedException,
  InternalServerError,
  ProvisionedThroughputExceededException,
  ThrottlingException,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { makeDeps } from '#shared/deps.ts';
import { httpHandler } from '#shared/http/handler.ts';
import type { RouteDef } from '#shared/http/route.ts';
import { conditionFailedAt, isTransactionCanceled } from '#shared/store/errors.ts';
import { aContext, anEvent } from '#test/support/events.ts';

/**
 * Which DynamoDB errors the handler answers 503 UNAVAILABLE (with
 * Retry-After, so that clients retry) rather than 500 INTERNAL, and that a
 * throttled transaction is never taken for a failed condition (a 409).
 */

const route: RouteDef = {
  operationId: 'failing',
  method: 'GET',
  path: '/failing',
  entry: 'functions/failing.ts',
  summary: 'test',
  tag: 'test',
  tenant: 'none',
  auth: 'none',
  status: 200,
  table: [],
};

const $metadata = { httpStatusCode: 400 };
const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: `Transaction cancelled [${codes.join(', ')}]`,
    $metadata,
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

async function answerTo(error: Error) {
  const deps = { ...makeDeps({ TABLE_NAME: 'unit-test' }), log: { info: () => {}, error: () => {} } };
  const handler = httpHandler(
    route,
    () => {
      throw error;
    },
    { deps: () => deps },
  );
  const result = (await handler(anEvent(), aContext())) as {
    statusCode: number;
    headers: Record<string, string>;
    body: string;
  };
  const body = JSON.parse(result.body) as { code: string };
  return { status: result.statusCode, code: body.code, retryAfter: result.headers['retry-after'] };
}

describe('httpHandler: DynamoDB overloaded or failing', () => {
  it.each([
    ['ProvisionedThroughputExceededException', new ProvisionedThroughputExceededException({ message: 'x', $metadata })],
    ['ThrottlingException', new ThrottlingException({ message: 'x', $metadata })],
    ['InternalServerError', new InternalServerError({ message: 'x', $metadata })],
    ['TransactionConflictException', new TransactionConflictException({ message: 'x', $metadata })],
    ['a transaction cancelled as throttled', cancelled('None', 'ThrottlingError')],
    ['a transaction cancelled for capacity', cancelled('ProvisionedThroughputExceeded', 'None')],
    ['a transaction cancelled by another in flight', cancelled('TransactionConflict', 'None')],
  ])('answers 503 UNAVAILABLE with Retry-After for %s', async (_name, error) => {
    expect(await answerTo(error)).toEqual({
      status: 503,
      code: 'UNAVAILABLE',
      retryAfter: expect.stringMatching(/^\d+$/),
    });
  });

  it.each([
    ['a transaction cancelled by a condition nobody handled', cancelled('ConditionalCheckFailed', 'None')],
    ['a single write whose condition nobody handled', new ConditionalCheckFailedException({ message: 'x', $metadata })],
  ])('answers 500 INTERNAL for %s: a bug, not an outage', async (_name, error) => {
    expect(await answerTo(error)).toMatchObject({ status: 500, code: 'INTERNAL' });
  });
});

describe('isTransactionCanceled', () => {
  it('is true for a cancellation by a condition or by another transaction', () => {
    expect(isTransactionCanceled(cancelled('ConditionalCheckFailed', 'None'))).toBe(true);
    expect(isTransactionCanceled(cancelled('None', 'TransactionConflict'))).toBe(true);
  });

  it('is false for a throttled transaction, so that it reaches the handler as a 503 and not as a conflict', () => {
    expect(isTransactionCanceled(cancelled('ThrottlingError', 'None'))).toBe(false);
    expect(isTransactionCanceled(cancelled('None', 'ProvisionedThroughputExceeded'))).toBe(false);
    expect(conditionFailedAt(cancelled('ThrottlingError', 'None'), 0)).toBe(false);
  });
});
