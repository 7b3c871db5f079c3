import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  type CfnStage,
  HttpApi,
  HttpMethod,
  HttpRoute,
  type HttpRouteIntegrationBindOptions,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import {
  ApplicationLogLevel,
  Architecture,
  type CfnFunction,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
} from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, LogGroupClass, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { VaultGrant, VaultPurpose } from '#shared/crypto/key-vault.ts';
import {
  isDefaultRoute,
  memoryOf,
  type RouteDef,
  routeKey,
  type ThrottleClass,
  tableActionsOf,
  throttleClassOf,
  timeoutOf,
} from '#shared/http/route.ts';
import { TABLE } from '#shared/store/table.ts';
import { acknowledgeRouteFindings } from './nag.ts';

/** The repository root: route entries and the lock file are relative to it. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every route function runs on Graviton; the argon2 binary installed below must match it. */
const ARCHITECTURE = Architecture.ARM_64;

/**
 * One JSON object per request in the access log: who (source IP), what (method and route key, never
 * the path, whose ids and stray tokens we do not want in logs), the answer (status, latency, size)
 * and the request id that the functions' own logs carry too. Never the query string, a header (the
 * bearer, API keys, cookies, User-Agent) or a body. Every value is a string: a field API Gateway has
 * no value for is written `"-"`, still valid JSON.
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTimeEpoch',
  sourceIp: '$context.identity.sourceIp',
  method: '$context.httpMethod',
  routeKey: '$context.routeKey',
  status: '$context.status',
  responseLatencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  responseLength: '$context.responseLength',
  integrationError: '$context.integrationErrorMessage',
} as const;

export interface ServiceApiOptions {
  apiName: string;
  /** Each route's steady rate (requests a second) and burst, the stage's default route settings. */
  throttle: Throttle;
  /** Retention of the access log group. */
  logRetention: RetentionDays;
  /** What `cdk destroy` does to the access log group (the removalPolicy context). */
  logRemovalPolicy: RemovalPolicy;
  /** Turns the `execute-api` endpoint off: the API answers on its custom domain only. */
  disableExecuteApiEndpoint?: boolean;
}

export type Throttle = { rateLimit: number; burstLimit: number };

/**
 * A service's HTTP API: its `$default` stage (auto-deployed) throttles every route
 * (`throttle`, below the account-wide limit, so one flooded API cannot take the region's
 * whole quota) and writes a JSON access log (ACCESS_LOG_FIELDS) to a log group of its own.
 * No API-wide CORS: each route list answers CORS itself.
 */
export function serviceApi(scope: Construct, id: string, options: ServiceApiOptions): HttpApi {
  const api = new HttpApi(scope, id, {
    apiName: options.apiName,
    createDefaultStage: false,
    disableExecuteApiEndpoint: options.disableExecuteApiEndpoint ?? false,
  });
  // Infrequent Access: half the ingestion price of Standard, and Logs Insights still reads it. It gives up what
  // nothing here uses on this log (metric filters, subscription filters, Live Tail); the functions' log groups
  // stay Standard, as CloudWatch turns only their lines into metrics.
  const accessLogs = new LogGroup(scope, `${id}AccessLogs`, {
    retention: options.logRetention,
    removalPolicy: options.logRemovalPolicy,
    logGroupClass: LogGroupClass.INFREQUENT_ACCESS,
  });
  // The construct path createDefaultStage uses (<api>/DefaultStage): a deployed stage is updated in place, not replaced.
  new HttpStage(api, 'DefaultStage', {
    httpApi: api,
    autoDeploy: true,
    throttle: options.throttle,
    accessLogSettings: {
      destination: new LogGroupLogDestination(accessLogs),
      format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
    },
  });
  return api;
}

