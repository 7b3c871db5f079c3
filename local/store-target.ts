import { resolve } from 'node:path';
import { type DynamoDbLocal, ensureTable, isDynamoDbUp, startDynamoDbLocal } from './dynamodb.ts';
import { localSecretsKey } from './secrets-key.ts';
import { LOCAL_TABLE_NAME, REPO_ROOT } from './stack.ts';

export interface StoreTarget {
  /** The environment to build deps from (`makeDeps(env)`). */
  env: Record<string, string | undefined>;
  /** True for a deployed table (`TABLE_NAME` without `DYNAMODB_ENDPOINT`). */
  deployed: boolean;
  /** Stops the DynamoDB Local this target started, if any. */
  stop(): Promise<void>;
}

/**
 * Where an operator CLI works. By default the local store: the running local
 * stack's DynamoDB Local, or one started on the same data folder (`.data/`,
 * or IDENTITY_DATA_DIR) for the time of the command, with the local secrets
 * key kept beside that data. With `TABLE_NAME` set and no `DYNAMODB_ENDPOINT`:
 * that deployed table, with the usual AWS credentials (and `KMS_KEY_ID` for secrets).
 */
export async function storeTarget(processEnv: Record<string, string | undefined> = process.env): Promise<StoreTarget> {
  const env = { ...processEnv };
  if (env.TABLE_NAME && !env.DYNAMODB_ENDPOINT) return { env, deployed: true, stop: async () => undefined };

  const dataDir = resolve(REPO_ROOT, env.IDENTITY_DATA_DIR ?? '.data');
  env.TABLE_NAME ||= LOCAL_TABLE_NAME;
  env.DYNAMODB_ENDPOINT ||= `http://127.0.0.1:${env.DYNAMODB_PORT ?? 8000}`;
  // The key `npm start` keeps in the data folder; an explicit LOCAL_SECRETS_KEY wins (tests, in-memory stacks).
  env.LOCAL_SECRETS_KEY ||= localSecretsKey(dataDir);
  let own: DynamoDbLocal | undefined;
  if (!(await isDynamoDbUp(env.DYNAMODB_ENDPOINT))) {
    own = await startDynamoDbLocal({ dataDir });
    env.DYNAMODB_ENDPOINT = own.endpoint;
  }
  try {
    await ensureTable(env.DYNAMODB_ENDPOINT, env.TABLE_NAME);
  } catch (error) {
    await own?.stop();
    throw error;
  }
  return { env, deployed: false, stop: async () => own?.stop() };
}
