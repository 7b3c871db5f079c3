import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DirectBatchGet } from './direct-read.ts';
import type { Prefetched } from './prefetch.ts';

export interface StoreConfig {
  tableName: string;
  /** DynamoDB Local's URL; absent on AWS. */
  endpoint?: string | undefined;
  region?: string | undefined;
}

export interface StoreClient {
  doc: DynamoDBDocumentClient;
  tableName: string;
  /** What this request prefetched with its tenant (store/prefetch.ts): it answers getItem first. */
  prefetched?: Prefetched;
  /**
   * The process's client, when this one is a request's view of it (with
   * `prefetched`): per-process caches key on the root, not the view.
   */
  root?: StoreClient;
  /** The hot read without the client's per-call machinery, where the route opted in (store/direct-read.ts). */
  directBatchGet?: DirectBatchGet;
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
