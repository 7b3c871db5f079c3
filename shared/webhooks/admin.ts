import type { Principal, UserPrincipal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { fail, failField } from '../errors.ts';
import { publicUrlProblem } from '../http/outbound-url.ts';
import { newId } from '../random.ts';
import { requireRecentAuthentication } from '../sessions/recent-authentication.ts';
import type { TenantRef } from '../store/keys.ts';
import { decodeSortKeyCursor, encodeSortKeyCursor } from '../store/sort-key-cursor.ts';
import { DAY_MS } from '../store/ttl.ts';
import { eventIdOf, type StoredWebhookEndpoint, WEBHOOK_LOG_RETENTION_MS, webhookRepo } from '../store/webhook-repo.ts';
import { TEST_EVENT_TYPE, type WebhookEvent } from './events.ts';
import type { CreateWebhookEndpointRequest, UpdateWebhookEndpointRequest, WebhookEndpointResponse } from './schemas.ts';
import { MAX_ENDPOINTS_PER_TENANT, REPLAY_LIMIT } from './schemas.ts';
import { newSigningSecret, secretContext } from './signing.ts';

/** How long the secret before a rotation keeps signing beside the new one: time to deploy the new one. */
export const ROTATION_OVERLAP_MS = DAY_MS;

export function toEndpointResponse(endpoint: StoredWebhookEndpoint): WebhookEndpointResponse {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    eventTypes: endpoint.eventTypes,
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason,
    disabledAt: endpoint.disabledAt,
    failingSince: endpoint.failingSince,
    lastSuccessAt: endpoint.lastSuccessAt,
    secretCreatedAt: endpoint.secretCreatedAt,
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt,
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
  };
}

/**
 * Every webhook route: a signed-in admin. An API key never reads or changes an endpoint: an endpoint receives every
 * account's changes, so whoever sets one up must be a person who signed in.
 */
function requireAdminUser(principal: Principal): UserPrincipal {
  if (principal.kind !== 'user') throw fail('FORBIDDEN', 'API keys cannot read or change webhook endpoints');
  return principal;
}

/** Changes need a recent sign-in too: a stolen session must not point the tenant's events at a server of its own. */
function requireRecentAdmin(deps: Deps, principal: Principal): UserPrincipal {
  const user = requireAdminUser(principal);
  requireRecentAuthentication(deps, principal);
  return user;
}

/** An endpoint URL: https, no credentials, a public host (http on loopback in local runs only). */
async function checkUrl(deps: Deps, url: string): Promise<void> {
  const problem = await publicUrlProblem(url, { allowLoopback: deps.config.webhooks.allowLoopback });
  if (problem) throw failField('url', problem, 'WEBHOOK_URL_NOT_ALLOWED');
}

async function encryptSecret(deps: Deps, tenant: TenantRef, endpointId: string, secret: string): Promise<string> {
  return deps.vault.encrypt(new TextEncoder().encode(secret), secretContext(tenant, endpointId));
}

async function found(deps: Deps, tenant: TenantRef, endpointId: string): Promise<StoredWebhookEndpoint> {
  const endpoint = await webhookRepo(deps.store).get(tenant, endpointId);
  if (!endpoint) throw fail('NOT_FOUND');
  return endpoint;
}

export async function listWebhookEndpoints(deps: Deps, tenant: TenantRef, principal: Principal) {
  requireAdminUser(principal);
  return (await webhookRepo(deps.store).list(tenant)).map(toEndpointResponse);
}

export async function getWebhookEndpoint(deps: Deps, tenant: TenantRef, principal: Principal, endpointId: string) {
  requireAdminUser(principal);
  return toEndpointResponse(await found(deps, tenant, endpointId));
}

