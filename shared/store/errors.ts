/**
 * DynamoDB's errors, read in one place. The rest of the code asks these
 * questions (was a condition false? was it throttled? did it only meet another
 * transaction?) and never reads an SDK error's name or cancellation reasons.
 */

/** The code of each item of a cancelled transaction, in item order (`None` for an item that was fine). */
export function cancellationCodes(error: unknown): string[] | null {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return null;
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.map((reason) => reason.Code ?? 'None');
}

/** True for a single write whose ConditionExpression did not hold (an expected "no", not a fault). */
export function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/**
 * Whether a conditional write took place: false when its condition failed (the answer a caller acts on: a used
 * code, a revoked key, a lost race), any other error thrown.
 */
export async function conditionalWrite(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** True for a transaction cancelled because one of its conditions failed, at the given item index if asked. */
export function conditionFailedAt(error: unknown, index?: number): boolean {
  const codes = cancellationCodes(error);
  if (!codes) return false;
  return index === undefined ? codes.includes('ConditionalCheckFailed') : codes[index] === 'ConditionalCheckFailed';
}

/** Cancellation reasons that mean DynamoDB was over capacity: nothing about the items. */
const THROTTLED_REASONS = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded']);

/**
 * True for a transaction cancelled by a condition, or by a conflict with
 * another transaction. Not for one DynamoDB throttled (it says so in the
 * cancellation reasons): that must reach the handler, which answers 503.
 */
export function isTransactionCanceled(error: unknown): boolean {
  const codes = cancellationCodes(error);
  return codes !== null && !codes.some((code) => THROTTLED_REASONS.has(code));
}

/** True when DynamoDB cancelled the transaction only because another one was in flight on its items. */
export function onlyConflicted(error: unknown): boolean {
  const codes = cancellationCodes(error) ?? [];
  return (
    codes.includes('TransactionConflict') && codes.every((code) => code === 'None' || code === 'TransactionConflict')
  );
}

/** True when another transaction in flight on one of its items was among the reasons of the cancellation. */
export function metAnotherTransaction(error: unknown): boolean {
  return cancellationCodes(error)?.includes('TransactionConflict') ?? false;
}

/** SDK errors that mean DynamoDB (or SES, KMS) is overloaded or down: trying again later is the cure. */
const UNAVAILABLE_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TooManyRequestsException',
  // A single write that met a transaction in flight on its item: retried as it is, it goes through.
  'TransactionConflictException',
]);

/** Why DynamoDB cancels a transaction when trying again is the cure: it was throttled, or met another transaction. */
const RETRYABLE_CANCELLATIONS = new Set([...THROTTLED_REASONS, 'TransactionConflict']);

/**
 * True for an error that says "try again later" (the handler answers 503 with
 * Retry-After): a throttled or failing AWS service, or a transaction DynamoDB
 * cancelled for capacity or a conflict rather than for a condition.
 */
export function isThrottled(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (UNAVAILABLE_ERRORS.has(error.name)) return true;
  return cancellationCodes(error)?.some((code) => RETRYABLE_CANCELLATIONS.has(code)) ?? false;
}
