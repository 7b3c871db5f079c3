import { App } from 'aws-cdk-lib';
import { BASE_PATH } from '#functions/routes.ts';
import { IdentityStack } from './identity-stack.ts';
import { PlantsStack } from './plants-stack.ts';

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

app.synth();
