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
}

export function createStoreClient(config: StoreConfig): StoreClient {
  const client = new DynamoDBClient({
    region: config.region ?? 'us-east-1',
    ...(config.endpoint
      ? // DynamoDB Local accepts any credentials; fixed ones keep a developer's real keys out of local runs.
        { endpoint: config.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
  const doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
  return { doc, tableName: config.tableName };
}

/** True for a single write whose ConditionExpression did not hold (an expected "no", not a fault). */
export function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/** True for a transaction cancelled for any reason (a condition, or a conflict with another transaction). */
export function isTransactionCanceled(error: unknown): boolean {
  return error instanceof Error && error.name === 'TransactionCanceledException';
}

/** True for a transaction cancelled because one of its conditions failed, at the given item index if asked. */
export function conditionFailedAt(error: unknown, index?: number): boolean {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return false;
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  if (index === undefined) return reasons.some((r) => r.Code === 'ConditionalCheckFailed');
  return reasons[index]?.Code === 'ConditionalCheckFailed';
}
