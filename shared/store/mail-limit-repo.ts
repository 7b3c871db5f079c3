import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { StoreClient } from './client.ts';
import { conditionalWrite, isConditionFailure } from './errors.ts';
import { keys, type MailBudget, type TenantRef } from './keys.ts';
import { DAY_MS, ttlAfter } from './ttl.ts';

/** How often one address may be mailed for one purpose. */
export interface RecipientMailPolicy {
  /** At most this many mails in any `windowMs` (a sliding window). */
  perWindow: number;
  windowMs: number;
  /** And at least this long between two of them. */
  gapMs: number;
}

/** A send slot taken: where, when, and what the take overwrote (to give it back exactly). */
export interface RecipientSlot {
  key: { pk: string; sk: string };
  /** Expression names of the item's fields: `#s0`…`#s{n-1}`, `#entity`, `#ttl`. */
  names: Record<string, string>;
  /** The name of the newest slot, `#s{n-1}`: the take's own send time, while nothing came after it. */
  newest: string;
  sentAt: number;
  before: Record<string, unknown>;
}

/** A send slot refused: the challenge whose mail the address last got for that purpose (null: none recorded). */
export interface RecipientRefusal {
  lastChallengeId: string | null;
}

/** The `YYYY-MM-DD` of `now` in UTC: the tenant's mail budget is counted per UTC day. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * The counters of the mail limits (docs/security.md#mail-limits-and-budgets): per (tenant, purpose,
 * address) and per (tenant, budget, UTC day). Each is one conditional UpdateItem, so
 * concurrent requests are counted exactly: of two racing for the last slot,
 * one gets it and the other is refused.
 */
