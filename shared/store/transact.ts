import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import { onlyConflicted } from './errors.ts';

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** Sends of one admin write transaction when others keep meeting it on its items. */
const ATTEMPTS = 3;

/**
 * One admin write transaction. DynamoDB cancels one that meets another
 * transaction on its items (TransactionConflict) without judging its
 * conditions; two SUPER_ADMINs acting on each other at once do exactly that.
 * Sent again, the same items and conditions are judged on the state the
 * other one left, which is what the same request a moment later would get;
 * after a few tries, 409 CONFLICT (try again). Cancelled for a condition (the
 * caller tells which from the reasons), or throttled, it throws as DynamoDB did.
 */
export async function transactAdminWrite(deps: Pick<Deps, 'store'>, items: TransactItems): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await deps.store.doc.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      if (!onlyConflicted(error)) throw error;
      if (attempt >= ATTEMPTS) throw fail('CONFLICT', 'the user is being changed concurrently; try again');
      // Jitter, so that two requests that met do not meet again; timing only, nothing secret rides on it.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * attempt));
    }
  }
}
