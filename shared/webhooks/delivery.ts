import type { Deps } from '../deps.ts';
import { describeError } from '../log.ts';
import { newId } from '../random.ts';
import type { TenantRef } from '../store/keys.ts';
import { merchantRepo } from '../store/merchant-repo.ts';
import { HOUR_MS } from '../store/ttl.ts';
import { userRepo } from '../store/user-repo.ts';
import { type StoredWebhookEndpoint, webhookRepo } from '../store/webhook-repo.ts';
import { postEvent } from './post.ts';
import { type DeliveryMessage, type DeliveryQueue, MAX_DELAY_SECONDS } from './queue.ts';
import { secretContext, signedHeaders } from './signing.ts';

/** How stale an endpoint's `lastSuccessAt` may be: a busy endpoint's deliveries do not each write it. */
const LAST_SUCCESS_GRANULARITY_MS = HOUR_MS;

/** How long a delivery is retried, from its first attempt: past it, the dead-letter queue. */
export const RETRY_WINDOW_MS = 24 * HOUR_MS;
const FIRST_WAIT_MS = 5_000;
const LONGEST_WAIT_MS = 6 * HOUR_MS;

/**
 * The wait after failed attempt `attempt`: 5 s, then four times longer each time up to 6 hours (5 s, 20 s, 80 s,
 * 5 min, 21 min, 85 min, 5.7 h, 6 h…), each drawn between 80 % and 100 % of it, so that the retries of many
 * deliveries that failed together (a receiver down) do not all come back at the same moment.
 */
export function retryWaitMs(attempt: number, random: () => number = Math.random): number {
  const full = Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 4 ** (attempt - 1));
  return Math.round(full * (0.8 + 0.2 * random()));
}

/**
 * Signing secrets by ciphertext, for the life of the process: a busy endpoint's deliveries decrypt its secret once,
 * not once each (KMS is paid by the call). A rotation writes a new ciphertext, so no stale secret can be read here.
 */
const secrets = new Map<string, string>();
const SECRETS_KEPT = 500;

async function secretOf(deps: Deps, tenant: TenantRef, endpointId: string, ciphertext: string): Promise<string> {
  const known = secrets.get(ciphertext);
  if (known) return known;
  const plain = new TextDecoder().decode(await deps.vault.decrypt(ciphertext, secretContext(tenant, endpointId)));
  if (secrets.size >= SECRETS_KEPT) secrets.delete(secrets.keys().next().value as string);
  secrets.set(ciphertext, plain);
  return plain;
}

/** The secrets that sign now: the current one, and the one before it during its 24 hours of overlap. */
async function signingSecrets(deps: Deps, tenant: TenantRef, endpoint: StoredWebhookEndpoint, now: Date) {
  const current = await secretOf(deps, tenant, endpoint.id, endpoint.secretCiphertext);
  const previous =
    endpoint.previousSecretCiphertext &&
    endpoint.previousSecretExpiresAt &&
    endpoint.previousSecretExpiresAt > now.toISOString()
      ? await secretOf(deps, tenant, endpoint.id, endpoint.previousSecretCiphertext)
      : null;
  return previous ? [current, previous] : [current];
}

/** What one message came to: counted by the deliverer (WebhookDeliveries, WebhookFailures). */
export type DeliveryResult = 'DELIVERED' | 'FAILED' | 'WAITING' | 'DROPPED';

/**
 * One message of the deliveries queue: not yet due, it goes back on the queue for the rest of its wait; for an
 * endpoint gone or turned off, it is dropped; else the event is signed and POSTed once, the attempt logged, and a
 * failure put back on the queue for a retry (same event, same `webhook-id`) until 24 hours after the first attempt,
 * then sent to the dead-letter queue, and the endpoint turned off (its creator told by mail) if nothing it was sent
 * since then got through.
 */