export function mailLimitRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    /**
     * Takes a send slot for one address and purpose, or answers null when the
     * policy refuses. The item keeps the times of the last `perWindow` sends in
     * attributes `s0` (oldest) … `s{n-1}` (newest), shifted by one on each
     * send: the send that would be one too many in the window finds `s0` (the
     * send `perWindow` ago) inside the window; a send too soon finds the
     * newest inside the gap. Both are judged in the write's condition, and all
     * operands of an update read the item as it was, so the shift is atomic.
     * Answers the slot taken, for `releaseRecipientSlot`. A send that mails a
     * challenge's code records that challenge (`challengeId`) as the address's
     * last; a refusal answers the one recorded, read by the refused write itself.
     */
    async takeRecipientSlot(
      t: TenantRef,
      purpose: string,
      email: string,
      policy: RecipientMailPolicy,
      now: Date,
      challengeId?: string,
    ): Promise<RecipientSlot | RecipientRefusal> {
      const n = policy.perWindow;
      const key = keys.mailRecipient(t, purpose, email);
      const names: Record<string, string> = { '#ttl': 'ttl', '#entity': 'entity' };
      if (challengeId) names['#last'] = 'lastChallengeId';
      for (let i = 0; i < n; i++) names[`#s${i}`] = `s${i}`;
      // s0 ← s1 ← … ← s{n-1} ← now; a slot never written reads as 0 (the epoch: outside every window).
      const shift = Array.from({ length: n - 1 }, (_, i) => `#s${i} = if_not_exists(#s${i + 1}, :never)`);
      try {
        const { Attributes } = await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: key,
            UpdateExpression: `SET ${[
              ...shift,
              `#s${n - 1} = :now`,
              '#entity = :entity',
              '#ttl = :ttl',
              ...(challengeId ? ['#last = :last'] : []),
            ].join(', ')}`,
            ConditionExpression:
              `(attribute_not_exists(#s0) OR #s0 <= :windowStart) AND ` +
              `(attribute_not_exists(#s${n - 1}) OR #s${n - 1} <= :gapStart)`,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: {
              // Named only where the shift uses it: DynamoDB refuses a value an expression leaves unused.
              ...(n > 1 ? { ':never': 0 } : {}),
              ':now': now.getTime(),
              ':entity': 'MAIL_RECIPIENT',
              // Once the window and the gap have passed, the item judges nothing: DynamoDB may drop it.
              ':ttl': ttlAfter(now, Math.max(policy.windowMs, policy.gapMs)),
              ':windowStart': now.getTime() - policy.windowMs,
              ':gapStart': now.getTime() - policy.gapMs,
              ...(challengeId ? { ':last': challengeId } : {}),
            },
            // What the shift overwrote: a slot given back restores exactly that.
            ReturnValues: 'UPDATED_OLD',
            // And, refused, the item as it is: which challenge's code the address last got.
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { key, names, newest: `#s${n - 1}`, sentAt: now.getTime(), before: Attributes ?? {} };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        // The low-level item, as DynamoDB gives it with the refusal.
        const last = (error as { Item?: Record<string, { S?: string }> }).Item?.lastChallengeId?.S;
        return { lastChallengeId: last ?? null };
      }
    },

    /**
     * Gives back a slot whose mail could not be sent (SES failed): the item as
     * it was before the take (deleted if it was new), while that send is still
     * the newest; so the retry a failure invites is not held back by it.
     */
    async releaseRecipientSlot(slot: RecipientSlot): Promise<void> {
      const fields = Object.keys(slot.names);
      const { newest } = slot;
      const condition = {
        ConditionExpression: `${newest} = :sentAt`,
        ExpressionAttributeNames: { [newest]: slot.names[newest] as string },
        ExpressionAttributeValues: { ':sentAt': slot.sentAt },
      };
      const restored = fields.filter((name) => slot.before[slot.names[name] as string] !== undefined);
      const removed = fields.filter((name) => slot.before[slot.names[name] as string] === undefined);
      try {
        if (restored.length === 0) {
          await doc.send(new DeleteCommand({ TableName: tableName, Key: slot.key, ...condition }));
          return;
        }
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: slot.key,
            UpdateExpression: [
              `SET ${restored.map((name, i) => `${name} = :old${i}`).join(', ')}`,
              ...(removed.length > 0 ? [`REMOVE ${removed.join(', ')}`] : []),
            ].join(' '),
            ...condition,
            ExpressionAttributeNames: Object.fromEntries(fields.map((name) => [name, slot.names[name] as string])),
            ExpressionAttributeValues: {
              ...condition.ExpressionAttributeValues,
              ...Object.fromEntries(restored.map((name, i) => [`:old${i}`, slot.before[slot.names[name] as string]])),
            },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    },

    /** Gives back one mail of the day's budget (a mail counted that could not be sent). */
    async releaseTenantBudget(t: TenantRef, budget: MailBudget, sentAt: Date): Promise<void> {
      await conditionalWrite(
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.mailDay(t, budget, utcDay(sentAt)),
            UpdateExpression: 'ADD #sent :minusOne',
            ConditionExpression: '#sent > :zero',
            ExpressionAttributeNames: { '#sent': 'sent' },
            ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
          }),
        ),
      );
    },

    /**
     * Counts one mail against one of the tenant's budgets for today (UTC), or
     * answers false, counting nothing, when `limit` mails were counted today already.
     */
    async takeTenantBudget(t: TenantRef, budget: MailBudget, limit: number, now: Date): Promise<boolean> {
      const day = utcDay(now);
      return conditionalWrite(
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.mailDay(t, budget, day),
            UpdateExpression: 'SET #entity = :entity, #ttl = :ttl ADD #sent :one',
            ConditionExpression: 'attribute_not_exists(#sent) OR #sent < :budget',
            ExpressionAttributeNames: { '#entity': 'entity', '#ttl': 'ttl', '#sent': 'sent' },
            ExpressionAttributeValues: {
              ':entity': 'MAIL_DAY',
              ':one': 1,
              ':budget': limit,
              // A day after the day ended: nothing reads yesterday's count.
              ':ttl': ttlAfter(`${day}T00:00:00.000Z`, 2 * DAY_MS),
            },
          }),
        ),
      );
    },
  };
}
