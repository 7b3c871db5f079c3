import { CfnOutput, CrossStackReferences, ReferenceStrength, Stack, type StackProps } from 'aws-cdk-lib';
import { type CfnRoute, type HttpApi, HttpRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import type { ITable, Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { plantCorsRoutes, plantRouteList } from '#functions/plants/routes.ts';
import { type RouteDef, routeKey } from '#shared/http/route.ts';
import { keys } from '#shared/store/keys.ts';
import { readIdentityConfig } from './config.ts';
import { refuseToDeployExample } from './example.ts';
import { addRouteFunctions, serviceApi } from './http-api.ts';
import { serviceTable } from './table.ts';

/** The partitions of the identity's ORIGIN index (`ORIGIN#<origin>`, shared/store/keys.ts), as an IAM pattern. */
export const ORIGIN_PARTITIONS = `${keys.originPartition('')}*`;

/**
 * `true` on the functions behind the JWT authorizer (the `plantsJwtIssuer` context): API Gateway has checked the
 * token, and the function takes its caller from the authorizer's claims (shared/plants/deps.ts).
 */
export const JWT_AUTHORIZER_VARIABLE = 'PLANTS_JWT_AUTHORIZER';

export interface PlantsStackProps extends StackProps {
  /**
   * The identity service's base URL, with `/api/v1` (the Identity stack's
   * `ApiUrl`): its public keys are at `/.well-known/jwks.json` under it, and it
   * is the tokens' issuer unless the `issuerUrl` context names another.
   */
  identityBaseUrl: string;
  /**
   * The identity's table (the Identity stack's): the plant store answers CORS for the origins
   * its tenants allow, read from its ORIGIN items, and may read nothing else of it.
   */
  identityTable: ITable;
  /** The routes to deploy; the plant route list unless a test passes another. */
  routes?: readonly RouteDef[];
}

/**
 * The plant store, a resource server of the identity service: its own HTTP
 * API (routes at the root, no base path), its own table and one function per
 * row of its route list (functions/plants/routes.ts). Its functions check the
 * identity's access tokens themselves (shared/tokens/resource-server.ts: an API
 * Gateway JWT authorizer cannot pin a per-tenant audience), so they get the
 * issuer and its JWKS URL, and no access to the identity's keys. Of the
 * identity's table, the CORS routes may Query the ORIGIN partitions only.
 *
 * The second mode (README, Plant store; the `plantsJwtIssuer` and `plantsJwtAudience` context): an API Gateway
 * JWT authorizer for one tenant's OpenID Provider sits in front of the token routes (`tenant: 'token'`:
 * POST /plants) and checks the RS256 access tokens of the listed clients before any function runs; those
 * functions then take the caller from the authorizer's verified claims.
 */
export class PlantsStack extends Stack {
  readonly api: HttpApi;
  readonly table: Table;

  constructor(scope: Construct, id: string, props: PlantsStackProps) {
    super(scope, id, props);
    // The identity's URL arrives by a strong reference (Export / Fn::ImportValue): CloudFormation
    // will not take the identity API away while the plant store still trusts it.
    CrossStackReferences.of(this).consume(ReferenceStrength.STRONG);
    // The same deployment settings as the identity's (cdk.json): removal policy, log retention, issuer.
    const config = readIdentityConfig(this.node);
    if (config.example) refuseToDeployExample(this);

    // The one table definition (shared/store/table.ts), as the local stack creates it too. Plants
    // use only pk/sk; the index stays empty (no plant has gsi1 keys) and costs nothing on demand.
    this.table = serviceTable(this, 'Table', config.removalPolicy);

    this.api = serviceApi(this, 'Api', {
      apiName: 'plants',
      throttle: config.apiThrottle.default,
      logRetention: config.logRetention,
      logRemovalPolicy: config.removalPolicy,
    });

    // CORS (shared/plants/cors.ts): which origins the identity's tenants allow is in the identity's table, one
    // ORIGIN#<origin> partition per origin. Least privilege: the CORS functions alone may Query those partitions
    // (dynamodb:LeadingKeys), on the table only (no index), and nothing else of the table: no user, secret or
    // tenant item. Asking the identity over HTTP instead would cost a round trip and a public endpoint.
    const readOrigins = new PolicyStatement({
      actions: ['dynamodb:Query'],
      resources: [props.identityTable.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [ORIGIN_PARTITIONS] } },
    });
    const corsRoutes = new Set(plantCorsRoutes);
    const routes = props.routes ?? plantRouteList;
    // The routes whose caller is a bearer token: the ones a JWT authorizer guards, when there is one.
    const tokenRoutes = routes.filter((route) => route.tenant === 'token');
    const jwt = config.plantsJwtAuthorizer;
    const behindAuthorizer = (route: RouteDef) => jwt !== undefined && route.tenant === 'token';

    addRouteFunctions(
      this,
      this.api,
      routes,
      {
        basePath: '',
        table: this.table,
        tableNameVariable: 'PLANTS_TABLE_NAME',
        serviceName: this.stackName,
        logRetention: config.logRetention,
        logRemovalPolicy: config.removalPolicy,
        tracing: config.tracing,
        environment: {
          ISSUER_URL: config.issuerUrl === '' ? props.identityBaseUrl : config.issuerUrl,
          JWKS_URL: `${props.identityBaseUrl}/.well-known/jwks.json`,
          PLANTS_URL: this.api.apiEndpoint,
        },
        extrasFor: (route) => {
          const cors = corsRoutes.has(route.operationId);
          if (!cors && !behindAuthorizer(route)) return undefined;
          return {
            environment: {
              ...(cors ? { TABLE_NAME: props.identityTable.tableName } : {}),
              ...(behindAuthorizer(route) ? { [JWT_AUTHORIZER_VARIABLE]: 'true' } : {}),
            },
            statements: cors ? [readOrigins] : [],
          };
        },
      },
      config.apiThrottle,
    );

    if (jwt) {
      // One authorizer (API Gateway reads `<issuer>/.well-known/openid-configuration` for its jwks_uri), on each
      // token route. The routes are made by addRouteFunctions, so the authorizer is bound to them here.
      const authorizer = new HttpJwtAuthorizer('JwtAuthorizer', jwt.issuer, {
        jwtAudience: jwt.audience,
        identitySource: ['$request.header.Authorization'],
      });
      for (const route of tokenRoutes) {
        const key = routeKey(route, '');
        const apiRoute = this.api.node.children.find(
          (child): child is HttpRoute =>
            child instanceof HttpRoute && (child.node.defaultChild as CfnRoute).routeKey === key,
        );
        if (!apiRoute) throw new Error(`No API route ${key} to put the JWT authorizer on`);
        const bound = authorizer.bind({ route: apiRoute, scope: this.api });
        const cfnRoute = apiRoute.node.defaultChild as CfnRoute;
        cfnRoute.authorizationType = bound.authorizationType;
        cfnRoute.authorizerId = bound.authorizerId;
      }
    }

    new CfnOutput(this, 'ApiUrl', { value: this.api.apiEndpoint, description: 'Plant store base URL' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
  }
}
