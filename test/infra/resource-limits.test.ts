import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { BASE_PATH } from '#functions/routes.ts';
import { IdentityStack } from '#infra/identity-stack.ts';
import { PlantsStack } from '#infra/plants-stack.ts';
import { WebStack } from '#infra/web-stack.ts';

/**
 * CloudFormation refuses a template of more than 500 resources, and every
 * route adds six (function, role with its policy inline, log group,
 * integration, route, invoke permission). Our rule keeps
 * 50 in hand, so that a stack is split (per area) before a deployment fails.
 */
const MAX_RESOURCES = 450;

const cdkContext: Record<string, unknown> = JSON.parse(
  readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8'),
).context;

// The three stacks in one app, wired as infra/app.ts wires them; an empty bundling-stacks list skips esbuild.
const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [] } });
const identity = new IdentityStack(app, 'Identity');
const plants = new PlantsStack(app, 'Plants', {
  identityBaseUrl: `${identity.api.apiEndpoint}${BASE_PATH}`,
  identityTable: identity.table,
});
const web = new WebStack(app, 'Web', {
  assetsPath: fileURLToPath(new URL('./fixtures/web-dist', import.meta.url)),
  api: identity.api,
  edgeSecret: identity.edgeSecret,
});

const resourceCount = (stack: Stack) => Object.keys(Template.fromStack(stack).toJSON().Resources ?? {}).length;

// Counted up front so that the test names report them.
const counts = [
  ['Identity', resourceCount(identity)],
  ['Plants', resourceCount(plants)],
  ['Web', resourceCount(web)],
] as const;

describe('the CloudFormation resource limit', () => {
  it.each(counts)(`%s has %i resources: at most ${MAX_RESOURCES} (CloudFormation allows 500)`, (_, count) => {
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(MAX_RESOURCES);
  });
});
