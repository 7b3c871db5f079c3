import { CfnOutput, CrossStackReferences, ReferenceStrength, Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ITable, Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { plantCorsRoutes, plantRouteList } from '#functions/plants/routes.ts';
import type { RouteDef } from '#shared/http/route.ts';
import { keys } from '#shared/store/keys.ts';
import { readIdentityConfig } from './config.ts';
import { addRouteFunctions, serviceApi } from './http-api.ts';
import { serviceTable } from './table.ts';

/** The partitions of the identity's ORIGIN index (`ORIGIN#<origin>`, shared/store/keys.ts), as an IAM pattern. */
export const ORIGIN_PARTITIONS = `${keys.originPartition('')}*`;

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
 * identity's access tokens themselves (shared/auth/resource-server.ts: an API
 * Gateway JWT authorizer cannot pin a per-tenant audience), so they get the
 * issuer and its JWKS URL, and no access to the identity's keys. Of the
 * identity's table, the CORS routes may Query the ORIGIN partitions only.
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

    // The one table definition (shared/store/table.ts), as the local stack creates it too. Plants
    // use only pk/sk; the index stays empty (no plant has gsi1 keys) and costs nothing on demand.
    // The one table definition; plants use only pk/sk, so the index stays empty and costs nothing on demand.
    this.table = serviceTable(this, 'Table', config.removalPolicy);

    this.api = serviceApi(this, 'Api', {
      apiName: 'plants',
      throttle: config.apiThrottle,
      logRetention: config.logRetention,
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

    addRouteFunctions(this, this.api, props.routes ?? plantRouteList, {
      basePath: '',
      table: this.table,
      tableNameVariable: 'PLANTS_TABLE_NAME',
      logRetention: config.logRetention,
      environment: {
        ISSUER_URL: config.issuerUrl === '' ? props.identityBaseUrl : config.issuerUrl,
        JWKS_URL: `${props.identityBaseUrl}/.well-known/jwks.json`,
        PLANTS_URL: this.api.apiEndpoint,
      },
      extrasFor: (route) =>
        corsRoutes.has(route.operationId)
          ? { environment: { TABLE_NAME: props.identityTable.tableName }, statements: [readOrigins] }
          : undefined,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.apiEndpoint, description: 'Plant store base URL' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
  }
}
