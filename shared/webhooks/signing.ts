import { createHmac, randomBytes } from 'node:crypto';
import type { TenantRef } from '../store/keys.ts';

/** The vault context of an endpoint's signing secret: it decrypts for this tenant's endpoint only. */
export function secretContext(tenant: TenantRef, endpointId: string): Record<string, string> {
  return { purpose: 'webhook', app: tenant.app, mid: tenant.mid, endpoint: endpointId };
}

/** A signing secret as the merchant sees it once: `whsec_` and 32 random bytes in base64 (Standard Webhooks). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The key bytes of a `whsec_…` secret. */
function keyOf(secret: string): Buffer {
  return Buffer.from(secret.slice('whsec_'.length), 'base64');
}

/**
 * The three Standard Webhooks headers of one attempt: `webhook-signature` holds one `v1,<HMAC-SHA256>` per secret
 * (during a rotation's 24 hours the new one and the old one), so a receiver verifying with either accepts it.
 */
export function signedHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: Date,
  body: string,
): Record<string, string> {
  const seconds = Math.floor(timestamp.getTime() / 1000).toString();
  const signed = `${id}.${seconds}.${body}`;
  return {
    'webhook-id': id,
    'webhook-timestamp': seconds,
    'webhook-signature': secrets
      .map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(signed).digest('base64')}`)
      .join(' '),
  };
}
