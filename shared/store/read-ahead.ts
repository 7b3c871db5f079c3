import { BatchGetCommand, type BatchGetCommandOutput, GetCommand } from '@aws-sdk/lib-dynamodb';
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
  let pending: Record<string, unknown>[] | undefined = keys.map((key) => ({ pk: key.pk, sk: key.sk }));
  for (let attempt = 0; pending && pending.length > 0; attempt++) {
    if (attempt === 3) throw unprocessedKeysError();
    const result: BatchGetCommandOutput = await store.doc.send(
      new BatchGetCommand({ RequestItems: { [store.tableName]: { Keys: pending, ConsistentRead: true } } }),
    );
    items.push(...(result.Responses?.[store.tableName] ?? []));
    pending = result.UnprocessedKeys?.[store.tableName]?.Keys;
  }
  return items;
}

/**
 * Items a route asked to read together with its tenant (one BatchGetItem
 * instead of a round trip each): they answer the request's first GetItem of
 * each key. Once only: a second read of the key goes to the table, so that a
 * read after the request's own write sees it.
 */
export class ReadAhead {
  private readonly items = new Map<string, Record<string, unknown> | null>();

  constructor(keys: ItemKey[], found: Record<string, unknown>[]) {
    for (const key of keys) this.items.set(idOf(key), null);
    for (const item of found) {
      const id = idOf(item as unknown as ItemKey);
      if (this.items.has(id)) this.items.set(id, item);
    }
  }

  /** The item read ahead (null: there is none), once; undefined when this key was not read ahead. */
  take(key: ItemKey): Record<string, unknown> | null | undefined {
    const id = idOf(key);
    if (!this.items.has(id)) return undefined;
    const item = this.items.get(id) ?? null;
    this.items.delete(id);
    return item;
  }
}

/** The store client of one request: GetItem of a key read ahead is answered from it, everything else goes to the table. */
export function storeReadingAhead(store: StoreClient, ahead: ReadAhead): StoreClient {
  const send = store.doc.send.bind(store.doc) as (command: unknown, ...rest: unknown[]) => Promise<unknown>;
  const doc = Object.create(store.doc, {
    send: {
      value: async (command: unknown, ...rest: unknown[]) => {
        if (command instanceof GetCommand && command.input.TableName === store.tableName && command.input.Key) {
          const item = ahead.take(command.input.Key as ItemKey);
          if (item !== undefined) return { $metadata: {}, ...(item ? { Item: item } : {}) };
        }
        return send(command, ...rest);
      },
    },
  }) as StoreClient['doc'];
  return { doc, tableName: store.tableName, root: rootOf(store) };
}
