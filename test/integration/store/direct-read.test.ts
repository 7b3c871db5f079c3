import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { takeDirectReadFallbacks } from '#shared/metrics.ts';
import { createStoreClient, type StoreClient } from '#shared/store/client.ts';
import { markObserved, withDirectReads } from '#shared/store/direct-read.ts';
import { batchGetConsistent, type ItemKey } from '#shared/store/prefetch.ts';

/**
 * The direct read of the session check (shared/store/direct-read.ts) against DynamoDB Local, and against a stand-in
 * for DynamoDB that checks each request's SigV4 signature. What a caller must not be able to tell: the items, the
 * errors and every hook on the client are those of the SDK's own path.
 */

interface Sent {
  target: string;
  /** The SDK's own path marks each call with an invocation id; the direct read sends none. */
  bySdk: boolean;
}

/** A fresh client on DynamoDB Local, and the requests it sends (both paths use the client's HTTP handler). */
function aStore(
  tableName = inject('tableName'),
  endpoint = inject('dynamoEndpoint'),
): { store: StoreClient; sent: Sent[] } {
  const store = createStoreClient({ tableName, endpoint, region: 'us-east-1' });
  const sent: Sent[] = [];
  const handler = store.doc.config.requestHandler as { handle(request: { headers: Record<string, string> }): unknown };
  const handle = handler.handle.bind(handler);
  handler.handle = (request) => {
    sent.push({ target: request.headers['x-amz-target'] ?? '', bySdk: 'amz-sdk-invocation-id' in request.headers });
    return handle(request);
  };
  return { store, sent };
}

const pk = `DIRECT#${Date.now().toString(36)}`;
const key = (sk: string): ItemKey => ({ pk, sk });

beforeAll(async () => {
  const { store } = aStore();
  const items = [
    {
      ...key('EVERY-KIND'),
      text: 'Ana "B": ünïcödé',
      count: 42,
      ratio: 0.5,
      on: true,
      nothing: null,
      list: ['a', 1, { nested: ['deep'] }],
      map: { a: { b: 'c' }, n: 7 },
      strings: new Set(['x', 'y']),
      numbers: new Set([1, 2]),
    },
    { ...key('PLAIN'), name: 'plain' },
    { ...key('BINARY'), blob: new Uint8Array([0, 1, 2, 255]) },
  ];
  for (const item of items) await store.doc.send(new PutCommand({ TableName: store.tableName, Item: item }));
});

/** What the process writes to stderr (error lines) while `action` runs. */
async function stderrDuring(action: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const original = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  }) as typeof process.stderr.write;
  try {
    await action();
  } finally {
    process.stderr.write = original;
  }
  return lines;
}

// First in the file: the process's first failure is logged, and only that one.
describe('a read left to the client', () => {
  it('counts DirectReadFallback, and logs the first failure of the process once, with no key in it', async () => {
    takeDirectReadFallbacks();
    const lines = await stderrDuring(async () => {
      for (let attempt = 0; attempt < 2; attempt++) {
        const read = batchGetConsistent(withDirectReads(aStore('no-such-table').store), [key('PLAIN')]);
        await expect(read).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
      }
    });
    expect(takeDirectReadFallbacks()).toBe(2);
    const failures = lines.filter((line) => line.includes('direct read failed'));
    expect(failures).toHaveLength(1);
    expect(JSON.parse(failures[0] ?? '{}')).toMatchObject({ level: 'error', status: 400 });
    expect(failures[0]).not.toContain(pk);
  });

  it('counts a binary attribute left to the client, and no plain read', async () => {
    takeDirectReadFallbacks();
    await batchGetConsistent(withDirectReads(aStore().store), [key('PLAIN')]);
    expect(takeDirectReadFallbacks()).toBe(0);
    await batchGetConsistent(withDirectReads(aStore().store), [key('BINARY')]);
    expect(takeDirectReadFallbacks()).toBe(1);
  });
});

