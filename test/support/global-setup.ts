import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import type { DynamoDbLocal } from '#local/dynamodb.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    tableName: string;
    secretsKey: string;
  }
}

/**
 * One in-memory DynamoDB Local for the whole run, started by the first project that needs it and stopped when the
 * last one is done. Each JVM spent some 20 s of CPU compiling DynamoDB Local's code before it ran fast, once per
 * project when each started its own. The projects' global setups run in vitest's own process, each with a module graph
 * of its own: what they share lives on globalThis.
 */
const shared = globalThis as {
  sharedDynamoDbLocal?: { started: Promise<RunDynamoDb>; projects: number };
};

interface RunDynamoDb {
  dynamo: DynamoDbLocal;
  ensureTable(endpoint: string, tableName: string): Promise<void>;
}

/**
 * Starts the run's DynamoDB Local. local/dynamodb.ts (and the SDK's DynamoDB client with it) is imported here, by the
 * first project only: every project's global setup loads this file in a module graph of its own, and the static
 * import cost each of them some 1.7 s before its setup began.
 */
async function startForRun(): Promise<RunDynamoDb> {
  const { ensureTable, startDynamoDbLocal } = await import('#local/dynamodb.ts');
  return { dynamo: await startDynamoDbLocal(), ensureTable };
}

/** Each project its own tables in it; tests use fresh tenants and ids, never table-wide state. */
export default async function setup(project: TestProject) {
  shared.sharedDynamoDbLocal ??= { started: startForRun(), projects: 0 };
  const run = shared.sharedDynamoDbLocal;
  run.projects++;
  const { dynamo, ensureTable } = await run.started;
  const tableName = `identity-test-${project.name}`;
  await ensureTable(dynamo.endpoint, tableName);
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('tableName', tableName);
  // One local secrets key per project: every worker must decrypt the signing keys the others stored.
  project.provide('secretsKey', randomBytes(32).toString('base64'));
  return async () => {
    run.projects--;
    if (run.projects > 0) return;
    shared.sharedDynamoDbLocal = undefined;
    await dynamo.stop();
  };
}
