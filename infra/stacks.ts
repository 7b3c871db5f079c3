import type { App } from 'aws-cdk-lib';
import type { RouteDef } from '#shared/http/route.ts';
import { readIdentityConfig } from './config.ts';
import { FirewallStack } from './firewall-stack.ts';
import { IdentityStack } from './identity-stack.ts';
import { PlantsStack } from './plants-stack.ts';
import { WebStack } from './web-stack.ts';

/**
 * The stacks of a deployment, wired together: what `cdk deploy --all` deploys (infra/app.ts) and what the
 * infra tests synthesise, so that the two cannot differ. `routes` replaces the identity route list (tests only).
 */
export function addStacks(app: App, options: { webAssetsPath: string; identityRoutes?: readonly RouteDef[] }) {
  // Account and region come from the CLI profile at deploy time (environment-agnostic stacks), but for the web ACL's.
  const identity = new IdentityStack(app, 'Identity', {
    description: 'Multi-tenant identity service (HTTP API, Lambda, DynamoDB)',
    ...(options.identityRoutes && { routes: options.identityRoutes }),
  });

  // The plant store trusts the identity's tokens: it is told where the identity's keys are, and
  // which table holds the origins its tenants allow (cross-stack references, so
  // `cdk deploy --all` deploys Identity first).
  const plants = new PlantsStack(app, 'Plants', {
    description: 'Plant store sample API, protected by the identity service tokens (HTTP API, Lambda, DynamoDB)',
    identityBaseUrl: identity.baseUrl,
    identityTable: identity.table,
  });

  // With the context waf: on, the distribution's web ACL, in us-east-1 whatever the deployment's Region
  // (infra/firewall-stack.ts); deployed before the Web stack, which reads its ARN.
  const firewall = readIdentityConfig(app.node).waf
    ? new FirewallStack(app, 'Firewall', {
        description: 'Identity service: the web ACL of the hosted pages distribution (AWS WAF, us-east-1)',
      })
    : undefined;

  // The hosted pages, with the identity API under /api/* of the same origin (cross-stack references, so
  // `cdk deploy --all` deploys Identity first).
  const web = new WebStack(app, 'Web', {
    description: 'Identity service hosted pages (CloudFront, S3) and the identity API under /api/*',
    assetsPath: options.webAssetsPath,
    apiHost: identity.apiHost,
    edgeSecret: identity.edgeSecret,
    firewall,
  });
  return { identity, plants, web, firewall };
}
