import { inject } from 'vitest';
import { type Deps, makeDeps } from '#shared/deps.ts';

/**
 * argon2id at the cheapest cost argon2 takes well (about 1.5 ms a hash, against production's 140): every password the
 * tests hash or check, through the deps and the local stack. Production's cost is held by its own tests
 * (test/unit/shared/auth/passwords.test.ts, test/infra/identity-stack.test.ts).
 */
export const TEST_ARGON2_PARAMS = 'm=1024,t=1,p=1';

/** Deps against the test run's DynamoDB Local (integration and http projects). */
export function makeTestDeps(overrides: Partial<Deps> = {}): Deps {
  const deps = makeDeps({
    TABLE_NAME: inject('tableName'),
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    AWS_REGION: 'us-east-1',
    ISSUER_URL: 'http://localhost:3000/api/v1',
    LOCAL_SECRETS_KEY: inject('secretsKey'),
    AUTH_ANSWER_FLOOR_MS: '0',
    ARGON2_PARAMS: TEST_ARGON2_PARAMS,
    // Every request reads its tenant, so that a setting a test changes applies to its next call.
    TENANT_CACHE_SECONDS: '0',
  });
  return { ...deps, ...overrides };
}
