import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EventType, WebhookEvent } from '../webhooks/events.ts';
import type { StoreClient } from './client.ts';
import { conditionalWrite } from './errors.ts';
import { type TenantRef, webhookKeys } from './keys.ts';
import { getItem } from './prefetch.ts';
import { newestFirstPage, queryAll } from './query.ts';
import { DAY_MS, ttlAfter, ttlNow } from './ttl.ts';

/** How long the event log and the delivery attempts are kept: what "Replay since …" can reach back to. */
export const WEBHOOK_LOG_RETENTION_MS = 30 * DAY_MS;

/** The width of an event id's time part: milliseconds in base 36 (nine digits reach the year 5188). */
const TIME_DIGITS = 9;

/**
 * A stable event id from its source item and type (a stream record seen twice makes the same event), starting with
 * the time of the change, so that the id alone finds the event in the time-ordered log (`eventTimeOf`).
 */
export function eventIdOf(sourceId: string, type: string, at: string): string {
  const time = Date.parse(at).toString(36).padStart(TIME_DIGITS, '0');
  return `evt_${time}${createHash('sha256').update(`${sourceId}|${type}`).digest('base64url').slice(0, 20)}`;
}

/** The time of the change an event id was made for (`eventIdOf`); null for anything else. */
export function eventTimeOf(eventId: string): string | null {
  const match = /^evt_([0-9a-z]{9})[A-Za-z0-9_-]{20}$/.exec(eventId);
  if (!match?.[1]) return null;
  const time = new Date(Number.parseInt(match[1], 36));
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

/** Why an endpoint was turned off by the service (an admin's own switch has no reason). */
export type DisabledReason = 'FAILING';

/** A webhook endpoint of a tenant, as stored. */
export interface StoredWebhookEndpoint {
  id: string;
  url: string;
  description: string | null;
  eventTypes: EventType[];
  enabled: boolean;
  disabledReason: DisabledReason | null;
  disabledAt: string | null;
  /** The signing secret (`whsec_…`), encrypted by the key vault (purpose `webhook`). */
  secretCiphertext: string;
  /** After a rotation, the secret before: it signs too until `previousSecretExpiresAt`. */
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: string | null;
  secretCreatedAt: string;
  /** The first failed attempt since the last success; null while deliveries succeed. */
  failingSince: string | null;
  lastSuccessAt: string | null;
  /** The admin who made it: told by mail when the service turns it off. */
  createdBy: string;
  createdAt: string;
  /** Also the item's version: an update commits only over the item it read. */
  updatedAt: string;
}

/** One delivery attempt of one event to one endpoint. */
export interface DeliveryAttempt {
  id: string;
  eventId: string;
  eventType: string;
  at: string;
  /** 1 for the first try of this delivery, counting up through its retries. */
  attempt: number;
  /** The receiver's HTTP status; null when no answer came (refused, timed out, address not allowed). */
  statusCode: number | null;
  latencyMs: number;
  /** What went wrong, in a few words; null on success. */
  error: string | null;
  /** Another attempt follows at `retryAt`; null: none (delivered, or given up). */
  retryAt: string | null;
}

export interface AttemptPage {
  items: DeliveryAttempt[];
  after: string | null;
}

/** What an admin asked the dispatcher to send (webhook-repo `requestItem`, by the table's stream). */
export type DeliveryRequest =
  | { kind: 'TEST'; endpointId: string; event: WebhookEvent }
  | { kind: 'REDELIVER'; endpointId: string; eventId: string }
  | { kind: 'REPLAY'; endpointId: string; since: string };

const nullable = <T>(value: unknown): T | null => (value as T | null | undefined) ?? null;

function toEndpoint(item: Record<string, unknown>): StoredWebhookEndpoint {
  return {
    id: item.id as string,
    url: item.url as string,
    description: nullable<string>(item.description),
    eventTypes: (item.eventTypes as EventType[] | undefined) ?? [],
    enabled: item.enabled === true,
    disabledReason: nullable<DisabledReason>(item.disabledReason),
    disabledAt: nullable<string>(item.disabledAt),
    secretCiphertext: item.secretCiphertext as string,
    previousSecretCiphertext: nullable<string>(item.previousSecretCiphertext),
    previousSecretExpiresAt: nullable<string>(item.previousSecretExpiresAt),
    secretCreatedAt: item.secretCreatedAt as string,
    failingSince: nullable<string>(item.failingSince),
    lastSuccessAt: nullable<string>(item.lastSuccessAt),
    createdBy: item.createdBy as string,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

function toEvent(item: Record<string, unknown>): WebhookEvent {
  return {
    id: item.id as string,
    type: item.type as WebhookEvent['type'],
    timestamp: item.timestamp as string,
    data: (item.data as Record<string, unknown> | undefined) ?? {},
  };
}

function toAttempt(item: Record<string, unknown>): DeliveryAttempt {
  return {
    id: item.id as string,
    eventId: item.eventId as string,
    eventType: item.eventType as string,
    at: item.at as string,
    attempt: (item.attempt as number | undefined) ?? 1,
    statusCode: nullable<number>(item.statusCode),
    latencyMs: (item.latencyMs as number | undefined) ?? 0,
    error: nullable<string>(item.error),
    retryAt: nullable<string>(item.retryAt),
  };
}

/**
 * Webhooks (shared/webhooks/): the tenant's endpoints (WEBHOOK_ENDPOINT, in the tenant's partition), its event log
 * (WEBHOOK_EVENT, 30 days), each endpoint's delivery attempts (WEBHOOK_ATTEMPT, 30 days) and the admins' requests
 * for the dispatcher (WEBHOOK_REQUEST, taken from the table's stream).
 */
export function webhookRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    async list(
      t: TenantRef,
      options: { consistent: boolean } = { consistent: true },
    ): Promise<StoredWebhookEndpoint[]> {
      const items = await queryAll(store, {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': webhookKeys.endpoint(t, '').pk, ':prefix': webhookKeys.prefix },
        ConsistentRead: options.consistent,
      });
      return items.map(toEndpoint).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },

    async get(t: TenantRef, endpointId: string): Promise<StoredWebhookEndpoint | null> {
      const item = await getItem(store, webhookKeys.endpoint(t, endpointId));
      return item ? toEndpoint(item) : null;
    },

    /** An endpoint written: new (`readUpdatedAt` null), or over the version read; false when that version moved. */
    async save(t: TenantRef, endpoint: StoredWebhookEndpoint, readUpdatedAt: string | null): Promise<boolean> {
      return conditionalWrite(
        doc.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...webhookKeys.endpoint(t, endpoint.id), entity: 'WEBHOOK_ENDPOINT', ...endpoint },
            ConditionExpression: readUpdatedAt === null ? 'attribute_not_exists(pk)' : 'updatedAt = :read',
            ...(readUpdatedAt === null ? {} : { ExpressionAttributeValues: { ':read': readUpdatedAt } }),
          }),
        ),
      );
    },

    /** An endpoint deleted, as read; false when it changed or went meanwhile. */
    async delete(t: TenantRef, endpoint: StoredWebhookEndpoint): Promise<boolean> {
      return conditionalWrite(
        doc.send(
          new DeleteCommand({
            TableName: tableName,
            Key: webhookKeys.endpoint(t, endpoint.id),
            ConditionExpression: 'updatedAt = :read',
            ExpressionAttributeValues: { ':read': endpoint.updatedAt },
          }),
        ),
      );
    },

    /** A delivery answered 2xx: the endpoint is not failing (written when it was, or its last success is stale). */
    async markSucceeded(t: TenantRef, endpointId: string, at: string): Promise<void> {
      await conditionalWrite(
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: webhookKeys.endpoint(t, endpointId),
            UpdateExpression: 'SET lastSuccessAt = :at, failingSince = :null',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':at': at, ':null': null },
          }),
        ),
      );
    },

    /** A delivery failed: the endpoint is failing since now, unless it already was. */
    async markFailing(t: TenantRef, endpointId: string, at: string): Promise<void> {
      await conditionalWrite(
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: webhookKeys.endpoint(t, endpointId),
            UpdateExpression: 'SET failingSince = :at',
            ConditionExpression:
              'attribute_exists(pk) AND (attribute_not_exists(failingSince) OR failingSince = :null)',
            ExpressionAttributeValues: { ':at': at, ':null': null },
          }),
        ),
      );
    },

    /**
     * Turns off an endpoint that has failed every delivery since `failingSince` or before: true for the one caller
     * that did it (so one mail goes out), false when it was off already, succeeded since, or is gone.
     */
    async turnOffFailing(t: TenantRef, endpointId: string, failedSince: string, at: string): Promise<boolean> {
      return conditionalWrite(
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: webhookKeys.endpoint(t, endpointId),
            UpdateExpression: 'SET enabled = :false, disabledReason = :failing, disabledAt = :at, updatedAt = :at',
            ConditionExpression: 'enabled = :true AND failingSince <= :since',
            ExpressionAttributeValues: {
              ':false': false,
              ':true': true,
              ':failing': 'FAILING',
              ':at': at,
              ':since': failedSince,
            },
          }),
        ),
      );
    },

    /** An event in the tenant's log (the same event written twice is the same item). */
    async putEvent(t: TenantRef, event: WebhookEvent, now: Date): Promise<void> {
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...webhookKeys.event(t, event.timestamp, event.id),
            entity: 'WEBHOOK_EVENT',
            ...event,
            ttl: ttlAfter(now, WEBHOOK_LOG_RETENTION_MS),
          },
        }),
      );
    },

    /** One event of the log, by its id (which starts with its time: shared/webhooks/events.ts). */
    async getEvent(t: TenantRef, eventId: string): Promise<WebhookEvent | null> {
      const timestamp = eventTimeOf(eventId);
      if (!timestamp) return null;
      const item = await getItem(store, webhookKeys.event(t, timestamp, eventId), { consistent: false });
      return item ? toEvent(item) : null;
    },

    /** The tenant's events since `since`, oldest first, `limit` at most (still in the log: 30 days). */
    async eventsSince(t: TenantRef, since: string, limit: number, now: Date): Promise<WebhookEvent[]> {
      const live = ttlNow(now);
      // One page of at most `limit` (and DynamoDB's 1 MB): never the whole log of a busy tenant.
      const page = await doc.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND sk >= :since',
          ExpressionAttributeValues: { ':pk': webhookKeys.eventPartition(t), ':since': since },
          Limit: limit,
        }),
      );
      return (page.Items ?? []).filter((item) => typeof item.ttl !== 'number' || item.ttl > live).map(toEvent);
    },

    async putAttempt(t: TenantRef, endpointId: string, attempt: DeliveryAttempt): Promise<void> {
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...webhookKeys.attempt(t, endpointId, attempt.at, attempt.id),
            entity: 'WEBHOOK_ATTEMPT',
            ...attempt,
            error: attempt.error?.slice(0, 200) ?? null,
            ttl: ttlAfter(attempt.at, WEBHOOK_LOG_RETENTION_MS),
          },
        }),
      );
    },

    /** An endpoint's attempts, newest first; `after` is the sort key of the last one read (a cursor's content). */
    async attempts(t: TenantRef, endpointId: string, limit: number, after: string | null, now: Date) {
      const page = await newestFirstPage(store, webhookKeys.attemptPartition(t, endpointId), limit, after, now);
      return { items: page.items.map(toAttempt), after: page.after } satisfies AttemptPage;
    },

    /** An admin's request for the dispatcher, which reads it from the table's stream; gone a day later. */
    async putRequest(t: TenantRef, requestId: string, request: DeliveryRequest, now: Date): Promise<void> {
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...webhookKeys.request(t, requestId),
            entity: 'WEBHOOK_REQUEST',
            id: requestId,
            ...request,
            at: now.toISOString(),
            ttl: ttlAfter(now, DAY_MS),
          },
        }),
      );
    },
  };
}
