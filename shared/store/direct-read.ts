import type { AttributeValue, BatchGetItemCommandOutput } from '@aws-sdk/client-dynamodb';
import { rootOf, type StoreClient } from './client.ts';

/**
 * The hot read of every bearer check and sign-in (store/prefetch.ts: one consistent BatchGetItem by key) sent
 * with the DynamoDB client's own parts, without its per-call machinery. The request is signed by the client's
 * SigV4 signer (its credentials, refreshed as the client refreshes them, and its clock offset), goes to the
 * endpoint the client's endpoint rules name, over the client's HTTP handler (its keep-alive connections). What is
 * left out is what the client does around that for every call: the middleware stack resolved again, the schema
 * serde of the input and of every attribute of the answer, the user agent, the retry bookkeeping, the endpoint
 * rules evaluated again. What that saves on a session check is measured in bench/NOTES.md (the side by side).
 *
 * Anything but a plain 200 answer (an error, throttling, a network failure, an answer with a binary attribute,
 * which the client's codec decodes) is read again through the client, whose retries, errors and codec then
 * answer: the direct read only ever takes the path where nothing happens. A middleware added to the client (the
 * tests' fault injection and IAM check, the bench's round-trip count, a tracer), before or after, turns it off for
 * good, so that every read passes through whatever was added.
 *
 * Only the routes a user waits on (`bundleSdk`) opt in, their handlers passing `withDirectReadsDeps` (deps.ts), so
 * no other bundle carries this.
 */

/**
 * A consistent BatchGetItem of these keys of the table, answered as the client answers it (items and unprocessed
 * keys in DynamoDB JSON); undefined when the client must read them instead.
 */
export type DirectBatchGet = (
  keys: Record<string, AttributeValue>[],
) => Promise<Pick<BatchGetItemCommandOutput, 'Responses' | 'UnprocessedKeys'> | undefined>;

interface SignableRequest {
  protocol: string;
  hostname: string;
  port?: number | undefined;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** The parts of the DynamoDB client's resolved configuration that the direct read uses. */
interface ClientParts {
  region: () => Promise<string>;
  isCustomEndpoint?: boolean;
  endpoint?: () => Promise<{ protocol: string; hostname: string; port?: number; path: string }>;
  endpointProvider: (params: Record<string, unknown>) => { url: URL };
  useFipsEndpoint: () => Promise<boolean>;
  useDualstackEndpoint: () => Promise<boolean>;
  signer: () => Promise<{ sign(request: SignableRequest, options: { signingDate: Date }): Promise<SignableRequest> }>;
  requestHandler: {
    handle(request: SignableRequest): Promise<{ response: { statusCode: number; body: AsyncIterable<Uint8Array> } }>;
  };
  systemClockOffset?: number;
}

type Endpoint = Pick<SignableRequest, 'protocol' | 'hostname' | 'port' | 'path'>;

/** Where the client sends its calls: its configured endpoint (DynamoDB Local), or what its endpoint rules name. */
async function endpointOf(parts: ClientParts): Promise<Endpoint> {
  if (parts.isCustomEndpoint && parts.endpoint) return parts.endpoint();
  const { url } = parts.endpointProvider({
    Region: await parts.region(),
    UseFIPS: await parts.useFipsEndpoint(),
    UseDualStack: await parts.useDualstackEndpoint(),
  });
  return {
    protocol: url.protocol,
    hostname: url.hostname,
    ...(url.port ? { port: Number(url.port) } : {}),
    path: url.pathname,
  };
}

async function textOf(body: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The store with direct reads of its table (`store.directBatchGet`), as long as its client stays as built. Once per
 * process's deps (deps.ts withDirectReadsDeps keeps what it made).
 */
export function withDirectReads(store: StoreClient): StoreClient {
  return { ...store, directBatchGet: directReadOf(store), root: rootOf(store) };
}

/** The middleware of a client as createStoreClient builds it (store/client.ts). */
const AS_BUILT = [
  'serializerMiddleware',
  'contentLengthMiddleware',
  'getUserAgentMiddleware',
  'hostHeaderMiddleware',
  'recursionDetectionMiddleware',
  'retryMiddleware',
  'httpSigningMiddleware',
  'deserializerMiddleware',
];

function directReadOf({ doc, tableName }: StoreClient): DirectBatchGet {
  const parts = doc.config as unknown as ClientParts;
  const stack = doc.middlewareStack;
  // Added to before (a test's hooks installed first), or by whoever wants to see its calls from now on: no direct read.
  const names = stack.identify().map((entry) => entry.split(' ')[0]);
  let enabled = names.length === AS_BUILT.length && AS_BUILT.every((name) => names.includes(name));
  for (const method of ['add', 'addRelativeTo', 'use'] as const) {
    const original = stack[method] as (...args: unknown[]) => unknown;
    (stack as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      enabled = false;
      return original.apply(stack, args);
    };
  }
  let ready:
    | undefined
    | Promise<{ endpoint: Endpoint; host: string; signer: Awaited<ReturnType<ClientParts['signer']>> }>;
  const prepare = async () => {
    const [endpoint, signer] = await Promise.all([endpointOf(parts), parts.signer()]);
    return { endpoint, host: endpoint.port ? `${endpoint.hostname}:${endpoint.port}` : endpoint.hostname, signer };
  };
  return async (keys) => {
    if (!enabled) return undefined;
    try {
      ready ??= prepare().catch((error: unknown) => {
        ready = undefined;
        throw error;
      });
      const { endpoint, host, signer } = await ready;
      const body = JSON.stringify({ RequestItems: { [tableName]: { Keys: keys, ConsistentRead: true } } });
      const request = await signer.sign(
        {
          ...endpoint,
          method: 'POST',
          headers: {
            host,
            'content-type': 'application/x-amz-json-1.0',
            'x-amz-target': 'DynamoDB_20120810.BatchGetItem',
            'content-length': String(Buffer.byteLength(body)),
          },
          body,
        },
        { signingDate: new Date(Date.now() + (parts.systemClockOffset ?? 0)) },
      );
      const { response } = await parts.requestHandler.handle(request);
      // Read to the end whatever the status, so that the connection goes back to the pool.
      const text = await textOf(response.body);
      // A binary attribute arrives base64-encoded: the client's codec decodes it.
      if (response.statusCode !== 200 || /"BS?":/.test(text)) return undefined;
      return JSON.parse(text) as Pick<BatchGetItemCommandOutput, 'Responses' | 'UnprocessedKeys'>;
    } catch {
      // The client reads again, with its retries, and answers what failed.
      return undefined;
    }
  };
}
