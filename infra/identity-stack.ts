import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import { BASE_PATH, identityRouteList } from '#functions/routes.ts';
import type { RouteDef } from '#shared/http/route.ts';
import { readIdentityConfig } from './config.ts';
import { addRouteFunctions, serviceApi, sesIdentityArnsFor } from './http-api.ts';
import { serviceTable } from './table.ts';

export interface IdentityStackProps extends StackProps {
  /** The routes to deploy; the identity route list unless a test passes another. */
  routes?: readonly RouteDef[];
}

/**
 * The identity service: one DynamoDB table (shared/store/table.ts), one HTTP API
 * and one function per row of the route list (functions/routes.ts).
 * Settings come from CDK context (infra/config.ts, cdk.json).
 */
export class IdentityStack extends Stack {
  readonly api: HttpApi;
  readonly table: Table;
  readonly secretsKey: Key;

  constructor(scope: Construct, id: string, props: IdentityStackProps = {}) {
    super(scope, id, props);
    const config = readIdentityConfig(this.node);

    this.table = serviceTable(this, 'Table', config.removalPolicy);

    // Encrypts the secrets the service must read back (token-signing private keys, TOTP
    // secrets). Symmetric, so the key material never leaves KMS; yearly automatic rotation
    // keeps old ciphertexts decrypting. It goes with the table: destroying the key
    // while the table is retained would make its secrets unreadable.
    this.secretsKey = new Key(this, 'SecretsKey', {
      description: 'Identity service: encrypts token-signing keys and TOTP secrets',
      alias: `alias/${this.stackName}/secrets`,
      enableKeyRotation: true,
      removalPolicy: config.removalPolicy,
    });

    // No corsPreflight: the route list has its own OPTIONS /{proxy+} route that answers
    // CORS per tenant (an API-wide allow-list could not know the tenants' origins).
    this.api = serviceApi(this, 'Api', {
      apiName: 'identity',
      throttle: config.apiThrottle,
      logRetention: config.logRetention,
    });

    // The base path /api/v1 (CONTRACT.md) cannot be a stage name (HTTP API stage names
    // allow no '/'), so every route is prefixed with BASE_PATH on the $default stage:
    // GET /health in the list becomes the route key `GET /api/v1/health`.
    const apiBaseUrl = `${this.api.apiEndpoint}${BASE_PATH}`;

    addRouteFunctions(this, this.api, props.routes ?? identityRouteList, {
      basePath: BASE_PATH,
      table: this.table,
      logRetention: config.logRetention,
      sesIdentityArns: sesIdentityArnsFor(this, config.senderEmail),
      kmsKey: this.secretsKey,
      argon2ReservedConcurrency: config.argon2ReservedConcurrency,
      environment: {
        ISSUER_URL: config.issuerUrl === '' ? apiBaseUrl : config.issuerUrl,
        SENDER_EMAIL: config.senderEmail,
        AUTH_RATE_LIMIT_PER_MINUTE: config.authRateLimitPerMinute,
        MAIL_DAILY_BUDGET_PER_TENANT: config.mailDailyBudgetPerTenant,
      },
    });

    new CfnOutput(this, 'ApiUrl', { value: apiBaseUrl, description: 'Identity base URL (with /api/v1)' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'KmsKeyId', {
      value: this.secretsKey.keyArn,
      description: 'The secrets key: KMS_KEY_ID for `npm run keys` against this deployment',
    });
  }
}
