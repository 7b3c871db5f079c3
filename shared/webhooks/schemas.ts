import * as v from 'valibot';
import { ActivityQuery } from '../activity/schemas.ts';
import { EVENT_TYPES } from './events.ts';

/** The most events one "Replay since …" sends; an admin replays the rest from the last one's time. */
export const REPLAY_LIMIT = 1000;

/** At most this many endpoints per tenant. */
export const MAX_ENDPOINTS_PER_TENANT = 20;

/** An endpoint's URL: where its events are POSTed (https; the rules beyond the shape are checked when saved). */
const EndpointUrl = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.maxLength(2048, 'must be at most 2048 characters'),
  v.url('must be an absolute URL'),
);

const Description = v.nullable(
  v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.maxLength(200, 'must be at most 200 characters'),
    v.regex(/^[^\p{Cc}]*$/u, 'must not contain control characters'),
  ),
);

const EventTypes = v.pipe(
  v.array(v.picklist(EVENT_TYPES, 'must be an event type of the list')),
  v.minLength(1, 'must name at least one event type'),
  v.check((types) => new Set(types).size === types.length, 'must not name an event type twice'),
);

export const CreateWebhookEndpointRequest = v.strictObject({
  url: EndpointUrl,
  description: v.optional(Description),
  eventTypes: EventTypes,
  enabled: v.optional(v.boolean('must be true or false')),
});
export type CreateWebhookEndpointRequest = v.InferOutput<typeof CreateWebhookEndpointRequest>;

/** What is given changes; what is left out stays. Turning an endpoint on again clears why the service turned it off. */
export const UpdateWebhookEndpointRequest = v.strictObject({
  url: v.optional(EndpointUrl),
  description: v.optional(Description),
  eventTypes: v.optional(EventTypes),
  enabled: v.optional(v.boolean('must be true or false')),
});
export type UpdateWebhookEndpointRequest = v.InferOutput<typeof UpdateWebhookEndpointRequest>;

export const EndpointIdParams = v.object({ endpointId: v.pipe(v.string(), v.maxLength(64)) });

export const WebhookEndpointResponse = v.object({
  id: v.string(),
  url: v.string(),
  description: v.nullable(v.string()),
  eventTypes: v.array(v.picklist(EVENT_TYPES)),
  enabled: v.boolean(),
  /** `FAILING`: the service turned it off after 24 hours in which every delivery failed; null: on, or off by an admin. */
  disabledReason: v.nullable(v.picklist(['FAILING'])),
  disabledAt: v.nullable(v.string()),
  /** The first failed attempt since the last success; null while deliveries succeed. */
  failingSince: v.nullable(v.string()),
  /** The last delivery that got a 2xx, to the hour (a busy endpoint's deliveries do not each write it). */
  lastSuccessAt: v.nullable(v.string()),
  secretCreatedAt: v.string(),
  /** After a rotation: until when the secret before it signs too. */
  previousSecretExpiresAt: v.nullable(v.string()),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type WebhookEndpointResponse = v.InferOutput<typeof WebhookEndpointResponse>;

/** The endpoint with its signing secret: answered once, when made and when the secret is rotated, never again. */
export const WebhookEndpointWithSecret = v.object({
  ...WebhookEndpointResponse.entries,
  /** `whsec_…`: the key receivers verify `webhook-signature` with (Standard Webhooks). */
  secret: v.string(),
});

export const DeliveryAttemptResponse = v.object({
  id: v.string(),
  eventId: v.string(),
  eventType: v.string(),
  at: v.string(),
  attempt: v.number(),
  statusCode: v.nullable(v.number()),
  latencyMs: v.number(),
  error: v.nullable(v.string()),
  retryAt: v.nullable(v.string()),
});

export const DeliveryAttemptPage = v.object({
  items: v.array(DeliveryAttemptResponse),
  nextCursor: v.nullable(v.string()),
});

/** `?limit=&cursor=` of the delivery log: as an activity page's (50 by default, at most 100). */
export const AttemptsQuery = ActivityQuery;

export const RedeliverRequest = v.strictObject({
  eventId: v.pipe(v.string('must be a string'), v.maxLength(64, 'must be at most 64 characters')),
});

export const ReplayRequest = v.strictObject({
  since: v.pipe(v.string('must be a string'), v.isoTimestamp('must be an ISO 8601 timestamp')),
});

/** What was queued: the event (test, redeliver) or how many events (replay). */
export const QueuedResponse = v.object({ eventId: v.nullable(v.string()), events: v.number() });
