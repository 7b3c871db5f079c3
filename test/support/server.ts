import { afterAll, beforeAll, inject } from 'vitest';
import { type LocalStack, type LocalStackOptions, startLocalStack } from '#local/stack.ts';
import { type CreatedTenant, createTenant } from '#shared/tenancy/create-tenant.ts';
import { watchAnswers } from './answer-recorder.ts';
import { makeTestDeps, TEST_ARGON2_PARAMS } from './deps.ts';

/**
 * The local stack (gateway on an ephemeral port, the plant store's on
 * another, the SES emulator, the test run's DynamoDB Local) for the black-box
 * HTTP tests of one file.
 */
export function useLocalStack(
  options: {
    authRateLimitPerMinute?: number;
    answerFloorMs?: number;
    mailDailyBudgetPerTenant?: number;
    signupMailDailyBudgetPerTenant?: number;
    signupsPerIpPerHour?: number;
    webDist?: string;
    /** The plant store behind the emulated JWT authorizer (LocalStackOptions.plantsJwtAuthorizer). */
    plantsJwtAuthorizer?: LocalStackOptions['plantsJwtAuthorizer'];
    /** Fake providers standing in for a kind's real one, read when the stack starts (after the fakes' own beforeAll). */
    signInProviderEndpoints?: () => Record<string, string>;
    /** TENANT_CACHE_SECONDS: 0 unless a test of the tenant cache sets it (a settings change then applies at once). */
    tenantCacheSeconds?: number;
    /** Webhooks delivered (LocalStackOptions.webhooks), on a table of the file's own: its stream reads no other file's writes. */
    webhooks?: { timeScale?: number };
  } = {},
): {
  readonly url: string;
  /** The plant store's base URL. */
  readonly plantsUrl: string;
  readonly stack: LocalStack;
} {
  let stack: LocalStack | undefined;
  beforeAll(async () => {
    stack = await startLocalStack({
      port: 0,
      plantsPort: 0,
      sesPort: 0,
      dynamoEndpoint: inject('dynamoEndpoint'),
      tableName: options.webhooks ? `${inject('tableName')}-webhooks-${++webhookTables}` : inject('tableName'),
      plantsTableName: `${inject('tableName')}-plants`,
      secretsKey: inject('secretsKey'),
      // High by default so that busy test files are not rate limited; the rate-limit test sets its own.
      authRateLimitPerMinute: options.authRateLimitPerMinute ?? 10_000,
      // None by default, so that refused logins and sign-ups do not wait; the floor's own test sets a real one.
      answerFloorMs: options.answerFloorMs ?? 0,
      // The deployment's default unless a test of the budget sets a small one (each test file makes its own tenants).
      mailDailyBudgetPerTenant: options.mailDailyBudgetPerTenant ?? 10_000,
      signupMailDailyBudgetPerTenant: options.signupMailDailyBudgetPerTenant ?? 10_000,
      // High by default, as the per-minute limit: the test of the hourly signup limit sets the deployment's 20.
      signupsPerIpPerHour: options.signupsPerIpPerHour ?? 10_000,
      // No copies of tenants by default: a test that changes a setting expects its next request to see it.
      tenantCacheSeconds: options.tenantCacheSeconds ?? 0,
      webDist: options.webDist,
      plantsJwtAuthorizer: options.plantsJwtAuthorizer,
      argon2Params: TEST_ARGON2_PARAMS,
      signInProviderEndpoints: options.signInProviderEndpoints?.(),
      webhooks: options.webhooks,
    });
    // Where the http and client projects' setup file checks answers against the OpenAPI documents.
    watchAnswers('identity', stack.apiUrl);
    if (stack.plantsUrl) watchAnswers('plants', stack.plantsUrl);
  });
  afterAll(() => stack?.stop());
  return {
    get url() {
      if (!stack) throw new Error('the local stack is not started yet');
      return stack.apiUrl;
    },
    get plantsUrl() {
      if (!stack?.plantsUrl) throw new Error('the local stack is not started yet');
      return stack.plantsUrl;
    },
    get stack() {
      if (!stack) throw new Error('the local stack is not started yet');
      return stack;
    },
  };
}

let counter = 0;
let webhookTables = 0;

/** A fresh tenant in the test table, as the operator CLI would make it. */
export function aTenant(options: { origins?: string[]; name?: string } = {}): Promise<CreatedTenant> {
  counter++;
  return createTenant(makeTestDeps(), {
    name: options.name ?? `Shop ${counter}`,
    adminEmail: `admin${counter}@shop.test`,
    origins: options.origins ?? ['https://shop.example'],
    subdomain: `shop-${process.pid}-${Date.now().toString(36)}-${counter}`,
  });
}