describe('an observed client', () => {
  it('gets no direct reads: every read goes through its middleware', async () => {
    const { store, sent } = aStore();
    markObserved(store.doc);
    const observed = withDirectReads(store);
    expect(observed.directBatchGet).toBeUndefined();
    await batchGetConsistent(observed, [key('PLAIN')]);
    expect(sent.map((request) => request.bySdk)).toEqual([true]);
  });

  it("leaves the client's middleware stack as it was", () => {
    const { store } = aStore();
    const stack = store.doc.middlewareStack;
    const before = { add: stack.add, addRelativeTo: stack.addRelativeTo, use: stack.use };
    withDirectReads(store);
    expect({ add: stack.add, addRelativeTo: stack.addRelativeTo, use: stack.use }).toEqual(before);
  });
});

describe('the direct read against DynamoDB Local', () => {
  it('reads the items the client reads, every kind of attribute, and nothing for a key with no item', async () => {
    const keys = [key('EVERY-KIND'), key('PLAIN'), key('NO-SUCH-ITEM')];
    const { store, sent } = aStore();
    const direct = await batchGetConsistent(withDirectReads(store), keys);
    const bySdk = await batchGetConsistent(aStore().store, keys);

    expect(direct).toHaveLength(2);
    expect(sortedBySk(direct)).toEqual(sortedBySk(bySdk));
    expect(sortedBySk(direct)[0]).toMatchObject({ text: 'Ana "B": ünïcödé', strings: new Set(['x', 'y']) });
    expect(sent).toEqual([{ target: 'DynamoDB_20120810.BatchGetItem', bySdk: false }]);
  });

  it('leaves a binary attribute to the client, whose codec decodes it', async () => {
    const { store, sent } = aStore();
    const [item] = await batchGetConsistent(withDirectReads(store), [key('BINARY')]);
    expect(item?.blob).toEqual(new Uint8Array([0, 1, 2, 255]));
    expect(sent.map((request) => request.bySdk)).toEqual([false, true]);
  });

  it("answers an error as the client does: the client's own error, after its own attempt", async () => {
    const { store, sent } = aStore('no-such-table');
    const read = batchGetConsistent(withDirectReads(store), [key('PLAIN')]);
    await expect(read).rejects.toMatchObject({ name: 'ResourceNotFoundException', $metadata: { httpStatusCode: 400 } });
    expect(sent[0]?.bySdk).toBe(false);
    expect(sent.slice(1).every((request) => request.bySdk)).toBe(true);
  });

  it('lets a middleware added to the client, after or before, see every read', async () => {
    const seen: string[] = [];
    const watch = (store: StoreClient) =>
      store.doc.middlewareStack.add(
        (next, context) => async (args) => {
          seen.push(String(context.commandName));
          return next(args);
        },
        { step: 'initialize', name: 'watch' },
      );

    const after = aStore();
    const directAfter = withDirectReads(after.store);
    await batchGetConsistent(directAfter, [key('PLAIN')]);
    // Whoever instruments a client later says so.
    markObserved(after.store.doc);
    watch(after.store);
    await batchGetConsistent(directAfter, [key('PLAIN')]);

    const before = aStore();
    watch(before.store);
    await batchGetConsistent(withDirectReads(before.store), [key('PLAIN')]);

    expect(seen).toEqual(['BatchGetItemCommand', 'BatchGetItemCommand']);
    expect(after.sent.map((request) => request.bySdk)).toEqual([false, true]);
    expect(before.sent.map((request) => request.bySdk)).toEqual([true]);
  });
});