/** POST /webhook-endpoints: the URL checked, a new secret made, encrypted, and answered this once. */
export async function createWebhookEndpoint(
  deps: Deps,
  tenant: TenantRef,
  principal: Principal,
  body: CreateWebhookEndpointRequest,
) {
  const admin = requireRecentAdmin(deps, principal);
  await checkUrl(deps, body.url);
  const repo = webhookRepo(deps.store);
  if ((await repo.list(tenant)).length >= MAX_ENDPOINTS_PER_TENANT) throw fail('WEBHOOK_LIMIT_REACHED');
  const now = deps.clock.now().toISOString();
  const id = newId(deps.random, 'whe');
  const secret = newSigningSecret();
  const endpoint: StoredWebhookEndpoint = {
    id,
    url: body.url,
    description: body.description ?? null,
    eventTypes: body.eventTypes,
    enabled: body.enabled ?? true,
    disabledReason: null,
    disabledAt: body.enabled === false ? now : null,
    secretCiphertext: await encryptSecret(deps, tenant, id, secret),
    previousSecretCiphertext: null,
    previousSecretExpiresAt: null,
    secretCreatedAt: now,
    failingSince: null,
    lastSuccessAt: null,
    createdBy: admin.userId,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await repo.save(tenant, endpoint, null))) throw fail('CONFLICT');
  return { ...toEndpointResponse(endpoint), secret };
}

/** Writes a change over the version read: a change made meanwhile by another admin answers 409 CONFLICT. */
async function saveOver(deps: Deps, tenant: TenantRef, read: StoredWebhookEndpoint, next: StoredWebhookEndpoint) {
  if (!(await webhookRepo(deps.store).save(tenant, next, read.updatedAt))) {
    throw fail('CONFLICT', 'the endpoint changed meanwhile; read it again and retry');
  }
}

export async function updateWebhookEndpoint(
  deps: Deps,
  tenant: TenantRef,
  principal: Principal,
  endpointId: string,
  body: UpdateWebhookEndpointRequest,
) {
  requireRecentAdmin(deps, principal);
  const endpoint = await found(deps, tenant, endpointId);
  if (body.url !== undefined) await checkUrl(deps, body.url);
  const now = deps.clock.now().toISOString();
  const turnedOn = body.enabled === true && !endpoint.enabled;
  const turnedOff = body.enabled === false && endpoint.enabled;
  const next: StoredWebhookEndpoint = {
    ...endpoint,
    url: body.url ?? endpoint.url,
    description: body.description === undefined ? endpoint.description : body.description,
    eventTypes: body.eventTypes ?? endpoint.eventTypes,
    enabled: body.enabled ?? endpoint.enabled,
    // On again: why it went off no longer holds, and its failures start counting afresh.
    ...(turnedOn && { disabledReason: null, disabledAt: null, failingSince: null }),
    ...(turnedOff && { disabledReason: null, disabledAt: now }),
    updatedAt: now,
  };
  await saveOver(deps, tenant, endpoint, next);
  return toEndpointResponse(next);
}

export async function deleteWebhookEndpoint(deps: Deps, tenant: TenantRef, principal: Principal, endpointId: string) {
  requireRecentAdmin(deps, principal);
  const endpoint = await found(deps, tenant, endpointId);
  if (!(await webhookRepo(deps.store).delete(tenant, endpoint))) {
    throw fail('CONFLICT', 'the endpoint changed meanwhile; read it again and retry');
  }
}

/**
 * POST /webhook-endpoints/{id}/secret: a new secret, answered once; the one before keeps signing beside it for 24
 * hours (each delivery carries both signatures), so receivers can move to the new one without missing an event.
 */
