import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { type DynamoDbLocal, ensureTable, startDynamoDbLocal } from '#local/dynamodb.ts';

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
const shared = globalThis as { sharedDynamoDbLocal?: { started: Promise<DynamoDbLocal>; projects: number } };

/** Each project its own tables in it; tests use fresh tenants and ids, never table-wide state. */
export default async function setup(project: TestProject) {
  shared.sharedDynamoDbLocal ??= { started: startDynamoDbLocal(), projects: 0 };
  const run = shared.sharedDynamoDbLocal;
  run.projects++;
  const dynamo = await run.started;
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
