import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { type HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { isDefaultRoute, type RouteDef, routeKey, tableActionsOf } from '#shared/http/route.ts';

/** The repository root: route entries and the lock file are relative to it. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every route function runs on Graviton; the argon2 binary installed below must match it. */
const ARCHITECTURE = Architecture.ARM_64;

export interface RouteFunctionsOptions {
  /** Prefix of every route path on the `$default` stage (`/api/v1`, or `''` for the plant store). */
  basePath: string;
  table: ITable;
  /** The variable that tells each function its table's name: `TABLE_NAME` unless set. */
  tableNameVariable?: string;
  /** Environment of every route function (the table's name is added). */
  environment: Record<string, string>;
  logRetention: RetentionDays;
  /** SES identity ARNs that `ses: true` routes may send as (the sender address and its domain). */
  sesIdentityArns?: readonly string[];
  /** The KMS key that `kms: true` routes encrypt and decrypt with (signing keys, TOTP secrets). */
  kmsKey?: IKey;
}

/**
 * The esbuild options of one route's bundle: a pure function, so that it can be unit-tested.
 * A route that reaches `@node-rs/argon2` without `argon2: true` fails synth with esbuild's
 * 'No loader is configured for ".node" files': flag the route, or cut that import from its graph.
 */
export function bundlingFor(route: RouteDef): BundlingOptions {
  return {
    format: OutputFormat.ESM,
    minify: true,
    sourceMap: false,
    target: 'node22',
    // The nodejs22.x runtime ships AWS SDK v3: keeping it out makes bundles 3–25 KB instead of ~400 KB.
    externalModules: ['@aws-sdk/*'],
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

function kmsKeyOf(route: RouteDef, options: RouteFunctionsOptions): IKey {
  if (!options.kmsKey) throw new Error(`Route ${route.operationId} uses KMS but no KMS key is set`);
  return options.kmsKey;
}

/** `createUser` → `CreateUser`: the construct id of a route's function. */
function constructIdOf(route: RouteDef): string {
  return route.operationId.charAt(0).toUpperCase() + route.operationId.slice(1);
}

/**
 * One NodejsFunction per route, its log group, its least-privilege policy and
 * its API route. Everything comes from the route list; nothing is per-route here.
 * Returns the functions by operationId.
 */
export function addRouteFunctions(
  scope: Construct,
  api: HttpApi,
  routes: readonly RouteDef[],
  options: RouteFunctionsOptions,
): Map<string, NodejsFunction> {
  const functions = new Map<string, NodejsFunction>();
  const seenKeys = new Set<string>();
  const { table } = options;

  for (const route of routes) {
    const key = routeKey(route, options.basePath);
    if (seenKeys.has(key)) throw new Error(`Duplicate route ${key} (operationId ${route.operationId})`);
    seenKeys.add(key);

    const id = constructIdOf(route);
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: options.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const fn = new NodejsFunction(scope, `${id}Function`, {
      description: `${key} (${route.operationId})`,
      entry: join(REPO_ROOT, route.entry),
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: ARCHITECTURE,
      // argon2id at our parameters is memory-bound, and Lambda CPU grows with memory.
      memorySize: route.argon2 ? 1024 : 256,
      timeout: Duration.seconds(10),
      depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
      projectRoot: REPO_ROOT,
      bundling: bundlingFor(route),
      environment: {
        ...options.environment,
        [options.tableNameVariable ?? 'TABLE_NAME']: table.tableName,
        // Only the functions that sign tokens or read TOTP secrets know the key at all.
        ...(route.kms ? { KMS_KEY_ID: kmsKeyOf(route, options).keyArn } : {}),
      },
      logGroup,
    });

    // Least privilege: exactly the actions the route list declares, not table.grant*(),
    // which would add DescribeTable, Scan, ConditionCheckItem and friends.
    const actions = tableActionsOf(route);
    if (actions.length > 0) {
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: actions.map((action) => `dynamodb:${action}`),
          resources: actions.includes('Query') ? [table.tableArn, `${table.tableArn}/index/*`] : [table.tableArn],
        }),
      );
    }

    if (route.ses) {
      const identities = options.sesIdentityArns ?? [];
      if (identities.length === 0) {
        throw new Error(`Route ${route.operationId} sends e-mail but no SES identity is set`);
      }
      fn.addToRolePolicy(new PolicyStatement({ actions: ['ses:SendEmail'], resources: [...identities] }));
    }

    if (route.kms) {
      // Exactly Encrypt and Decrypt on this one key: not key.grantEncryptDecrypt(), which adds
      // ReEncrypt* and GenerateDataKey*, which no function uses.
      fn.addToRolePolicy(
        new PolicyStatement({ actions: ['kms:Encrypt', 'kms:Decrypt'], resources: [kmsKeyOf(route, options).keyArn] }),
      );
    }

    // Payload format 2.0 (the default): the handlers take APIGatewayProxyEventV2.
    const integration = new HttpLambdaIntegration(`${id}Integration`, fn);
    if (isDefaultRoute(route)) {
      // The `$default` route takes what no other route matches, so that API Gateway never answers its bare 404.
      new HttpRoute(api, `${id}Route`, { httpApi: api, routeKey: HttpRouteKey.DEFAULT, integration });
    } else {
      api.addRoutes({ path: `${options.basePath}${route.path}`, methods: [HttpMethod[route.method]], integration });
    }
    functions.set(route.operationId, fn);
  }
  return functions;
}

/** The ARNs of an SES sender: the e-mail identity itself and its domain identity (either may be the verified one). */
export function sesIdentityArnsFor(scope: Construct, senderEmail: string): string[] {
  const domain = senderEmail.slice(senderEmail.lastIndexOf('@') + 1);
  const stack = Stack.of(scope);
  return [domain, senderEmail].map((name) =>
    stack.formatArn({ service: 'ses', resource: 'identity', resourceName: name }),
  );
}
