import { inject } from 'vitest';
import { type Deps, makeDeps } from '#shared/deps.ts';

/** Deps against the test run's DynamoDB Local (integration and http projects). */
export function makeTestDeps(overrides: Partial<Deps> = {}): Deps {
  const deps = makeDeps({
    TABLE_NAME: inject('tableName'),
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    AWS_REGION: 'us-east-1',
    ISSUER_URL: 'http://localhost:3000/api/v1',
    LOCAL_SECRETS_KEY: inject('secretsKey'),
    AUTH_CODE_RESPONSE_FLOOR_MS: '20',
  });
  return { ...deps, ...overrides };
}
