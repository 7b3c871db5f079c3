import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { plantRouteList } from '#functions/plants/routes.ts';
import { BASE_PATH, identityRouteList } from '#functions/routes.ts';
import { type Deps, makeDeps } from '#shared/deps.ts';
import { makePlantDeps, type PlantDeps } from '#shared/plants/deps.ts';
import { type DynamoDbLocal, ensureTable, startDynamoDbLocal } from './dynamodb.ts';
import { createGateway, type GatewayOptions, gatewayListener } from './gateway.ts';
import { type JwtAuthorizerSettings, jwtAuthorizer } from './jwt-authorizer.ts';
import { startSesEmulator } from './ses.ts';
import { localEdge } from './web-server.ts';
import { type LocalWebhooks, startLocalWebhooks } from './webhooks.ts';

/** The table name the local stack, the CLI and the tests use. */
export const LOCAL_TABLE_NAME = 'identity';
/** The plant store's own table. */
export const LOCAL_PLANTS_TABLE_NAME = 'plants';
export const REPO_ROOT = resolve(import.meta.dirname, '..');

export interface LocalStackOptions {
  /** Gateway port; 0 for an ephemeral one. */
  port: number;
  /** The plant store's gateway port (0 for an ephemeral one); absent = no plant store. */
  plantsPort?: number;
  sesPort: number;
  dynamoPort?: number;
  /** Where DynamoDB Local keeps its data; absent = in memory. */
  dataDir?: string;
  /** Use this running DynamoDB instead of starting one. */
  dynamoEndpoint?: string;
  tableName?: string;
  plantsTableName?: string;
  authRateLimitPerMinute?: number;
  /** MAIL_DAILY_BUDGET_PER_TENANT (the `account` mail budget); tests of the budget lower it. */
  mailDailyBudgetPerTenant?: number;
  /** SIGNUP_MAIL_DAILY_BUDGET_PER_TENANT (the `signup` mail budget); tests of the budget lower it. */
  signupMailDailyBudgetPerTenant?: number;
  /** SIGNUPS_PER_IP_PER_HOUR. */
  signupsPerIpPerHour?: number;
  /**
   * TENANT_CACHE_SECONDS (shared/store/tenant-cache.ts): how late a settings change may reach users' requests; the
   * deployment's 5 unless set. The tests set 0, so that a change applies to the very next request.
   */
  tenantCacheSeconds?: number;
  /** The answer floor (AUTH_ANSWER_FLOOR_MS, shared/auth/timing.ts); tests lower it. */
  answerFloorMs?: number;
  /** The local stand-in for KMS (32 bytes, base64): encrypts signing keys and TOTP secrets. */
  secretsKey: string;
  onRequest?: GatewayOptions['onRequest'];
  /** The built pages to serve on tenants' hosts; web/dist unless a test brings its own. */
  webDist?: string;
  /**
   * The plant store's second mode (README, Plant store): API Gateway's JWT authorizer in front of its token
   * routes, emulated (local/jwt-authorizer.ts), for this issuer and audience; a function is read at each
   * request (a test learns its tenant's issuer and client ids after the start). Absent: the `PLANTS_JWT_ISSUER`
   * and `PLANTS_JWT_AUDIENCE` (comma-separated) environment, else none.
   */
  plantsJwtAuthorizer?: JwtAuthorizerSettings | (() => JwtAuthorizerSettings);
  /**
   * argon2id's cost, `m=…,t=…,p=…` (ARGON2_PARAMS, shared/deps.ts): the tests' cheap one. Absent: ARGON2_PARAMS from
   * the environment, else production's, which `npm start` runs with.
   */
  argon2Params?: string;
  /**
   * Fake sign-in providers on loopback standing in for a kind's real one, by kind (`{ GOOGLE: '<issuer>' }`;
   * LOCAL_SIGN_IN_PROVIDERS, shared/sign-in-providers/kinds.ts). Every local stack allows loopback providers.
   */
  signInProviderEndpoints?: Record<string, string>;
  /**
   * Webhooks delivered as on AWS (local/webhooks.ts): the table gets its stream, read into the dispatcher, and a local
   * queue feeds the deliverer. `timeScale` (WEBHOOK_TIME_SCALE): the tests' factor on retry waits. Absent: no stream
   * is read (endpoints can still be managed; nothing is sent).
   */
  webhooks?: { timeScale?: number };
}

