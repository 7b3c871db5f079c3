import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { BASE_PATH } from '#functions/routes.ts';
import { REPO_ROOT } from './http-api.ts';
import { IdentityStack } from './identity-stack.ts';
import { PlantsStack } from './plants-stack.ts';
import { WebStack } from './web-stack.ts';

// The hosted pages are built beforehand (cdk.json's `app` runs `npm run build:web`) and uploaded as they are;
// checked first, before any bundling.
const webDist = join(REPO_ROOT, 'web', 'dist');
if (!existsSync(join(webDist, 'index.html'))) {
  throw new Error(`${webDist}/index.html is missing: run \`npm run build:web\` first (the Web stack uploads web/dist)`);
}

const app = new App();

// Account and region come from the CLI profile at deploy time (environment-agnostic stacks).
const identity = new IdentityStack(app, 'Identity', {
  description: 'Multi-tenant identity service (HTTP API, Lambda, DynamoDB)',
});

// The plant store trusts the identity's tokens: it is told where the identity's keys are, and
// which table holds the origins its tenants allow (cross-stack references, so
// `cdk deploy Identity Plants` deploys them in that order).
new PlantsStack(app, 'Plants', {
  description: 'Plant store sample API, protected by the identity service tokens (HTTP API, Lambda, DynamoDB)',
  identityBaseUrl: `${identity.api.apiEndpoint}${BASE_PATH}`,
  identityTable: identity.table,
});

// The hosted pages, with the identity API under /api/* of the same origin (cross-stack references, so
// `cdk deploy Identity Web` deploys them in that order).
new WebStack(app, 'Web', {
  description: 'Identity service hosted pages (CloudFront, S3) and the identity API under /api/*',
  assetsPath: webDist,
  api: identity.api,
  edgeSecret: identity.edgeSecret,
});

app.synth();
