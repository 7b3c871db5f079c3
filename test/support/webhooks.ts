import { randomBytes } from 'node:crypto';
import type { Deps } from '#shared/deps.ts';
import { newId } from '#shared/random.ts';
import type { TenantRef } from '#shared/store/keys.ts';
import { eventIdOf, webhookRepo } from '#shared/store/webhook-repo.ts';

/**
 * Webhook fixtures written straight to the store, for the stacks that run no dispatcher or deliverer (only a stack
 * made with `webhooks` reads the table's stream): an event in a tenant's log, an attempt in an endpoint's log.
 */

/** An endpoint URL the local stack accepts (plain http on loopback); nothing listens there. */
export const LOOPBACK_HOOK = 'http://127.0.0.1:9/hook';

/** A `user.created` event in the tenant's log, as the dispatcher writes it; its id. */
export async function aStoredWebhookEvent(deps: Deps, tenant: TenantRef): Promise<string> {
  const now = new Date();
  const timestamp = now.toISOString();
  const id = eventIdOf(`source-${randomBytes(6).toString('hex')}`, 'user.created', timestamp);
  await webhookRepo(deps.store).putEvent(tenant, { id, type: 'user.created', timestamp, data: {} }, now);
  return id;
}

/** A failed attempt in an endpoint's log, as the deliverer writes it; a cursor that points just after it. */
export async function aStoredWebhookAttempt(
  deps: Deps,
  tenant: TenantRef,
  endpointId: string,
  eventId: string,
): Promise<{ id: string; cursor: string }> {
  const attempt = {
    id: newId(deps.random, 'att'),
    eventId,
    eventType: 'user.created',
    at: new Date().toISOString(),
    attempt: 1,
    statusCode: 500,
    latencyMs: 12,
    error: 'HTTP 500',
    retryAt: null,
  };
  await webhookRepo(deps.store).putAttempt(tenant, endpointId, attempt);
  // The log's cursor: the attempt's sort key alone, base64url JSON (the partition never travels).
  const cursor = Buffer.from(JSON.stringify({ sk: `${attempt.at}#${attempt.id}` }), 'utf8').toString('base64url');
  return { id: attempt.id, cursor };
}
