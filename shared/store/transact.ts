import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { fail } from '../errors.ts';
import type { StoreClient } from './client.ts';
import { cancellationCodes, onlyConflicted } from './errors.ts';

/** One write of a transaction, as the repos' item builders make them. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export interface TransactOptions {
  /**
   * Send again, a few times, when DynamoDB cancels it only because another
   * transaction was in flight on its items (then 409 CONFLICT). Without it,
   * such a cancellation throws as DynamoDB did (the handler answers 503).
   */
  retryConflicts?: boolean;
}

/** Sends of one transaction when others keep meeting it on its items. */
const ATTEMPTS = 3;

/**
 * Writes the named items in one transaction (a null item is left out: an
 * optional check). Answers the names of the items whose condition failed:
 * empty when it committed, so the caller tells its "no"s apart by name
 * rather than by position. Throttling and other faults throw.
 *
 * With `retryConflicts`: DynamoDB cancels a transaction that meets another
 * one on its items without judging its conditions (two SUPER_ADMINs acting on
 * each other at once do exactly that). Sent again, the same items and
 * conditions are judged on the state the other one left, which is what the
 * same request a moment later would get; after a few tries, 409 CONFLICT.
 *
 * @example
 * const failed = await transact(deps.store, { grant: users.grantRoleItem(…), activity: activity.putItem(…) });
 * if (failed.has('grant')) throw fail('NOT_FOUND');
 */
export async function transact<K extends string>(
  store: StoreClient,
  items: Record<K, TransactItem | null>,
  options: TransactOptions = {},
): Promise<ReadonlySet<K>> {
  const named = (Object.entries(items) as [K, TransactItem | null][]).filter(
    (entry): entry is [K, TransactItem] => entry[1] !== null,
  );
  for (let attempt = 1; ; attempt++) {
    try {
      await store.doc.send(new TransactWriteCommand({ TransactItems: named.map(([, item]) => item) }));
      return new Set();
    } catch (error) {
      if (options.retryConflicts && onlyConflicted(error)) {
        if (attempt >= ATTEMPTS) throw fail('CONFLICT', 'the item is being changed concurrently; try again');
        // Jitter, so that two requests that met do not meet again; timing only, nothing secret rides on it.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * attempt));
        continue;
      }
      const codes = cancellationCodes(error);
      const failed = named.filter((_, i) => codes?.[i] === 'ConditionalCheckFailed').map(([name]) => name);
      if (failed.length === 0) throw error;
      return new Set(failed);
    }
  }
}
