import type { Deps } from '#shared/deps.ts';
import { rootOf } from '#shared/store/client.ts';

type Item = Record<string, unknown>;

/** What a command sent to DynamoDB: its name and input, as the document client takes them. */
export interface SentCommand {
  name: string;
  input: Record<string, any>;
}

/**
 * Deps whose DynamoDB client calls `before` with each command before sending it and `after` once it answered: a
 * test records what a request writes, or makes something happen between two of its calls. Repositories are built
 * from `deps.store` where they are used, so this is where a test watches them. Caches stay the process's (the
 * spied store is a view of the same root).
 */
export function depsWatchingStore(
  deps: Deps,
  hooks: { before?(command: SentCommand): void; after?(command: SentCommand): Promise<void> | void },
): Deps {
  const doc = deps.store.doc;
  const watched = new Proxy(doc, {
    get(target, key, receiver) {
      if (key !== 'send') return Reflect.get(target, key, receiver);
      return async (command: { constructor: { name: string }; input: Record<string, any> }, ...rest: unknown[]) => {
        const sent = { name: command.constructor.name, input: command.input };
        hooks.before?.(sent);
        const output = await (target.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
        await hooks.after?.(sent);
        return output;
      };
    },
  });
  return { ...deps, store: { ...deps.store, doc: watched, root: rootOf(deps.store) } };
}

/** The items a command puts (a PutItem, or the Puts of a transaction). */
export function putItemsOf(command: SentCommand): Item[] {
  if (command.name === 'PutCommand') return [command.input.Item as Item];
  if (command.name === 'TransactWriteCommand') {
    return (command.input.TransactItems as { Put?: { Item: Item } }[]).flatMap((entry) =>
      entry.Put ? [entry.Put.Item] : [],
    );
  }
  return [];
}