export interface RouteFunctionOptions {
  /** Prefix of every route path on the `$default` stage (`/api/v1`, or `''` for the plant store). */
  basePath: string;
  table: ITable;
  /** The variable that tells each function its table's name: `TABLE_NAME` unless set. */
  tableNameVariable?: string;
  /** Environment of every route function (the table's name is added). */
  environment: Record<string, string>;
  /** Statements every function's role gets beside its row's (the identity's: reading the edge secret). */
  statements?: readonly PolicyStatement[];
  /**
   * The `service` dimension of the request metrics (shared/http/request-metrics.ts): the deployed stack's name, so
   * that two deployments in one account stay apart (a nested stack's own name would change with its logical id).
   */
  serviceName: string;
  logRetention: RetentionDays;
  /** What `cdk destroy` does to the function's log group (the removalPolicy context). */
  logRemovalPolicy: RemovalPolicy;
  /** SES identity ARNs that `ses: true` routes may send as (the sender address and its domain). */
  sesIdentityArns?: readonly string[];
  /** The KMS key that routes with `kms` grants encrypt and decrypt with (signing keys, TOTP secrets). */
  kmsKey?: IKey;
  /**
   * Reserved concurrency of each argon2 function (`argon2: true`): a flood of logins can use that
   * many instances and no more, leaving the account's other concurrency to every other function.
   * Undefined: none reserved.
   */
  argon2ReservedConcurrency?: number;
  /** Lambda active tracing (X-Ray) on every function (context `tracing`). */
  tracing: boolean;
  /** What a route needs beyond its row: more environment and statements (the plant store's CORS routes). */
  extrasFor?: (route: RouteDef) => { environment?: Record<string, string>; statements?: PolicyStatement[] } | undefined;
}

/**
 * What a route that bundles the SDK (`bundleSdk`) still leaves to the runtime's: modules it loads on first use
 * only, never at cold start. The KMS client is imported when a signing key is first decrypted
 * (shared/crypto/key-vault.ts); the credential providers and the clients they use (STS, SSO) are what the
 * default chain would try after the environment's credentials, which a Lambda function always has. Bundled,
 * they would be parsed at every cold start; left out, the first use imports them as every other route does. The
 * SES client is imported on a login's first e-mail code (shared/mail/ses-mailer.ts): a password login never
 * sends, and should not pay for it at cold start (bench/NOTES.md, "Numbers behind the code"). The Secrets
 * Manager client reads the edge secret on the first request that came through CloudFront (shared/http/client-ip.ts).
 */
const SDK_LOADED_ON_FIRST_USE = [
  '@aws-sdk/client-kms',
  '@aws-sdk/client-secrets-manager',
  '@aws-sdk/client-sesv2',
  '@aws-sdk/nested-clients',
  '@aws-sdk/credential-provider-ini',
  '@aws-sdk/credential-provider-sso',
  '@aws-sdk/credential-provider-login',
  '@aws-sdk/credential-provider-process',
  '@aws-sdk/credential-provider-web-identity',
  '@aws-sdk/credential-provider-http',
  '@aws-sdk/token-providers',
] as const;

/**
 * The esbuild options of one route's bundle: a pure function, so that it can be unit-tested.
 * A route that reaches `@node-rs/argon2` without `argon2: true` fails synth with esbuild's
 * 'No loader is configured for ".node" files': flag the route, or cut that import from its graph.
 */
export function bundlingFor(route: Pick<RouteDef, 'bundleSdk' | 'argon2'>): BundlingOptions {
  return {
    format: OutputFormat.ESM,
    minify: true,
    sourceMap: false,
    target: 'node22',
    // The nodejs22.x runtime ships AWS SDK v3: keeping it out makes bundles far smaller, but its import is most of
    // a cold start (bench/NOTES.md, cold init). The routes a user waits on carry the SDK themselves.
    externalModules: route.bundleSdk ? [...SDK_LOADED_ON_FIRST_USE] : ['@aws-sdk/*'],
    // ESM output cannot `require`; CommonJS dependencies bundled into it still call it.
    banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
    mainFields: ['module', 'main'],
    ...(route.argon2
      ? {
          // A native module cannot be bundled: `npm ci` installs it into the asset, and these
          // npm_config_* pick the linux/glibc/arm64 prebuilt binary for the Lambda (not the build host).
          nodeModules: ['@node-rs/argon2'],
          environment: {
            npm_config_os: 'linux',
            npm_config_libc: 'glibc',
            npm_config_cpu: ARCHITECTURE === Architecture.ARM_64 ? 'arm64' : 'x64',
            npm_config_prefer_offline: 'true',
          },
        }
      : {}),
  };
}

function kmsKeyOf(spec: FunctionSpec, options: Pick<RouteFunctionOptions, 'kmsKey'>): IKey {
  if (!options.kmsKey) throw new Error(`${spec.id} uses KMS but no KMS key is set`);
  return options.kmsKey;
}