export async function rotateWebhookSecret(deps: Deps, tenant: TenantRef, principal: Principal, endpointId: string) {
  requireRecentAdmin(deps, principal);
  const endpoint = await found(deps, tenant, endpointId);
  const now = deps.clock.now();
  const secret = newSigningSecret();
  const next: StoredWebhookEndpoint = {
    ...endpoint,
    secretCiphertext: await encryptSecret(deps, tenant, endpoint.id, secret),
    previousSecretCiphertext: endpoint.secretCiphertext,
    previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
    secretCreatedAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await saveOver(deps, tenant, endpoint, next);
  return { ...toEndpointResponse(next), secret };
}

/** An attempt key's shape, `<ISO time>#att_<id>`: the only cursor content taken. */
const ATTEMPT_KEY = /^\d{4}-\d{2}-\d{2}T[0-9:.]+Z#att_[0-9a-z]{20}$/;

/** GET /webhook-endpoints/{id}/attempts: the endpoint's delivery log, newest first (30 days). */
export async function listWebhookAttempts(
  deps: Deps,
  tenant: TenantRef,
  principal: Principal,
  endpointId: string,
  query: { limit?: number | undefined; cursor?: string | undefined },
) {
  requireAdminUser(principal);
  await found(deps, tenant, endpointId);
  const after = query.cursor ? decodeSortKeyCursor(query.cursor, ATTEMPT_KEY) : null;
  const page = await webhookRepo(deps.store).attempts(tenant, endpointId, query.limit ?? 50, after, deps.clock.now());
  return { items: page.items, nextCursor: page.after ? encodeSortKeyCursor(page.after) : null };
}

/** A turned-off endpoint is sent nothing, a test neither: turn it on first. */
function requireOn(endpoint: StoredWebhookEndpoint): void {
  if (!endpoint.enabled) throw fail('CONFLICT', 'the endpoint is turned off; turn it on first');
}

/** POST /webhook-endpoints/{id}/test: a `webhook.test` event to this endpoint alone, whatever it subscribes to. */
export async function sendTestEvent(deps: Deps, tenant: TenantRef, principal: Principal, endpointId: string) {
  const admin = requireAdminUser(principal);
  const endpoint = await found(deps, tenant, endpointId);
  requireOn(endpoint);
  const now = deps.clock.now();
  const requestId = newId(deps.random, 'whr');
  const event: WebhookEvent = {
    id: eventIdOf(requestId, TEST_EVENT_TYPE, now.toISOString()),
    type: TEST_EVENT_TYPE,
    timestamp: now.toISOString(),
    data: { endpointId, actorId: admin.userId },
  };
  await webhookRepo(deps.store).putRequest(tenant, requestId, { kind: 'TEST', endpointId, event }, now);
  return { eventId: event.id, events: 1 };
}

/** POST /webhook-endpoints/{id}/redeliver: one event of the log (30 days) again, with its own `webhook-id`. */
export async function redeliverEvent(
  deps: Deps,
  tenant: TenantRef,
  principal: Principal,
  endpointId: string,
  eventId: string,
) {
  requireAdminUser(principal);
  const endpoint = await found(deps, tenant, endpointId);
  requireOn(endpoint);
  const repo = webhookRepo(deps.store);
  if (!(await repo.getEvent(tenant, eventId))) throw fail('NOT_FOUND', 'no such event in the last 30 days');
  const now = deps.clock.now();
  await repo.putRequest(tenant, newId(deps.random, 'whr'), { kind: 'REDELIVER', endpointId, eventId }, now);
  return { eventId, events: 1 };
}

/**
 * POST /webhook-endpoints/{id}/replay: every event since `since` (at most 30 days back, 1000 at a time) that the
 * endpoint subscribes to, again: for a receiver that was down. Answers how many will be sent.
 */
export async function replayEvents(
  deps: Deps,
  tenant: TenantRef,
  principal: Principal,
  endpointId: string,
  sinceText: string,
) {
  requireAdminUser(principal);
  const endpoint = await found(deps, tenant, endpointId);
  requireOn(endpoint);
  const now = deps.clock.now();
  const since = new Date(sinceText);
  if (since.getTime() < now.getTime() - WEBHOOK_LOG_RETENTION_MS) {
    throw failField('since', 'must be within the last 30 days');
  }
  if (since.getTime() > now.getTime()) throw failField('since', 'must not be in the future');
  const repo = webhookRepo(deps.store);
  const events = await repo.eventsSince(tenant, since.toISOString(), REPLAY_LIMIT, now);
  const wanted = events.filter((event) => (endpoint.eventTypes as string[]).includes(event.type)).length;
  if (wanted > 0) {
    await repo.putRequest(
      tenant,
      newId(deps.random, 'whr'),
      { kind: 'REPLAY', endpointId, since: since.toISOString() },
      now,
    );
  }
  return { eventId: null, events: wanted };
}
