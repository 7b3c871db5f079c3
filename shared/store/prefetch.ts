import { type AttributeValue, BatchGetItemCommand, type BatchGetItemCommandOutput } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { rootOf, type StoreClient } from './client.ts';

export interface ItemKey {
  pk: string;
  sk: string;
}

const idOf = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;

/** Keys left unprocessed after retries: DynamoDB is throttling reads (the handler answers 503). */
function unprocessedKeysError(): Error {
  const error = new Error('BatchGetItem left keys unprocessed');
  error.name = 'ProvisionedThroughputExceededException';
  return error;
}

/**
 * Strongly consistent BatchGetItem of up to 100 keys of the table. Keys left
 * unprocessed (DynamoDB throttling) are asked again, twice at most, then the
 * read answers as throttled (503, the client retries).
 */
export async function batchGetConsistent(store: StoreClient, keys: ItemKey[]): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let pending: Record<string, AttributeValue>[] | undefined = keys.map((key) => ({
    pk: { S: key.pk },
    sk: { S: key.sk },
  }));
  for (let attempt = 0; pending && pending.length > 0; attempt++) {
    if (attempt === 3) throw unprocessedKeysError();
    // The low-level command through the document client (whose middleware stack is its client's): every bearer
    // check and login reads here, and the document command's per-call wrapping (a second command, two marshalling
    // middlewares, the stacks joined again) was a twelfth of a session check's CPU (bench/RESULTS.md). The keys are
    // two strings, the items unmarshalled as the document client would.
    // The route's direct read where it opted in (store/direct-read.ts); the client's when it does not answer.
    const result = ((await store.directBatchGet?.(pending)) ??
      (await store.doc.send(
        new BatchGetItemCommand({
          RequestItems: { [store.tableName]: { Keys: pending, ConsistentRead: true } },
        }) as never,
      ))) as BatchGetItemCommandOutput;
    for (const item of result.Responses?.[store.tableName] ?? []) items.push(unmarshall(item));
    pending = result.UnprocessedKeys?.[store.tableName]?.Keys;
  }
  return items;
}

/**
 * Items a route asked to read together with its tenant (one BatchGetItem
 * instead of a round trip each: its `prefetch`): they answer the request's
 * first read (getItem) of each key. Once only: a second read of the key goes
 * to the table, so that a read after the request's own write sees it.
 */
export class Prefetched {
  private readonly items = new Map<string, Record<string, unknown> | null>();

  constructor(keys: ItemKey[], found: Record<string, unknown>[]) {
    for (const key of keys) this.items.set(idOf(key), null);
    for (const item of found) {
      const id = idOf(item as unknown as ItemKey);
      if (this.items.has(id)) this.items.set(id, item);
    }
  }

  /** The item prefetched (null: there is none), once; undefined when this key was not prefetched. */
  take(key: ItemKey): Record<string, unknown> | null | undefined {
    const id = idOf(key);
    if (!this.items.has(id)) return undefined;
    const item = this.items.get(id) ?? null;
    this.items.delete(id);
    return item;
  }
}

/**
 * One item by its key: what the request prefetched with its tenant answers
 * the first read of each of its keys; any other read goes to the table. Every
 * repository reads single items through this, so a route's `prefetch` (the
 * keys it names, read in the tenant's BatchGetItem) saves it those round trips.
 */
export async function getItem(
  store: StoreClient,
  key: ItemKey,
  options: { consistent: boolean } = { consistent: true },
): Promise<Record<string, unknown> | undefined> {
  const prefetched = store.prefetched?.take(key);
  if (prefetched !== undefined) return prefetched ?? undefined;
  const { Item } = await store.doc.send(
    new GetCommand({ TableName: store.tableName, Key: { pk: key.pk, sk: key.sk }, ConsistentRead: options.consistent }),
  );
  return Item;
}

/** The store of one request, with what it prefetched (per-process caches still key on the process's client). */
export function withPrefetch(store: StoreClient, prefetched: Prefetched): StoreClient {
  return { ...store, prefetched, root: rootOf(store) };
}