/**
 * The KMS statements of a route: one per encryption-context purpose it uses, with exactly the
 * actions it needs for that purpose, on the one key, under a `kms:EncryptionContext:purpose`
 * condition. Not key.grantEncryptDecrypt(), which adds ReEncrypt* and GenerateDataKey* (no
 * function uses them) and any purpose: a function that signs tokens cannot decrypt TOTP secrets.
 */
export function kmsStatementsFor(grants: readonly VaultGrant[], keyArn: string): PolicyStatement[] {
  const actionsByPurpose = new Map<VaultPurpose, Set<string>>();
  for (const grant of grants) {
    const [purpose, use] = grant.split(':') as [VaultPurpose, 'encrypt' | 'decrypt'];
    const actions = actionsByPurpose.get(purpose) ?? new Set<string>();
    actions.add(use === 'encrypt' ? 'kms:Encrypt' : 'kms:Decrypt');
    actionsByPurpose.set(purpose, actions);
  }
  return [...actionsByPurpose.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([purpose, actions]) =>
        new PolicyStatement({
          actions: [...actions].sort(),
          resources: [keyArn],
          conditions: { StringEquals: { 'kms:EncryptionContext:purpose': purpose } },
        }),
    );
}

/**
 * What active tracing needs of a function's role: sending its segments to X-Ray. X-Ray has no resource-level
 * permissions, hence `*` (cdk-nag IAM5, acknowledged on each role: infra/nag.ts). In the route's inline policy,
 * not through `tracing: Tracing.ACTIVE`, which would add it with addToRolePolicy: one more AWS::IAM::Policy per
 * function (about sixty resources of the 500 a stack may have).
 */
function xrayStatement(): PolicyStatement {
  return new PolicyStatement({ actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], resources: ['*'] });
}

/** `createUser` → `CreateUser`: the construct id of a route's function. */
function constructIdOf(route: RouteDef): string {
  return route.operationId.charAt(0).toUpperCase() + route.operationId.slice(1);
}

/**
 * Per-route stage throttling: each route whose class (shared/http/route.ts, throttleClassOf) is not `default` gets
 * its class's rate and burst as a route setting of the API's `$default` stage, which then waits for those routes
 * (a route setting of a route key the API does not have yet is refused). Route settings are properties of the one
 * stage resource: no resource is added per route.
 */
export function throttleRoutes(
  api: HttpApi,
  routes: readonly { route: RouteDef; apiRoutes: readonly HttpRoute[] }[],
  basePath: string,
  throttles: Record<ThrottleClass, Throttle>,
): void {
  const stage = api.node.findChild('DefaultStage').node.defaultChild as CfnStage;
  // The property is a JSON map, written as CloudFormation spells it (CDK capitalises typed properties only).
  const settings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
  for (const { route, apiRoutes } of routes) {
    const throttleClass = throttleClassOf(route);
    if (throttleClass === 'default' || isDefaultRoute(route)) continue;
    const { rateLimit, burstLimit } = throttles[throttleClass];
    settings[routeKey(route, basePath)] = { ThrottlingRateLimit: rateLimit, ThrottlingBurstLimit: burstLimit };
    for (const apiRoute of apiRoutes) stage.node.addDependency(apiRoute);
  }
  stage.routeSettings = settings;
}

/** Refuses two rows with one route key: API Gateway would refuse the second at deploy time. */
export function checkRouteKeys(routes: readonly RouteDef[], basePath: string): void {
  const seen = new Map<string, string>();
  for (const route of routes) {
    const key = routeKey(route, basePath);
    const other = seen.get(key);
    if (other) throw new Error(`Duplicate route ${key} (operationIds ${other} and ${route.operationId})`);
    seen.set(key, route.operationId);
  }
}

/**
 * What a function needs, whatever invokes it: a route row (routeFunction) or an event source (the SES events
 * function, infra/mail.ts). Plain data, as the route rows are.
 */
export interface FunctionSpec {
  /** The construct ids' stem: `Login` → LoginLogs, LoginRole, LoginFunction. */
  id: string;
  /** The handler module, relative to the repository root; it exports `handler`. */
  entry: string;
  description: string;
  /** Exactly the DynamoDB actions its role may call on the table. */
  tableActions: readonly string[];
  ses?: boolean;
  kms?: RouteDef['kms'];
  argon2?: boolean;
  bundleSdk?: boolean;
  memoryMb: number;
  timeoutSeconds: number;
}