export interface LocalStack {
  apiUrl: string;
  /** The hosted pages' origin, `{subdomain}` standing for a tenant's subdomain. */
  hostedPagesOrigin: string;
  port: number;
  /** The plant store's base URL (no base path), when it was asked for. */
  plantsUrl: string | undefined;
  dynamoEndpoint: string;
  sesUrl: string;
  tableName: string;
  plantsTableName: string;
  /** The webhooks' stream reader and queue, when asked for. */
  webhooks: LocalWebhooks | undefined;
  /** The identity functions' deps, built from the stack's settings: what the CLI and the tests' setup write with. */
  deps: Deps;
  stop(): Promise<void>;
}

function settled<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('the local stack is still starting');
  return value;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((done, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      const address = server.address();
      done(typeof address === 'object' && address ? address.port : port);
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise<void>((done) => {
    server.closeAllConnections();
    server.close(() => done());
  });
}

/** The JWT authorizer of `npm start`: `PLANTS_JWT_ISSUER` and `PLANTS_JWT_AUDIENCE` (client ids, comma-separated). */
function plantsJwtAuthorizerFromEnv(env: Record<string, string | undefined>): JwtAuthorizerSettings | undefined {
  const issuer = env.PLANTS_JWT_ISSUER?.trim() ?? '';
  const audience = (env.PLANTS_JWT_AUDIENCE ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (issuer === '' && audience.length === 0) return undefined;
  if (issuer === '' || audience.length === 0) {
    throw new Error('PLANTS_JWT_ISSUER and PLANTS_JWT_AUDIENCE go together: set both, or neither');
  }
  return { issuer, audience };
}

/**
 * DynamoDB Local, the SES v2 emulator and the local API gateway (and, when
 * asked, the plant store's gateway), wired the way AWS wires the deployed
 * stacks: the functions run with deps built from the settings that the CDK
 * stacks give each function as its environment.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const tableName = options.tableName ?? LOCAL_TABLE_NAME;
  const plantsTableName = options.plantsTableName ?? LOCAL_PLANTS_TABLE_NAME;
  const [dynamo, ses] = await Promise.all([
    options.dynamoEndpoint
      ? Promise.resolve<DynamoDbLocal | undefined>(undefined)
      : startDynamoDbLocal({ port: options.dynamoPort, dataDir: options.dataDir }),
    startSesEmulator(options.sesPort),
  ]);
  const dynamoEndpoint = options.dynamoEndpoint ?? (dynamo as DynamoDbLocal).endpoint;
  const servers: Server[] = [];
  let webhooks: LocalWebhooks | undefined;
  // Built once the gateways listen (the settings name their URLs), before the first request is let through.
  let deps: Deps | undefined;
  let plantDeps: PlantDeps | undefined;
  const stopAll = async () => {
    await webhooks?.stop();
    await Promise.all([...servers.map(close), ses.close(), dynamo?.stop()]);
  };
  try {
    await ensureTable(dynamoEndpoint, tableName, { stream: options.webhooks !== undefined });
    // The identity gateway behind the local edge: the hosted pages (web/dist) and `/api/*` on one origin.
    const gateway = createServer(
      localEdge({
        distDir: options.webDist,
        api: gatewayListener({
          routes: identityRouteList,
          basePath: BASE_PATH,
          root: REPO_ROOT,
          onRequest: options.onRequest,
          deps: () => settled(deps),
        }),
      }),
    );
    servers.push(gateway);
    const port = await listen(gateway, options.port);
    const apiUrl = `http://localhost:${port}${BASE_PATH}`;
    // Each tenant's pages at its own host: Chromium resolves every *.localhost to loopback.
    const hostedPagesOrigin = `http://{subdomain}.localhost:${port}`;

    // The plant store: its own routes at the root of its own port, its own table. It verifies
    // tokens against the identity's JWKS at ISSUER_URL, as a deployed resource server does.
    let plantsUrl: string | undefined;
    const authorizerSettings = options.plantsJwtAuthorizer ?? plantsJwtAuthorizerFromEnv(process.env);
    if (options.plantsPort !== undefined) {
      await ensureTable(dynamoEndpoint, plantsTableName);
      const plants = createGateway({
        routes: plantRouteList,
        basePath: '',
        root: REPO_ROOT,
        onRequest: options.onRequest,
        deps: () => settled(plantDeps),
        // As infra/plants-stack.ts attaches it: on the token routes (POST /plants).
        ...(authorizerSettings
          ? {
              jwtAuthorizer: {
                routes: plantRouteList.filter((route) => route.tenant === 'token').map((route) => route.operationId),
                authorize: jwtAuthorizer({ settings: authorizerSettings }),
              },
            }
          : {}),
      });
      servers.push(plants);
      plantsUrl = `http://localhost:${await listen(plants, options.plantsPort)}`;
    }
    // The stack's settings, the environment the CDK stacks give each function. The deps are built from them once, as a
    // function builds its own at a cold start, and handed to the functions with each invocation (local/gateway.ts):
    // the process's environment is left as it is, so that several stacks can run in one process (the tests).
    const environment: Record<string, string | undefined> = {
      ...process.env,
      TABLE_NAME: tableName,
      DYNAMODB_ENDPOINT: dynamoEndpoint,
      SES_ENDPOINT: ses.url,
      AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
      ISSUER_URL: apiUrl,
      HOSTED_PAGES_ORIGIN: hostedPagesOrigin,
      SENDER_EMAIL: process.env.SENDER_EMAIL ?? 'no-reply@localhost.test',
      AUTH_RATE_LIMIT_PER_MINUTE: String(
        options.authRateLimitPerMinute ?? process.env.AUTH_RATE_LIMIT_PER_MINUTE ?? 120,
      ),
      MAIL_DAILY_BUDGET_PER_TENANT: String(
        options.mailDailyBudgetPerTenant ?? process.env.MAIL_DAILY_BUDGET_PER_TENANT ?? 10_000,
      ),
      SIGNUP_MAIL_DAILY_BUDGET_PER_TENANT: String(
        options.signupMailDailyBudgetPerTenant ?? process.env.SIGNUP_MAIL_DAILY_BUDGET_PER_TENANT ?? 5_000,
      ),
      SIGNUPS_PER_IP_PER_HOUR: String(options.signupsPerIpPerHour ?? process.env.SIGNUPS_PER_IP_PER_HOUR ?? 20),
      TENANT_CACHE_SECONDS: String(options.tenantCacheSeconds ?? process.env.TENANT_CACHE_SECONDS ?? 5),
      LOCAL_SECRETS_KEY: options.secretsKey,
      AUTH_ANSWER_FLOOR_MS: String(options.answerFloorMs ?? process.env.AUTH_ANSWER_FLOOR_MS ?? 400),
      // The plant store's own settings (ISSUER_URL above is its issuer too; its JWKS_URL defaults from it).
      PLANTS_TABLE_NAME: plantsTableName,
      ...(plantsUrl ? { PLANTS_URL: plantsUrl } : {}),
      // Behind the JWT authorizer the plant store takes its caller from the authorizer's claims, as the stack sets it.
      PLANTS_JWT_AUTHORIZER: authorizerSettings ? 'true' : 'false',
      ...(options.argon2Params && { ARGON2_PARAMS: options.argon2Params }),
      LOCAL_SIGN_IN_PROVIDERS: JSON.stringify(options.signInProviderEndpoints ?? {}),
      // Receivers on this machine (plain http on loopback) may be webhook endpoints, locally only.
      WEBHOOK_LOOPBACK: 'true',
      ...(options.webhooks?.timeScale !== undefined && { WEBHOOK_TIME_SCALE: String(options.webhooks.timeScale) }),
    };
    deps = makeDeps(environment);
    plantDeps = makePlantDeps(environment);
    if (options.webhooks) {
      webhooks = await startLocalWebhooks({ dynamoEndpoint, tableName, deps: () => settled(deps) });
    }
    return {
      apiUrl,
      hostedPagesOrigin,
      port,
      plantsUrl,
      dynamoEndpoint,
      sesUrl: ses.url,
      tableName,
      plantsTableName,
      webhooks,
      deps,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