export async function deliver(deps: Deps, queue: DeliveryQueue, message: DeliveryMessage): Promise<DeliveryResult> {
  const scale = deps.config.webhooks.timeScale;
  const now = deps.clock.now();
  const waitLeftMs = Date.parse(message.dueAt) - now.getTime();
  if (waitLeftMs > 1000 * scale) {
    await queue.send([{ message, delaySeconds: Math.min(MAX_DELAY_SECONDS, waitLeftMs / 1000) }]);
    return 'WAITING';
  }
  const tenant: TenantRef = { app: message.app, mid: message.mid };
  const repo = webhookRepo(deps.store);
  const endpoint = await repo.get(tenant, message.endpointId);
  if (!endpoint?.enabled) return 'DROPPED';

  const body = JSON.stringify({
    type: message.event.type,
    timestamp: message.event.timestamp,
    data: message.event.data,
  });
  const headers = signedHeaders(await signingSecrets(deps, tenant, endpoint, now), message.event.id, now, body);
  const outcome = await postEvent(endpoint.url, headers, body, {
    allowLoopback: deps.config.webhooks.allowLoopback,
    now: () => deps.clock.now().getTime(),
  });
  const at = now.toISOString();
  const firstAttemptAt = message.firstAttemptAt ?? at;
  const delivered = outcome.error === null;
  const windowEnds = Date.parse(firstAttemptAt) + RETRY_WINDOW_MS * scale;
  const retryAt = delivered
    ? null
    : now.getTime() < windowEnds
      ? new Date(Math.min(windowEnds, now.getTime() + retryWaitMs(message.attempt) * scale))
      : null;

  await repo.putAttempt(tenant, endpoint.id, {
    id: newId(deps.random, 'att'),
    eventId: message.event.id,
    eventType: message.event.type,
    at,
    attempt: message.attempt,
    statusCode: outcome.statusCode,
    latencyMs: outcome.latencyMs,
    error: outcome.error,
    retryAt: retryAt?.toISOString() ?? null,
  });
  if (delivered) {
    // Well again, or the last success more than an hour ago: written (not at every delivery, each a write).
    const lastSuccess = endpoint.lastSuccessAt ? Date.parse(endpoint.lastSuccessAt) : 0;
    if (endpoint.failingSince || now.getTime() - lastSuccess > LAST_SUCCESS_GRANULARITY_MS) {
      await repo.markSucceeded(tenant, endpoint.id, at);
    }
    return 'DELIVERED';
  }
  if (!endpoint.failingSince) await repo.markFailing(tenant, endpoint.id, at);
  if (retryAt) {
    const next: DeliveryMessage = {
      ...message,
      attempt: message.attempt + 1,
      firstAttemptAt,
      dueAt: retryAt.toISOString(),
    };
    await queue.send([
      { message: next, delaySeconds: Math.min(MAX_DELAY_SECONDS, (retryAt.getTime() - now.getTime()) / 1000) },
    ]);
    return 'FAILED';
  }
  await queue.deadLetter({ ...message, firstAttemptAt });
  // Failing since this delivery's first attempt at least, and nothing got through since: off, and its creator told.
  if (await repo.turnOffFailing(tenant, endpoint.id, firstAttemptAt, at)) {
    deps.log.info('webhook endpoint turned off', { app: tenant.app, mid: tenant.mid, endpointId: endpoint.id });
    await tellCreator(deps, tenant, endpoint);
  }
  return 'FAILED';
}

/** The mail to the admin who made an endpoint the service turned off; a mail that fails is logged, not retried. */
async function tellCreator(deps: Deps, tenant: TenantRef, endpoint: StoredWebhookEndpoint): Promise<void> {
  try {
    const [merchant, creator] = await Promise.all([
      merchantRepo(deps.store).get(tenant),
      userRepo(deps.store).get(tenant, endpoint.createdBy),
    ]);
    if (!merchant || !creator || creator.status !== 'ACTIVE') return;
    await deps.mailer.send(
      merchant,
      creator.email,
      { kind: 'WEBHOOK_DISABLED', url: endpoint.url },
      merchant.defaultLanguage,
    );
  } catch (error) {
    deps.log.error('webhook endpoint turned off: the mail to its creator failed', {
      app: tenant.app,
      mid: tenant.mid,
      endpointId: endpoint.id,
      ...describeError(error),
    });
  }
}