/** A route row as a function spec: everything comes from the row. */
function specOf(route: RouteDef, basePath: string): FunctionSpec {
  return {
    id: constructIdOf(route),
    entry: route.entry,
    description: `${routeKey(route, basePath)} (${route.operationId})`,
    tableActions: tableActionsOf(route),
    ses: route.ses,
    kms: route.kms,
    argon2: route.argon2,
    bundleSdk: route.bundleSdk,
    memoryMb: memoryOf(route),
    timeoutSeconds: timeoutOf(route),
  };
}

/** A route's function in `scope`: its log group, its least-privilege role and the function. */
export function routeFunction(
  scope: Construct,
  route: RouteDef,
  options: RouteFunctionOptions,
): { fn: NodejsFunction; role: Role } {
  return serviceFunction(scope, specOf(route, options.basePath), options, options.extrasFor?.(route));
}

/** A function in `scope`, its log group and its least-privilege role, from its spec; nothing else is per-function. */
export function serviceFunction(
  scope: Construct,
  spec: FunctionSpec,
  options: Omit<RouteFunctionOptions, 'basePath' | 'extrasFor'>,
  extras?: { environment?: Record<string, string>; statements?: PolicyStatement[]; deadLetterQueue?: IQueue },
): { fn: NodejsFunction; role: Role } {
  const { table } = options;
  const { id } = spec;
  const logGroup = new LogGroup(scope, `${id}Logs`, {
    retention: options.logRetention,
    removalPolicy: options.logRemovalPolicy,
  });

  // Least privilege: exactly what the spec declares, inline in the function's own role. Not the
  // AWSLambdaBasicExecutionRole managed policy (logs on every log group of the account), and not
  // table.grant*(), which would add DescribeTable, Scan, ConditionCheckItem and friends.
  const statements = [
    new PolicyStatement({
      actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      resources: [logGroup.logGroupArn],
    }),
  ];
  const actions = spec.tableActions;
  if (actions.length > 0) {
    statements.push(
      new PolicyStatement({
        actions: actions.map((action) => `dynamodb:${action}`),
        // Query reaches the indexes too, each by name (every service table is built from TABLE: infra/table.ts).
        resources: actions.includes('Query')
          ? [table.tableArn, ...TABLE.indexes.map((index) => `${table.tableArn}/index/${index.name}`)]
          : [table.tableArn],
      }),
    );
  }
  if (spec.ses) {
    const identities = options.sesIdentityArns ?? [];
    if (identities.length === 0) throw new Error(`${spec.id} sends e-mail but no SES identity is set`);
    statements.push(new PolicyStatement({ actions: ['ses:SendEmail'], resources: [...identities] }));
  }
  if (spec.kms?.length) statements.push(...kmsStatementsFor(spec.kms, kmsKeyOf(spec, options).keyArn));
  statements.push(...(options.statements ?? []), ...(extras?.statements ?? []));
  if (extras?.deadLetterQueue) {
    statements.push(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [extras.deadLetterQueue.queueArn] }),
    );
  }
  if (options.tracing) statements.push(xrayStatement());
  const role = new Role(scope, `${id}Role`, {
    assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    inlinePolicies: { route: new PolicyDocument({ statements }) },
  });

  const fn = new NodejsFunction(scope, `${id}Function`, {
    description: spec.description,
    entry: join(REPO_ROOT, spec.entry),
    handler: 'handler',
    runtime: Runtime.NODEJS_22_X,
    architecture: ARCHITECTURE,
    memorySize: spec.memoryMb,
    // The costly routes anyone can call: a login flood takes this many instances, not the account's whole quota.
    ...(spec.argon2 && options.argon2ReservedConcurrency !== undefined
      ? { reservedConcurrentExecutions: options.argon2ReservedConcurrency }
      : {}),
    role,
    timeout: Duration.seconds(spec.timeoutSeconds),
    depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
    projectRoot: REPO_ROOT,
    bundling: bundlingFor(spec),
    environment: {
      ...options.environment,
      // The `service` dimension of the request metrics; their namespace is the handler's (shared/metrics.ts).
      SERVICE_NAME: options.serviceName,
      [options.tableNameVariable ?? 'TABLE_NAME']: table.tableName,
      // Only the functions that sign tokens or read TOTP secrets know the key at all.
      ...(spec.kms?.length ? { KMS_KEY_ID: kmsKeyOf(spec, options).keyArn } : {}),
      ...extras?.environment,
    },
    logGroup,
    // Lambda's own START, END and REPORT lines (about 375 bytes a request, CloudWatch Logs bills each) are left out:
    // the JSON log format lets their level be WARN. Our lines are JSON already, written straight to stdout and
    // stderr (shared/log.ts), which the JSON format passes through as they are, EMF block and all (as the
    // embedded-metric client library does for this format); a line without `level` counts as INFO, so the
    // request line is kept. Durations and memory remain Lambda's metrics; errors, our error lines and its own.
    loggingFormat: LoggingFormat.JSON,
    systemLogLevelV2: SystemLogLevel.WARN,
    applicationLogLevelV2: ApplicationLogLevel.INFO,
  });
  // Only for a function invoked asynchronously (an event source): what fails after Lambda's retries is kept there.
  // The L1 property, with the statement inline above: the L2 one would add an AWS::IAM::Policy for its grant.
  if (extras?.deadLetterQueue) {
    (fn.node.defaultChild as CfnFunction).deadLetterConfig = { targetArn: extras.deadLetterQueue.queueArn };
  }
  // Active tracing by configuration only (no tracing library, no SDK instrumentation: shared/store/direct-read.ts
  // relies on the bare client). The L1 property, so that no AWS::IAM::Policy is added (xrayStatement above).
  if (options.tracing) (fn.node.defaultChild as CfnFunction).tracingConfig = { mode: 'Active' };
  return { fn, role };
}

