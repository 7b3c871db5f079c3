import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { ensureTable, startDynamoDbLocal } from '#local/dynamodb.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    tableName: string;
    secretsKey: string;
  }
}

/** One in-memory DynamoDB Local per test project run; tests use fresh tenants and ids, never table-wide state. */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamoDbLocal();
  const tableName = 'identity-test';
  await ensureTable(dynamo.endpoint, tableName);
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('tableName', tableName);
  // One local secrets key per run: every worker must decrypt the signing keys the others stored.
  project.provide('secretsKey', randomBytes(32).toString('base64'));
  return () => dynamo.stop();
}
