import type { Server } from 'node:http';
import { resolve } from 'node:path';
import { BASE_PATH, identityRouteList } from '#functions/routes.ts';
import { type DynamoDbLocal, ensureTable, startDynamoDbLocal } from './dynamodb.ts';
import { createGateway, type GatewayOptions } from './gateway.ts';
import { startSesEmulator } from './ses.ts';

/** The table name the local stack, the CLI and the tests use. */
export const LOCAL_TABLE_NAME = 'identity';
export const REPO_ROOT = resolve(import.meta.dirname, '..');

export interface LocalStackOptions {
  /** Gateway port; 0 for an ephemeral one. */
  port: number;
  sesPort: number;
  dynamoPort?: number;
  /** Where DynamoDB Local keeps its data; absent = in memory. */
  dataDir?: string;
  /** Use this running DynamoDB instead of starting one. */
  dynamoEndpoint?: string;
  tableName?: string;
  authRateLimitPerMinute?: number;
  /** The least time a code request takes (AUTH_CODE_RESPONSE_FLOOR_MS); tests lower it. */
  codeResponseFloorMs?: number;
  /** The local stand-in for KMS (32 bytes, base64): encrypts signing keys and TOTP secrets. */
  secretsKey: string;
  onRequest?: GatewayOptions['onRequest'];
}

export interface LocalStack {
  apiUrl: string;
  port: number;
  dynamoEndpoint: string;
  sesUrl: string;
  tableName: string;
  stop(): Promise<void>;
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

/**
 * DynamoDB Local, the SES v2 emulator and the local API gateway, wired the way
 * AWS wires the deployed stack: the handlers read the same environment
 * variables that the CDK stack sets on each function.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const tableName = options.tableName ?? LOCAL_TABLE_NAME;
  const [dynamo, ses] = await Promise.all([
    options.dynamoEndpoint
      ? Promise.resolve<DynamoDbLocal | undefined>(undefined)
      : startDynamoDbLocal({ port: options.dynamoPort, dataDir: options.dataDir }),
    startSesEmulator(options.sesPort),
  ]);
  const dynamoEndpoint = options.dynamoEndpoint ?? (dynamo as DynamoDbLocal).endpoint;
  const stopAll = async (server?: Server) => {
    await Promise.all([
      server
        ? new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          })
        : undefined,
      ses.close(),
      dynamo?.stop(),
    ]);
  };
  try {
    await ensureTable(dynamoEndpoint, tableName);
    const gateway = createGateway({
      routes: identityRouteList,
      basePath: BASE_PATH,
      root: REPO_ROOT,
      onRequest: options.onRequest,
    });
    const port = await listen(gateway, options.port);
    const apiUrl = `http://localhost:${port}${BASE_PATH}`;
    // The handlers run in this process and read their configuration as Lambda does: from the environment.
    Object.assign(process.env, {
      TABLE_NAME: tableName,
      DYNAMODB_ENDPOINT: dynamoEndpoint,
      SES_ENDPOINT: ses.url,
      AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
      ISSUER_URL: apiUrl,
      SENDER_EMAIL: process.env.SENDER_EMAIL ?? 'no-reply@localhost.test',
      AUTH_RATE_LIMIT_PER_MINUTE: String(
        options.authRateLimitPerMinute ?? process.env.AUTH_RATE_LIMIT_PER_MINUTE ?? 120,
      ),
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      LOCAL_SECRETS_KEY: options.secretsKey,
      AUTH_CODE_RESPONSE_FLOOR_MS: String(
        options.codeResponseFloorMs ?? process.env.AUTH_CODE_RESPONSE_FLOOR_MS ?? 400,
      ),
    });
    return { apiUrl, port, dynamoEndpoint, sesUrl: ses.url, tableName, stop: () => stopAll(gateway) };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
