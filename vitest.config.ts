import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The SDK's Node 20 notice would print in every worker and in the global setup.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/** Unit test files that stub process.env for the handlers they run: each gets a module graph of its own. */
const UNIT_FILES_SETTING_ENV = ['test/unit/local/gateway.test.ts', 'test/unit/functions/openapi-document.test.ts'];

/**
 * Integration test files that mock a module (node:crypto) or set process.env for handlers: each gets a module graph of
 * its own. The fault injection hands each handler its deps on the Lambda context instead (test/support/faults.ts).
 */
const INTEGRATION_FILES_ISOLATED = [
  'test/integration/http/bundled-sdk.test.ts',
  'test/integration/merchants/api-key-auth.test.ts',
  'test/integration/store/direct-read.test.ts',
];

/**
 * The http files that set process.env for the stack's metrics and log lines, read once per process (Powertools'
 * metrics, shared/http/request-metrics.ts): each gets a module graph of its own.
 */
const HTTP_FILES_ISOLATED = ['test/http/security/metrics.test.ts', 'test/http/security/secrets.test.ts'];

/** The http, client and web projects' checks of every answer and every DynamoDB call (test/support/). */
const ANSWER_AND_GRANT_CHECKS = ['./test/support/check-answers.ts', './test/support/check-grants.ts'];

/**
 * Six projects, split by layer (STYLE.md, Testing pyramid):
 * unit (no network; unit-env for its files that set process.env), integration (DynamoDB Local), http (the local gateway on
 * an ephemeral port, DynamoDB Local and the SES emulator), infra (CDK assertions),
 * client (the client SDK in client/: built first, then driven by a fake fetch,
 * against the local stack and in headless Chromium), web (the hosted pages in
 * Chromium, journey by journey).
 */
export default defineConfig({
  test: {
    // A worker per core, not vitest's default of one fewer: the workers wait on DynamoDB Local's JVM and on Chromium,
    // which run beside them (one worker left a 2-core machine about half idle).
    maxWorkers: availableParallelism(),
    reporters: ['default', './test/support/summary-reporter.ts'],
    // LOG_LEVEL: each request's line (its summary and its metrics) and other info lines would flood the run's output.
    env: {
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      CDK_DISABLE_CLI_TELEMETRY: 'true',
      LOG_LEVEL: 'error',
    },
    projects: [
      // No module mocks: the files share one module graph per worker (isolate: false), but those that set
      // process.env for handlers, which keep the first environment they see (shared/deps.ts, processDeps).
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: UNIT_FILES_SETTING_ENV, isolate: false },
      },
      { extends: true, test: { name: 'unit-env', include: UNIT_FILES_SETTING_ENV } },
      // The files that mock no module and set no process.env share one module graph per worker; the others, each its
      // own (integration-isolated). Each project has tables of its own in the run's one DynamoDB Local.
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: INTEGRATION_FILES_ISOLATED,
          globalSetup: ['./test/support/global-setup.ts'],
          testTimeout: 20_000,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration-isolated',
          include: INTEGRATION_FILES_ISOLATED,
          globalSetup: ['./test/support/global-setup.ts'],
          testTimeout: 20_000,
        },
      },
      // The local stack hands its functions deps built from its own settings (local/stack.ts), so the files of the
      // http, client and web projects share one module graph per worker, each file with its own stack.
      {
        extends: true,
        test: {
          name: 'http',
          include: ['test/http/**/*.test.ts'],
          exclude: HTTP_FILES_ISOLATED,
          globalSetup: ['./test/support/global-setup.ts'],
          // Every answer of the local stack is checked against the OpenAPI documents, and every DynamoDB call
          // of a route against the IAM grant of its row.
          setupFiles: ANSWER_AND_GRANT_CHECKS,
          testTimeout: 20_000,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'http-isolated',
          include: HTTP_FILES_ISOLATED,
          globalSetup: ['./test/support/global-setup.ts'],
          setupFiles: ANSWER_AND_GRANT_CHECKS,
          testTimeout: 20_000,
        },
      },
      // CDK assertions only (no mocks, no process.env): one module graph per worker, aws-cdk-lib imported once.
      {
        extends: true,
        test: { name: 'infra', include: ['test/infra/**/*.test.ts'], testTimeout: 60_000, isolate: false },
      },
      {
        extends: true,
        test: {
          // The client SDK: unit tests with a fake fetch, its build, the SDK against the local stack, and Chromium.
          name: 'client',
          include: ['test/client/**/*.test.ts'],
          globalSetup: ['./test/support/global-setup.ts', './test/client/support/build-client.ts'],
          setupFiles: ANSWER_AND_GRANT_CHECKS,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // The hosted pages (web/): built first, then driven in Chromium through the journeys a user takes.
          name: 'web',
          include: ['test/web/**/*.test.ts'],
          globalSetup: ['./test/support/global-setup.ts', './test/web/support/build-web.ts'],
          setupFiles: ANSWER_AND_GRANT_CHECKS,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          isolate: false,
        },
      },
    ],
  },
});
