import type { WebhookEventType } from './types.js';

/**
 * Every event a webhook endpoint can subscribe to, in the service's order: the users', the sessions', the
 * invitations'. The check below fails to compile when the service's list has one more.
 */
export const WEBHOOK_EVENT_TYPES = [
  'user.created',
  'user.verified',
  'user.updated',
  'user.email_changed',
  'user.status_changed',
  'user.deleted',
  'user.role_assigned',
  'user.role_revoked',
  'user.password_changed',
  'user.mfa_enabled',
  'user.mfa_disabled',
  'session.created',
  'session.revoked',
  'invitation.created',
  'invitation.accepted',
] as const satisfies readonly WebhookEventType[];

type Missing = Exclude<WebhookEventType, (typeof WEBHOOK_EVENT_TYPES)[number]>;
/** `never` unless the list above misses an event type of the wire's. */
const complete: [Missing] extends [never] ? true : Missing = true;
void complete;
