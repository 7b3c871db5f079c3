import { CfnOutput, CrossStackReferences, ReferenceStrength, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { plantRouteList } from '#functions/plants/routes.ts';
import type { RouteDef } from '#shared/http/route.ts';
import { readIdentityConfig } from './config.ts';
import { addRouteFunctions } from './http-api.ts';
import { serviceTable } from './table.ts';

export interface PlantsStackProps extends StackProps {
  /**
   * The identity service's base URL, with `/api/v1` (the Identity stack's
   * `ApiUrl`): its public keys are at `/.well-known/jwks.json` under it, and it
   * is the tokens' issuer unless the `issuerUrl` context names another.
   */
  identityBaseUrl: string;
  /** The routes to deploy; the plant route list unless a test passes another. */
  routes?: readonly RouteDef[];
}

/**
 * The plant store, a resource server of the identity service: its own HTTP
 * API (routes at the root, no base path), its own table and one function per
 * row of its route list (functions/plants/routes.ts). Its functions check the
 * identity's access tokens themselves (shared/auth/resource-server.ts: an API
 * Gateway JWT authorizer cannot pin a per-tenant audience), so they get the
 * issuer and its JWKS URL, and no access to the identity's table or keys.
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

    this.api = new HttpApi(this, 'Api', { apiName: 'plants', createDefaultStage: true });

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
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.apiEndpoint, description: 'Plant store base URL' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
  }
}
