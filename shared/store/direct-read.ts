import type { AttributeValue, BatchGetItemCommandOutput, DynamoDBClientResolvedConfig } from '@aws-sdk/client-dynamodb';
import { jsonLogger } from '../log.ts';
import { countDirectReadFallback } from '../metrics.ts';
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
 * answer: the direct read only ever takes the path where nothing happens. Each such read counts
 * `DirectReadFallback` (shared/metrics.ts), and the first failure of a process is logged.
 *
 * A client whose middleware stack is not as built (a middleware added before, such as a tracer's or the tests' IAM
 * check) gets no direct reads; whoever instruments a client later says so with `markObserved`, and from then on
 * every read passes through what was added. The client's stack itself is never touched.
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

/**
 * The parts of the DynamoDB client's resolved configuration that the direct read uses, as the SDK types them: an SDK
 * that renames or retypes one fails the type check here, not each read at run time.
 */
type ClientParts = Pick<
  DynamoDBClientResolvedConfig,
  | 'region'
  | 'isCustomEndpoint'
  | 'endpoint'
  | 'endpointProvider'
  | 'useFipsEndpoint'
  | 'useDualstackEndpoint'
  | 'signer'
  | 'requestHandler'
  | 'systemClockOffset'
>;

type Signer = Awaited<ReturnType<ClientParts['signer']>>;
type SignableRequest = Parameters<Signer['sign']>[0];

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

/** The middleware stacks of clients that someone instruments: they get no direct reads. */
const observedStacks = new WeakSet<object>();

/**
 * Says that whoever calls this watches the client's calls (a middleware added now or later: the tests' IAM check and
 * fault injection, the bench's round-trip count, a tracer): its reads all go through the client from now on.
 */
export function markObserved(client: { readonly middlewareStack: object }): void {
  observedStacks.add(client.middlewareStack);
}

/**
 * The store with direct reads of its table (`store.directBatchGet`), unless its client is observed or its middleware
 * is not as built. Once per process's deps (deps.ts withDirectReadsDeps keeps what it made).
 */
export function withDirectReads(store: StoreClient): StoreClient {
  const stack = store.doc.middlewareStack;
  const names = stack.identify().map((entry) => entry.split(' ')[0]);
  const asBuilt = names.length === AS_BUILT.length && AS_BUILT.every((name) => names.includes(name));
  if (!asBuilt || observedStacks.has(stack)) return store;
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

let failureLogged = false;

/** A read left to the client: counted; the first failure of the process logged (its kind, never keys or tokens). */
function fallBack(failure?: { errorName: string } | { status: number }): undefined {
  countDirectReadFallback();
  if (failure && !failureLogged) {
    failureLogged = true;
    jsonLogger.error('direct read failed; the client reads instead', failure);
  }
  return undefined;
}

function directReadOf({ doc, tableName }: StoreClient): DirectBatchGet {
  const parts: ClientParts = doc.config;
  const stack = doc.middlewareStack;
  let ready: undefined | Promise<{ endpoint: Endpoint; host: string; signer: Signer }>;
  const prepare = async () => {
    const [endpoint, signer] = await Promise.all([endpointOf(parts), parts.signer()]);
    return { endpoint, host: endpoint.port ? `${endpoint.hostname}:${endpoint.port}` : endpoint.hostname, signer };
  };
  return async (keys) => {
    if (observedStacks.has(stack)) return fallBack();
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
          query: {},
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
      const { response } = (await parts.requestHandler.handle(request)) as {
        response: { statusCode: number; body: AsyncIterable<Uint8Array> };
      };
      // Read to the end whatever the status, so that the connection goes back to the pool.
      const text = await textOf(response.body);
      if (response.statusCode !== 200) return fallBack({ status: response.statusCode });
      // A binary attribute arrives base64-encoded: the client's codec decodes it.
      if (/"BS?":/.test(text)) return fallBack();
      return JSON.parse(text) as Pick<BatchGetItemCommandOutput, 'Responses' | 'UnprocessedKeys'>;
    } catch (error) {
      // The client reads again, with its retries, and answers what failed.
      return fallBack({ errorName: error instanceof Error ? error.name : typeof error });
    }
  };
}
