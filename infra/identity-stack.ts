import { Annotations, CfnOutput, NestedStack, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { ApiMapping, DomainName, type HttpApi, type HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { type ITable, Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { type CfnKey, type IKey, Key } from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { BASE_PATH, identityRouteList } from '#functions/routes.ts';
import type { RouteDef } from '#shared/http/route.ts';
import { TABLE } from '#shared/store/table.ts';
import { readIdentityConfig } from './config.ts';
import { refuseToDeployExample } from './example.ts';
import {
  apiRouteTo,
  checkRouteKeys,
  type RouteFunctionOptions,
  routeFunction,
  serviceApi,
  throttleRoutes,
} from './http-api.ts';
import { Mail } from './mail.ts';
import { Monitoring } from './monitoring.ts';
import { acknowledgeEdgeSecretFindings, acknowledgeRouteFindings, acknowledgeSandboxSendingFindings } from './nag.ts';
import { serviceTable, TableBackup } from './table.ts';
import { Webhooks } from './webhooks.ts';

export interface IdentityStackProps extends StackProps {
  /** The routes to deploy; the identity route list unless a test passes another. */
  routes?: readonly RouteDef[];
}

/** The origin of a tenant's hosted pages, `{subdomain}` standing for its subdomain. */
export function hostedPagesOrigin(webDomain: string): string {
  return `https://{subdomain}.${webDomain}`;
}

/** `admin-users` → `RoutesAdminUsers`: the construct id of an area's nested stack. */
export function areaStackId(tag: string): string {
  return `Routes${tag
    .split(/[^a-zA-Z0-9]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}`;
}

/**
 * The identity service: one DynamoDB table (shared/store/table.ts), one HTTP API and one function per row of the
 * route list (functions/routes.ts). Settings come from CDK context (infra/config.ts, cdk.json).
 *
 * One stack to deploy (`cdk deploy Identity`), made of nested stacks so that no template nears CloudFormation's
 * 500 resources (README, Deploying to AWS): this stack holds what every function shares (the table, the key, the
 * edge secret, the API with its routes and integrations), each area of the route list (a row's `tag`) puts its
 * functions (log group, role, function) in a nested stack of its own, and the alarms and dashboard are a nested
 * stack too. The API's routes stay here, so that a route moved to another area is one deploy: its route and
 * integration are updated in place to the new function, never made twice in one API.
 */
export class IdentityStack extends Stack {
  readonly api: HttpApi;
  /** Where the API answers: its custom domain (context apiDomain), or its execute-api host. */
  readonly apiHost: string;
  /** The identity base URL, with /api/v1 (the ApiUrl output). */
  readonly baseUrl: string;
  readonly table: ITable;
  readonly secretsKey: IKey;
  /** What CloudFront sends to the API (EDGE_SECRET_HEADER, infra/web-stack.ts), so its viewer address is trusted. */
  readonly edgeSecret: Secret;
  /** The nested stack of each area (route `tag`), by tag. */
  readonly areas = new Map<string, NestedStack>();
  /** The route functions by operationId. */
  readonly functions = new Map<string, NodejsFunction>();
  readonly monitoring: Monitoring;
  readonly mail: Mail;
  readonly webhooks: Webhooks;

  constructor(scope: Construct, id: string, props: IdentityStackProps = {}) {
    super(scope, id, props);
    const config = readIdentityConfig(this.node);
    if (config.example) refuseToDeployExample(this);
    const routes = props.routes ?? identityRouteList;
    checkRouteKeys(routes, BASE_PATH);

    // The stack's own table, or one restored from a backup that it is pointed at (README, Restoring the table).
    this.table = config.tableName
      ? Table.fromTableAttributes(this, 'RestoredTable', {
          tableName: config.tableName,
          ...(config.tableStreamArn && { tableStreamArn: config.tableStreamArn }),
          globalIndexes: TABLE.indexes.map((index) => index.name),
        })
      : serviceTable(this, 'Table', config.removalPolicy);
    if (config.backup) new TableBackup(this, 'Backup', { table: this.table, ...config.backup });

    // Encrypts the secrets the service must read back (token-signing private keys, TOTP
    // secrets). Symmetric, so the key material never leaves KMS; yearly automatic rotation
    // keeps old ciphertexts decrypting. It goes with the table: destroying the key
    // while the table is retained would make its secrets unreadable. A deployment in a second
    // Region, on a table copied from the first, names the replica of the first one's
    // multi-Region key instead (context kmsKeyArn: README, Restoring the table).
    if (config.kmsKeyArn) {
      this.secretsKey = Key.fromKeyArn(this, 'SecretsKey', config.kmsKeyArn);
    } else {
      const key = new Key(this, 'SecretsKey', {
        description: 'Identity service: encrypts token-signing keys and TOTP secrets',
        alias: `alias/${this.stackName}/secrets`,
        enableKeyRotation: true,
        removalPolicy: config.removalPolicy,
      });
      // A multi-Region primary key (context multiRegionKey): a table copied to another Region can be read there by a
      // replica of this key. Only at the key's creation: changing it on a deployed key would replace the key, and
      // the secrets it encrypted could not be read any more (the README says so).
      if (config.multiRegionKey) (key.node.defaultChild as CfnKey).multiRegion = true;
      this.secretsKey = key;
    }

    // Behind CloudFront (infra/web-stack.ts) API Gateway's sourceIp is an edge server's, which would put every
    // viewer in one per-IP rate limit. CloudFront sends this secret (header `x-identity-edge-secret`) with its
    // `cloudfront-viewer-address`, and the functions trust that address only when the secret matches. CloudFront
    // reads it by a CloudFormation dynamic reference (the Web stack's one); the functions get its ARN and read it
    // themselves, once per process and only when a request presents a secret (shared/http/client-ip.ts): a
    // template may hold 60 dynamic references, and a value resolved into the environment would be readable by
    // anyone who may read a function's settings. Holding it only lets a caller name its own client IP (choose its
    // rate-limit bucket) and its issuer host; it grants no data.
    // No rotation: CloudFront's dynamic reference is resolved at deploy time only; rotating is a redeploy.
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
      throttle: config.apiThrottle.default,
      logRetention: config.logRetention,
      logRemovalPolicy: config.removalPolicy,
      disableExecuteApiEndpoint: config.apiDomain !== undefined,
    });

    // With a custom domain (context apiDomain) the base URL, and so the tokens' issuer, never changes, even if the
    // API is recreated; the execute-api endpoint is off, so that every request names that domain (CloudFront's
    // origin too), and one name is all there is to watch or to put a web ACL's edge in front of.
    if (config.apiDomain) {
      const domainName = new DomainName(this, 'ApiDomain', {
        domainName: config.apiDomain.domain,
        certificate: Certificate.fromCertificateArn(this, 'ApiCertificate', config.apiDomain.certificateArn),
      });
      new ApiMapping(this, 'ApiMapping', {
        api: this.api,
        domainName,
        stage: this.api.node.findChild('DefaultStage') as HttpStage,
      });
      this.apiHost = config.apiDomain.domain;
      new CfnOutput(this, 'ApiDomainTarget', {
        value: domainName.regionalDomainName,
        description: `The CNAME (or alias) target of ${config.apiDomain.domain}`,
      });
    } else {
      this.apiHost = `${this.api.apiId}.execute-api.${this.region}.${this.urlSuffix}`;
    }

    // The base path /api/v1 cannot be a stage name (HTTP API stage names
    // allow no '/'), so every route is prefixed with BASE_PATH on the $default stage:
    // GET /health in the list becomes the route key `GET /api/v1/health`.
    const apiBaseUrl = `https://${this.apiHost}${BASE_PATH}`;
    this.baseUrl = apiBaseUrl;

    // Everything every function gets; the routes add the edge secret (below), the SES events function does not.
    const baseOptions = {
      table: this.table,
      serviceName: this.stackName,
      logRetention: config.logRetention,
      logRemovalPolicy: config.removalPolicy,
      tracing: config.tracing,
      kmsKey: this.secretsKey,
      argon2ReservedConcurrency: config.argon2ReservedConcurrency,
      environment: {
        ISSUER_URL: config.issuerUrl === '' ? apiBaseUrl : config.issuerUrl,
        SENDER_EMAIL: config.senderEmail,
        ...(config.senderName && { SENDER_NAME: config.senderName }),
        AUTH_RATE_LIMIT_PER_MINUTE: config.authRateLimitPerMinute,
        MAIL_DAILY_BUDGET_PER_TENANT: config.mailDailyBudgetPerTenant,
        SIGNUP_MAIL_DAILY_BUDGET_PER_TENANT: config.signupMailDailyBudgetPerTenant,
        SIGNUPS_PER_IP_PER_HOUR: config.signupsPerIpPerHour,
        // Only when not the functions' own default (5): every function's template stays as it was.
        ...(config.tenantCacheSeconds !== '5' && { TENANT_CACHE_SECONDS: config.tenantCacheSeconds }),
        // The hosted pages' origin of every tenant, `{subdomain}` its placeholder (infra/web-stack.ts).
        ...(config.web && { HOSTED_PAGES_ORIGIN: hostedPagesOrigin(config.web.domain) }),
      },
    };

    // The sender's SES identity, the configuration set every mail is sent with and the function that records
    // bounces and complaints: a nested stack of their own (infra/mail.ts).
    this.mail = new Mail(new NestedStack(this, 'Mail', { description: 'Identity service: mail (SES)' }), 'Mail', {
      senderEmail: config.senderEmail,
      senderDomain: config.senderDomain,
      serviceName: this.stackName,
      sandbox: config.sesSandbox,
      functionOptions: baseOptions,
    });

    const functionOptions: RouteFunctionOptions = {
      ...baseOptions,
      basePath: BASE_PATH,
      sesIdentityArns: this.mail.sendingArns,
      environment: {
        ...baseOptions.environment,
        EDGE_SECRET_ARN: this.edgeSecret.secretArn,
        // With a web ACL on CloudFront (context waf: infra/firewall-stack.ts), a request that went around it is refused.
        ...(config.waf && { EDGE_ONLY: 'true' }),
      },
      // Every route's function may read the edge secret, and nothing else of Secrets Manager.
      statements: [
        new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [this.edgeSecret.secretArn] }),
      ],
      // The functions that send mail send it with the configuration set, which tags it with its tenant.
      extrasFor: (route) =>
        route.ses
          ? { environment: { SES_CONFIGURATION_SET: this.mail.configurationSet.configurationSetName } }
          : undefined,
    };
    const routed = routes.map((route) => {
      const area = this.areaOf(route.tag);
      const { fn, role } = routeFunction(area, route, functionOptions);
      const apiRoutes = apiRouteTo(this.api, route, fn, BASE_PATH);
      acknowledgeRouteFindings({ route, fn, role, apiRoutes, tracing: config.tracing });
      if (route.ses && config.sesSandbox) acknowledgeSandboxSendingFindings(role);
      this.functions.set(route.operationId, fn);
      return { route, apiRoutes };
    });
    throttleRoutes(this.api, routed, BASE_PATH, config.apiThrottle);

    // Signed webhooks: the table's stream to a dispatcher, the deliveries queue to a deliverer (infra/webhooks.ts).
    const streamArn = config.tableName ? config.tableStreamArn : (this.table as Table).tableStreamArn;
    this.webhooks = new Webhooks(
      new NestedStack(this, 'Webhooks', { description: 'Identity service: webhooks (stream, queue, delivery)' }),
      'Webhooks',
      {
        table: this.table,
        streamArn,
        eventBus: config.webhookEventBus,
        functionOptions: { ...baseOptions, sesIdentityArns: this.mail.sendingArns },
        configurationSetName: this.mail.configurationSet.configurationSetName,
        sesSandbox: config.sesSandbox,
      },
    );
    if (!streamArn) {
      Annotations.of(this).addWarningV2(
        'identity:noTableStream',
        'Context "tableName" without "tableStreamArn": no webhook events are sent. Turn on the table\'s stream (NEW_IMAGE) and pass its ARN with -c tableStreamArn=….',
      );
    }

    // Alarms (to one SNS topic) and the dashboard, in a nested stack of their own: README, Operations.
    this.monitoring = new Monitoring(
      new NestedStack(this, 'Monitoring', { description: 'Identity service: alarms and dashboard' }),
      'Monitoring',
      {
        serviceName: this.stackName,
        // Every function's Lambda errors and throttles: the routes' and the SES events function's.
        functions: new Map([
          ...this.functions,
          ['sesEvents', this.mail.eventsFunction],
          ['webhookDispatch', this.webhooks.dispatcher],
          ['webhookDeliver', this.webhooks.deliverer],
        ]),
        table: this.table,
        api: this.api,
        mailDeadLetters: this.mail.deadLetters,
        webhookDeadLetters: {
          deliveries: this.webhooks.deliveryDeadLetters,
          dispatch: this.webhooks.dispatchDeadLetters,
        },
        alarmEmail: config.alarmEmail,
        thresholds: config.alarmThresholds,
      },
    );

    // An alarm nobody hears is no alarm: said at synth, not refused (a topic subscription may be made by hand).
    if (!config.alarmEmail && !config.example) {
      Annotations.of(this).addWarningV2(
        'identity:noAlarmSubscriber',
        'No alarmEmail context: the alarms notify an SNS topic nobody is subscribed to. Set -c alarmEmail=ops@yourdomain.com, or subscribe to the AlarmTopicArn output by hand.',
      );
    }

    new CfnOutput(this, 'ApiUrl', { value: apiBaseUrl, description: 'Identity base URL (with /api/v1)' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'KmsKeyId', {
      value: this.secretsKey.keyArn,
      description: 'The secrets key: KMS_KEY_ID for `npm run keys` against this deployment',
    });
    new CfnOutput(this, 'DashboardName', {
      value: this.monitoring.dashboard.dashboardName,
      description: 'The operations dashboard',
    });
    new CfnOutput(this, 'DashboardUrl', { value: this.monitoring.dashboardUrl });
    // The sender domain's DNS records (infra/mail.ts), one output each: `<name> <type> <value>`.
    this.mail.dnsRecords.forEach((record, i) => {
      new CfnOutput(this, `SenderDnsRecord${i + 1}`, {
        value: `${record.name} ${record.type} ${record.value}`,
        description: `Add to the DNS of ${config.senderDomain}: ${record.type === 'CNAME' ? 'Easy DKIM' : record.name.startsWith('_dmarc') ? 'DMARC' : 'the MAIL FROM domain'}`,
      });
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.monitoring.topic.topicArn,
      description: 'Every alarm notifies this topic (subscribe with the alarmEmail context, or by hand)',
    });
  }

  /** The nested stack of an area (a route row's `tag`), made on first use. */
  private areaOf(tag: string): NestedStack {
    let area = this.areas.get(tag);
    if (!area) {
      area = new NestedStack(this, areaStackId(tag), { description: `Identity service: the ${tag} functions` });
      this.areas.set(tag, area);
    }
    return area;
  }
}
