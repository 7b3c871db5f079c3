import type { TestProject } from 'vitest/node';
import { ensureTable, startDynamoDbLocal } from '#local/dynamodb.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    tableName: string;
  }
}

/** One in-memory DynamoDB Local per test project run; tests use fresh tenants and ids, never table-wide state. */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamoDbLocal();
  const tableName = 'identity-test';
  await ensureTable(dynamo.endpoint, tableName);
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('tableName', tableName);
  return () => dynamo.stop();
}
