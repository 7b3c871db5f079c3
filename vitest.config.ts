import { defineConfig } from 'vitest/config';

// The SDK's Node 20 notice would print in every worker and in the global setup.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/**
 * Four projects, split by layer (STYLE.md, Testing pyramid):
 * unit (no network), integration (DynamoDB Local), http (the local gateway on
 * an ephemeral port, DynamoDB Local and the SES emulator), infra (CDK assertions).
 */
export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', CDK_DISABLE_CLI_TELEMETRY: 'true' },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['./test/support/global-setup.ts'],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'http',
          include: ['test/http/**/*.test.ts'],
          globalSetup: ['./test/support/global-setup.ts'],
          testTimeout: 20_000,
        },
      },
      { extends: true, test: { name: 'infra', include: ['test/infra/**/*.test.ts'], testTimeout: 60_000 } },
    ],
  },
});
