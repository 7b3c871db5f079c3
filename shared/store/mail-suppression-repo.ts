import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { StoreClient } from './client.ts';
import { conditionalWrite } from './errors.ts';
import { keys, type TenantRef } from './keys.ts';
import { getItem, type ItemKey } from './prefetch.ts';
import { DAY_MS, ttlAfter } from './ttl.ts';

/** Why mail to an address stopped: SES reported a hard (Permanent) bounce, or the recipient marked a mail as spam. */
export type SuppressionReason = 'BOUNCE' | 'COMPLAINT';

/** A suppression in force: why, and when SES saw it (the bounce's or complaint's time). */
export interface MailSuppression {
  reason: SuppressionReason;
  at: string;
}

/** What SES's feedback says of one address (functions/mail/ses-events.ts). */
export interface SuppressionEvent extends MailSuppression {
  /** The kind of mail that bounced or was complained about (its `kind` tag), if SES named it. */
  mailKind: string | null;
  /** SES's id of the bounce or complaint report. */
  feedbackId: string | null;
}

/** How long a cleared suppression stays (as a tombstone that late deliveries of older events cannot revive). */
const CLEARED_KEPT_MS = 30 * DAY_MS;

/** The key of an address's suppression: the address trimmed and lower-cased, as mail limits count it. */
export function mailSuppressionKey(t: TenantRef, email: string): ItemKey {
  return keys.mailSuppression(t, email.trim().toLowerCase());
}

/**
 * Suppressions of mail per (tenant, address), from SES's bounce and complaint
 * events. One item per address: the latest event wins (by its
 * time, so SNS delivering late or twice changes nothing), and an admin's
 * clearing stamps `clearedAt` rather than deleting, so that an event from
 * before the clearing, delivered after it, is refused; a bounce after it
 * suppresses again. A cleared item goes by TTL after 30 days. The SES events
 * function writes with PutItem only, the clearing route with UpdateItem only.
 */
export function mailSuppressionRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    /**
     * The suppression in force for the address, or null. The send path reads it
     * eventually consistent (half the cost; an event a second old changes
     * little), unless the route prefetched it with its tenant (login's code:
     * no round trip of its own); an admin's view reads it consistent.
     */
    async get(t: TenantRef, email: string, options = { consistent: false }): Promise<MailSuppression | null> {
      const item = await getItem(store, mailSuppressionKey(t, email), options);
      if (!item) return null;
      const { reason, at, clearedAt } = item;
      if ((reason !== 'BOUNCE' && reason !== 'COMPLAINT') || typeof at !== 'string') return null;
      if (typeof clearedAt === 'string' && clearedAt >= at) return null;
      return { reason, at };
    },

    /**
     * Records SES's report for an address: one PutItem, if it is newer than
     * the event stored and than the last clearing. True when it was written,
     * false when the item already holds this event or a later one (SNS
     * delivered it again, or late), or an admin cleared the address after it.
     * The item is replaced whole: a clearing's `clearedAt` and its `ttl` go
     * with it, since this event came after them. `at` must be an ISO 8601 UTC
     * time with milliseconds (toISOString), as every stored time, so that the
     * times compare as strings.
     */
    async record(t: TenantRef, email: string, event: SuppressionEvent, now: Date): Promise<boolean> {
      const address = email.trim().toLowerCase();
      return conditionalWrite(
        doc.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...mailSuppressionKey(t, address),
              entity: 'MAIL_SUPPRESSION',
              email: address,
              reason: event.reason,
              at: event.at,
              mailKind: event.mailKind,
              feedbackId: event.feedbackId,
              recordedAt: now.toISOString(),
            },
            ConditionExpression:
              '(attribute_not_exists(#at) OR #at < :at) AND (attribute_not_exists(#clearedAt) OR #clearedAt < :at)',
            ExpressionAttributeNames: { '#at': 'at', '#clearedAt': 'clearedAt' },
            ExpressionAttributeValues: { ':at': event.at },
          }),
        ),
      );
    },

    /**
     * Lifts the address's suppression (an admin's decision, `by` their actor
     * id): mail flows again until SES reports a new bounce or complaint. False
     * when there was none.
     */
    async clear(t: TenantRef, email: string, by: string, now: Date): Promise<boolean> {
      return conditionalWrite(
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: mailSuppressionKey(t, email),
            UpdateExpression: 'SET #clearedAt = :now, #clearedBy = :by, #ttl = :ttl',
            ConditionExpression: 'attribute_exists(#at)',
            ExpressionAttributeNames: {
              '#clearedAt': 'clearedAt',
              '#clearedBy': 'clearedBy',
              '#ttl': 'ttl',
              '#at': 'at',
            },
            ExpressionAttributeValues: { ':now': now.toISOString(), ':by': by, ':ttl': ttlAfter(now, CLEARED_KEPT_MS) },
          }),
        ),
      );
    },
  };
}