/**
 * A Lambda integration whose invoke permission is made beside its function (in the function's stack: an area's
 * nested stack), not beside the route: the API's stack then holds two resources a route, not three.
 */
class PermittedBesideFunction extends HttpLambdaIntegration {
  readonly #fn: NodejsFunction;
  constructor(id: string, fn: NodejsFunction) {
    super(id, fn);
    this.#fn = fn;
  }
  override completeBind(options: HttpRouteIntegrationBindOptions): void {
    super.completeBind({ ...options, scope: this.#fn });
  }
}

/**
 * A route's API Gateway route and its Lambda integration, in the API's own scope (and so its stack, whichever stack
 * the function is in: a route that moves to another area is updated in place), and the permission to invoke `fn`,
 * beside `fn`.
 */
export function apiRouteTo(api: HttpApi, route: RouteDef, fn: NodejsFunction, basePath: string): HttpRoute[] {
  // Payload format 2.0 (the default): the handlers take APIGatewayProxyEventV2.
  const integration = new PermittedBesideFunction(`${constructIdOf(route)}Integration`, fn);
  // The `$default` route takes what no other route matches, so that API Gateway never answers its bare 404.
  return isDefaultRoute(route)
    ? [
        new HttpRoute(api, `${constructIdOf(route)}Route`, {
          httpApi: api,
          routeKey: HttpRouteKey.DEFAULT,
          integration,
        }),
      ]
    : api.addRoutes({ path: `${basePath}${route.path}`, methods: [HttpMethod[route.method]], integration });
}

/**
 * One function per route and its API route, all in `scope` (the plant store's stack). Returns the functions by
 * operationId.
 */
export function addRouteFunctions(
  scope: Construct,
  api: HttpApi,
  routes: readonly RouteDef[],
  options: RouteFunctionOptions,
  throttles: Record<ThrottleClass, Throttle>,
): Map<string, NodejsFunction> {
  checkRouteKeys(routes, options.basePath);
  const functions = new Map<string, NodejsFunction>();
  const routed: { route: RouteDef; apiRoutes: HttpRoute[] }[] = [];
  for (const route of routes) {
    const { fn, role } = routeFunction(scope, route, options);
    const apiRoutes = apiRouteTo(api, route, fn, options.basePath);
    acknowledgeRouteFindings({ route, fn, role, apiRoutes, tracing: options.tracing });
    functions.set(route.operationId, fn);
    routed.push({ route, apiRoutes });
  }
  throttleRoutes(api, routed, options.basePath, throttles);
  return functions;
}
