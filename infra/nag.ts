import { Validations } from 'aws-cdk-lib';
import type { HttpRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RouteDef } from '#shared/http/route.ts';

/**
 * The cdk-nag (AwsSolutions) findings we accept, each acknowledged on the one construct it is
 * about (a route, a function), never on a stack, with its reason. README (Security) lists
 * them; test/infra/cdk-nag.test.ts fails on any finding not acknowledged here, and on an
 * acknowledgment without a README row.
 */
export const NAG_REASONS = {
  /** APIG4 on a route anyone may call: the contract makes it public. */
  publicRoute:
    'Public by the contract (CONTRACT.md): no caller identity to check at the gateway; the handler checks the tenant headers, Origin and rate limits.',
  /** APIG4 on a bearer or admin route: the handler authorizes. */
  handlerAuthorizes:
    "Authorization runs in the handler by design (README): a JWT authorizer pins aud to a fixed list, but a token's aud is its tenant's app, and it could not see a revoked session, current role grants or API keys.",
  /** L1 on every function. */
  pinnedRuntime:
    'nodejs22.x is pinned on purpose: bundles target node22 and use the AWS SDK v3 that runtime ships (bench/RESULTS.md measured it); a runtime upgrade is a change of its own, not a side effect of a CDK upgrade (NODEJS_LATEST).',
} as const;

/** The findings of one route's constructs that we accept (NAG_REASONS). */
export function acknowledgeRouteFindings({
  route,
  fn,
  apiRoutes,
}: {
  route: RouteDef;
  fn: NodejsFunction;
  apiRoutes: readonly HttpRoute[];
}): void {
  for (const apiRoute of apiRoutes) {
    Validations.of(apiRoute).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: route.auth === 'none' ? NAG_REASONS.publicRoute : NAG_REASONS.handlerAuthorizes,
    });
  }
  Validations.of(fn).acknowledge({ id: 'AwsSolutions-L1', reason: NAG_REASONS.pinnedRuntime });
}
