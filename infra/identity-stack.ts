import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { BASE_PATH, identityRouteList } from '#functions/routes.ts';
import type { RouteDef } from '#shared/http/route.ts';
import { readIdentityConfig } from './config.ts';
import { addRouteFunctions, serviceApi, sesIdentityArnsFor } from './http-api.ts';
import { Monitoring } from './monitoring.ts';
import { acknowledgeEdgeSecretFindings } from './nag.ts';
import { serviceTable } from './table.ts';

export interface IdentityStackProps extends StackProps {
  /** The routes to deploy; the identity route list unless a test passes another. */
  routes?: readonly RouteDef[];
}

/** The origin of a tenant's hosted pages, `{subdomain}` standing for its subdomain. */
export function hostedPagesOrigin(webDomain: string): string {
  return `https://{subdomain}.${webDomain}`;
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
  /** What CloudFront sends to the API (EDGE_SECRET_HEADER, infra/web-stack.ts), so its viewer address is trusted. */
  readonly edgeSecret: Secret;

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

    // Behind CloudFront (infra/web-stack.ts) API Gateway's sourceIp is an edge server's, which would put every
    // viewer in one per-IP rate limit. CloudFront sends this secret (header `x-identity-edge-secret`) with its
    // `cloudfront-viewer-address`, and the functions trust that address only when the secret matches. Both
    // stacks read it by a CloudFormation dynamic reference (no value in a template); it is resolved into the
    // functions' environment, where anyone who may read the functions' settings could see it. That is
    // acceptable for this secret: holding it only lets a caller name its own client IP (choose its rate-limit
    // bucket), as a caller reaching the API directly from many addresses can anyway; it grants no data.
    // No rotation: a dynamic reference is resolved at deploy time only, so a rotated value would reach neither.
    this.edgeSecret = new Secret(this, 'EdgeSecret', {
      description:
        'Identity service: the header CloudFront adds to API requests so that the functions trust its viewer address',
      generateSecretString: { excludePunctuation: true, passwordLength: 48 },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    acknowledgeEdgeSecretFindings(this.edgeSecret);

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

    const functions = addRouteFunctions(this, this.api, props.routes ?? identityRouteList, {
      basePath: BASE_PATH,
      table: this.table,
      logRetention: config.logRetention,
      tracing: config.tracing,
      sesIdentityArns: sesIdentityArnsFor(this, config.senderEmail),
      kmsKey: this.secretsKey,
      argon2ReservedConcurrency: config.argon2ReservedConcurrency,
      environment: {
        ISSUER_URL: config.issuerUrl === '' ? apiBaseUrl : config.issuerUrl,
        SENDER_EMAIL: config.senderEmail,
        AUTH_RATE_LIMIT_PER_MINUTE: config.authRateLimitPerMinute,
        MAIL_DAILY_BUDGET_PER_TENANT: config.mailDailyBudgetPerTenant,
        EDGE_SECRET: this.edgeSecret.secretValue.unsafeUnwrap(),
        // The hosted pages' origin of every tenant, `{subdomain}` its placeholder (infra/web-stack.ts).
        ...(config.web && { HOSTED_PAGES_ORIGIN: hostedPagesOrigin(config.web.domain) }),
      },
    });

    // Alarms (to one SNS topic) and the dashboard: README, Operations.
    new Monitoring(this, 'Monitoring', {
      functions,
      table: this.table,
      api: this.api,
      alarmEmail: config.alarmEmail,
      thresholds: config.alarmThresholds,
    });

    new CfnOutput(this, 'ApiUrl', { value: apiBaseUrl, description: 'Identity base URL (with /api/v1)' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'KmsKeyId', {
      value: this.secretsKey.keyArn,
      description: 'The secrets key: KMS_KEY_ID for `npm run keys` against this deployment',
    });
  }
}
