import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { Deps } from '../deps.ts';
import { type TenantRef, tenantOfKey } from '../store/keys.ts';
import { type DeliveryRequest, type StoredWebhookEndpoint, webhookRepo } from '../store/webhook-repo.ts';
import { eventsOf, type SourceItem, type WebhookEvent } from './events.ts';
import type { DeliveryMessage, DeliveryQueue } from './queue.ts';
import { REPLAY_LIMIT } from './schemas.ts';

/** An item of the table as the stream shows it (its new image, unmarshalled). */
type StreamItem = Record<string, unknown> & { pk?: unknown; entity?: unknown };

function firstDelivery(tenant: TenantRef, endpointId: string, event: WebhookEvent, now: Date): DeliveryMessage {
  return { ...tenant, endpointId, event, attempt: 1, firstAttemptAt: null, dueAt: now.toISOString() };
}

const wants = (endpoint: StoredWebhookEndpoint, event: WebhookEvent) =>
  endpoint.enabled && (endpoint.eventTypes as string[]).includes(event.type);

/**
 * The table's stream, filtered to the items that make events (shared/webhooks/stream-filter.ts), in: each activity or
 * audit item becomes its events (shared/webhooks/events.ts); a tenant with endpoints gets them in its event log and
 * one delivery per endpoint that wants them on the deliveries queue; the admins' requests (test event, redeliver,
 * replay) are carried out. A tenant without endpoints costs one read a batch. A failure throws: the stream hands the
 * batch again, and the events it makes again are the same events, with the same ids.
 */
export async function dispatch(deps: Deps, queue: DeliveryQueue, items: readonly StreamItem[]): Promise<number> {
  const now = deps.clock.now();
  const repo = webhookRepo(deps.store);
  const byTenant = new Map<string, { tenant: TenantRef; events: WebhookEvent[]; requests: DeliveryRequest[] }>();
  for (const item of items) {
    const tenant = typeof item.pk === 'string' ? tenantOfKey(item.pk) : null;
    if (!tenant) continue;
    const key = `${tenant.app}\n${tenant.mid}`;
    const entry = byTenant.get(key) ?? { tenant, events: [], requests: [] };
    byTenant.set(key, entry);
    if (item.entity === 'WEBHOOK_REQUEST') entry.requests.push(item as unknown as DeliveryRequest);
    else entry.events.push(...eventsOf(item as unknown as SourceItem));
  }

  const messages: DeliveryMessage[] = [];
  const published: { tenant: TenantRef; event: WebhookEvent }[] = [];
  for (const { tenant, events, requests } of byTenant.values()) {
    published.push(...events.map((event) => ({ tenant, event })));
    const endpoints = await repo.list(tenant, { consistent: false });
    if (endpoints.length === 0) continue;
    for (const event of events) {
      await repo.putEvent(tenant, event, now);
      for (const endpoint of endpoints)
        if (wants(endpoint, event)) messages.push(firstDelivery(tenant, endpoint.id, event, now));
    }
    for (const request of requests) {
      const endpoint = endpoints.find((candidate) => candidate.id === request.endpointId);
      if (!endpoint) continue;
      if (request.kind === 'TEST') {
        await repo.putEvent(tenant, request.event, now);
        messages.push(firstDelivery(tenant, endpoint.id, request.event, now));
      } else if (request.kind === 'REDELIVER') {
        const event = await repo.getEvent(tenant, request.eventId);
        if (event) messages.push(firstDelivery(tenant, endpoint.id, event, now));
      } else {
        const since = await repo.eventsSince(tenant, request.since, REPLAY_LIMIT, now);
        for (const event of since)
          if (wants(endpoint, event)) messages.push(firstDelivery(tenant, endpoint.id, event, now));
      }
    }
  }
  await queue.send(messages.map((message) => ({ message, delaySeconds: 0 })));
  await publishToEventBus(deps, published);
  return messages.length;
}

let eventBridge: EventBridgeClient | undefined;

/**
 * Context `webhookEventBus`: every event also goes to that EventBridge bus, for AWS-native consumers, with its tenant
 * (`detail.app`, `detail.mid`), its type as `detail-type` and the stack's name in `source`.
 */
async function publishToEventBus(deps: Deps, published: { tenant: TenantRef; event: WebhookEvent }[]): Promise<void> {
  const bus = deps.config.webhooks.eventBus;
  if (!bus || published.length === 0) return;
  eventBridge ??= new EventBridgeClient({ region: deps.config.region });
  for (let i = 0; i < published.length; i += 10) {
    const batch = published.slice(i, i + 10);
    const answer = await eventBridge.send(
      new PutEventsCommand({
        Entries: batch.map(({ tenant, event }) => ({
          EventBusName: bus,
          Source: `identity.${deps.requestLog.service}`,
          DetailType: event.type,
          Time: new Date(event.timestamp),
          Detail: JSON.stringify({ app: tenant.app, mid: tenant.mid, ...event }),
        })),
      }),
    );
    if (answer.FailedEntryCount) throw new Error(`EventBridge refused ${answer.FailedEntryCount} events`);
  }
}
