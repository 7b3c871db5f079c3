import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface StoreConfig {
  tableName: string;
  /** DynamoDB Local's URL; absent on AWS. */
  endpoint?: string | undefined;
  region?: string | undefined;
}

export interface StoreClient {
  doc: DynamoDBDocumentClient;
  tableName: string;
  /**
   * The process's client, when this one is a view of it for one request
   * (store/read-ahead.ts): per-process caches key on the root, not the view.
   */
  root?: StoreClient;
}

/** The process's client behind a store (itself, unless it is a request's view). */
export function rootOf(store: StoreClient): StoreClient {
  return store.root ?? store;
}

export function createStoreClient(config: StoreConfig): StoreClient {
  const client = new DynamoDBClient({
    region: config.region ?? 'us-east-1',
    ...(config.endpoint
      ? // DynamoDB Local accepts any credentials; fixed ones keep a developer's real keys out of local runs.
        { endpoint: config.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
  // The SDK's logger middleware builds a redacted copy of every input and output for its logger, even the
  // default one that logs nothing: up to a fifth of the CPU of a large Query (bench/RESULTS.md, profiles).
  // We never log SDK calls (our own log says what failed), so it goes.
  client.middlewareStack.remove('loggerMiddleware');
  const doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
  return { doc, tableName: config.tableName };
}

/** True for a single write whose ConditionExpression did not hold (an expected "no", not a fault). */
export function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/** Cancellation reasons that mean DynamoDB was over capacity: nothing about the items, so not a conflict. */
const THROTTLED_REASONS = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded']);

/**
 * True for a transaction cancelled by a condition, or by a conflict with
 * another transaction. Not for one DynamoDB throttled (it says so in the
 * cancellation reasons): that must reach the handler, which answers 503.
 */
export function isTransactionCanceled(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return false;
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return !reasons.some((reason) => reason.Code !== undefined && THROTTLED_REASONS.has(reason.Code));
}

/** True for a transaction cancelled because one of its conditions failed, at the given item index if asked. */
export function conditionFailedAt(error: unknown, index?: number): boolean {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return false;
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  if (index === undefined) return reasons.some((r) => r.Code === 'ConditionalCheckFailed');
  return reasons[index]?.Code === 'ConditionalCheckFailed';
}
