import { App } from 'aws-cdk-lib';
import { IdentityStack } from './identity-stack.ts';

const app = new App();

// Account and region come from the CLI profile at deploy time (environment-agnostic stack).
new IdentityStack(app, 'Identity', { description: 'Multi-tenant identity service (HTTP API, Lambda, DynamoDB)' });

// A PlantsStack (infra/plants-stack.ts, the plant store sample API) is added in a later issue;
// it reuses addRouteFunctions from infra/http-api.ts with its own route list and table.

app.synth();