/** A stand-in for DynamoDB that checks the SigV4 signature of each request with the client's own signer. */
describe('the direct read on the wire', () => {
  let server: Server;
  let endpoint: string;
  const received: { signatureMatches: boolean; headers: IncomingMessage['headers']; keys: number }[] = [];
  let unprocessedOnce = true;

  beforeAll(async () => {
    const verifier = createStoreClient({ tableName: 'wire', endpoint: 'http://127.0.0.1:1', region: 'us-east-1' });
    const signer = await (verifier.doc.config.signer as unknown as () => Promise<Signer>)();
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = req.headers as Record<string, string>;
      const amzDate = headers['x-amz-date'] ?? '';
      const signingDate = new Date(
        `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13)}`,
      );
      // The same request signed again from what arrived: the signature DynamoDB would compute.
      const { authorization, ...unsigned } = headers;
      const signedHeaders = /SignedHeaders=([^,]+)/.exec(authorization ?? '')?.[1]?.split(';') ?? [];
      const again = await signer.sign(
        {
          protocol: 'http:',
          hostname: '127.0.0.1',
          method: req.method ?? '',
          path: req.url ?? '/',
          headers: Object.fromEntries(Object.entries(unsigned).filter(([name]) => signedHeaders.includes(name))),
          body,
        },
        { signingDate },
      );
      const keys = (JSON.parse(body).RequestItems.wire.Keys as unknown[]).length;
      received.push({ signatureMatches: again.headers.authorization === authorization, headers: req.headers, keys });
      const [first, ...rest] = JSON.parse(body).RequestItems.wire.Keys as Record<string, { S: string }>[];
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      const answer = unprocessedOnce
        ? { Responses: { wire: [first] }, UnprocessedKeys: rest.length ? { wire: { Keys: rest } } : {} }
        : { Responses: { wire: [first, ...rest] }, UnprocessedKeys: {} };
      unprocessedOnce = false;
      res.end(JSON.stringify(answer));
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('signs each request as SigV4 requires, and asks again for the keys left unprocessed', async () => {
    const { store, sent } = aStore('wire', endpoint);
    const items = await batchGetConsistent(withDirectReads(store), [key('A'), key('B'), key('C')]);

    expect(items.map((item) => item.sk).sort()).toEqual(['A', 'B', 'C']);
    expect(received.map((request) => request.keys)).toEqual([3, 2]);
    expect(received.every((request) => request.signatureMatches)).toBe(true);
    expect(received[0]?.headers).toMatchObject({
      'x-amz-target': 'DynamoDB_20120810.BatchGetItem',
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-content-sha256': expect.stringMatching(/^[0-9a-f]{64}$/),
      authorization: expect.stringMatching(
        /^AWS4-HMAC-SHA256 Credential=local\/\d{8}\/us-east-1\/dynamodb\/aws4_request/,
      ),
    });
    expect(sent.every((request) => !request.bySdk)).toBe(true);
  });
});

describe('the direct read on AWS', () => {
  it("goes over HTTPS to the endpoint the client's rules name for its region, signed with its credentials", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      AWS_SESSION_TOKEN: 'session-token-of-the-function',
    });
    try {
      const store = createStoreClient({ tableName: 'identity', region: 'eu-west-1' });
      const seen: { protocol: string; hostname: string; port?: number; headers: Record<string, string> }[] = [];
      // Stands in for the network: what the client's HTTP handler was asked to send, and DynamoDB's plain answer.
      (store.doc.config as unknown as { requestHandler: unknown }).requestHandler = {
        handle: async (request: (typeof seen)[number]) => {
          seen.push(request);
          const answer = JSON.stringify({ Responses: { identity: [{ pk: { S: pk }, sk: { S: 'A' } }] } });
          return { response: { statusCode: 200, headers: {}, body: Readable.from([Buffer.from(answer)]) } };
        },
      };
      const items = await batchGetConsistent(withDirectReads(store), [key('A')]);

      expect(items).toEqual([{ pk, sk: 'A' }]);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ protocol: 'https:', hostname: 'dynamodb.eu-west-1.amazonaws.com' });
      expect(seen[0]?.port).toBeUndefined();
      expect(seen[0]?.headers).toMatchObject({
        host: 'dynamodb.eu-west-1.amazonaws.com',
        'x-amz-security-token': 'session-token-of-the-function',
        authorization: expect.stringMatching(
          /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/dynamodb\/aws4_request, SignedHeaders=[^ ]*host[^ ]*x-amz-security-token/,
        ),
      });
    } finally {
      process.env = saved;
    }
  });
});

interface Signer {
  sign(
    request: {
      protocol: string;
      hostname: string;
      method: string;
      path: string;
      headers: Record<string, string>;
      body: string;
    },
    options: { signingDate: Date },
  ): Promise<{ headers: Record<string, string> }>;
}

function sortedBySk(items: Record<string, unknown>[]): Record<string, unknown>[] {
  return [...items].sort((a, b) => String(a.sk).localeCompare(String(b.sk)));
}
