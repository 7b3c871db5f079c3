import * as v from 'valibot';
import { LOGIN_METHODS } from '../activity/types.ts';
import { eventIdOf } from '../store/webhook-repo.ts';

/**
 * The events a tenant's webhook endpoints can subscribe to, each made from the activity (or audit) item that the
 * change it tells of wrote in its own transaction: no change without its event, no event without its change.
 */
export const EVENT_TYPES = [
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
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** What "Send test event" sends: to the one endpoint, whatever it subscribes to. */
export const TEST_EVENT_TYPE = 'webhook.test';

const UserId = v.pipe(v.string(), v.description('The user the event is about'));
const ActorId = v.pipe(
  v.string(),
  v.description('Who made the change: the user themselves, an admin user id, or `apikey:<keyId>`'),
);
const Email = v.pipe(v.string(), v.description('An e-mail address, as the user gave it'));

/** Each type's `data`: ids and what changed, never a secret, a token or a hash. */
export const EVENT_DATA = {
  'user.created': v.object({
    userId: UserId,
    email: Email,
    via: v.pipe(
      v.picklist(['SIGNUP', 'INVITATION', 'PROVIDER']),
      v.description('How the account came to be: a verified signup, an accepted invitation, a sign-in provider'),
    ),
    actorId: ActorId,
  }),
  'user.verified': v.object({
    userId: UserId,
    email: v.pipe(v.string(), v.description('The address now proven: by a code, an invitation or a provider')),
    actorId: ActorId,
  }),
  'user.updated': v.object({
    userId: UserId,
    fields: v.pipe(
      v.array(v.picklist(['firstName', 'lastName', 'phone'])),
      v.description('The profile fields that changed (read the user for their values)'),
    ),
    actorId: ActorId,
  }),
  'user.email_changed': v.object({
    userId: UserId,
    email: v.pipe(v.string(), v.description('The new address (verified)')),
    previousEmail: v.pipe(v.string(), v.description('The address before')),
    actorId: ActorId,
  }),
  'user.status_changed': v.object({
    userId: UserId,
    status: v.pipe(v.picklist(['ACTIVE', 'DISABLED', 'COMPROMISED']), v.description('The status now')),
    actorId: ActorId,
  }),
  'user.deleted': v.object({ userId: UserId, actorId: ActorId }),
  'user.role_assigned': v.object({
    userId: UserId,
    role: v.pipe(v.string(), v.description("The role's name")),
    expiresAt: v.pipe(v.nullable(v.string()), v.description('When the grant ends; null: never')),
    actorId: ActorId,
  }),
  'user.role_revoked': v.object({
    userId: UserId,
    role: v.pipe(v.string(), v.description("The role's name")),
    actorId: ActorId,
  }),
  'user.password_changed': v.object({
    userId: UserId,
    via: v.pipe(
      v.picklist(['CHANGE', 'RESET']),
      v.description('Changed by the signed-in user, or reset by a mailed code'),
    ),
    actorId: ActorId,
  }),
  'user.mfa_enabled': v.object({ userId: UserId, factor: v.literal('TOTP'), actorId: ActorId }),
  'user.mfa_disabled': v.object({ userId: UserId, factor: v.literal('TOTP'), actorId: ActorId }),
  'session.created': v.object({
    userId: UserId,
    sessionId: v.pipe(v.nullable(v.string()), v.description('The new session')),
    method: v.pipe(v.nullable(v.picklist(LOGIN_METHODS)), v.description('How the user proved who they are')),
    actorId: ActorId,
  }),
  'session.revoked': v.object({
    userId: UserId,
    sessionId: v.pipe(v.nullable(v.string()), v.description('The session ended; null: every session of the user')),
    reason: v.pipe(
      v.picklist(['LOGOUT', 'REVOKED', 'REFRESH_TOKEN_REUSED']),
      v.description('Signed out, revoked (by the user, an admin or a newer session), or ended by a reused token'),
    ),
    actorId: ActorId,
  }),
  'invitation.created': v.object({
    userId: v.pipe(v.string(), v.description('The invited user (status INVITED until accepted)')),
    email: Email,
    actorId: ActorId,
  }),
  'invitation.accepted': v.object({ userId: UserId, email: Email, actorId: ActorId }),
} as const satisfies Record<EventType, v.GenericSchema>;

/** The body every endpoint receives (Standard Webhooks): the type, when the change was made, and its data. */
export interface WebhookEvent {
  /** The `webhook-id`: the same for every attempt and every endpoint, made from the item the change wrote. */
  id: string;
  type: EventType | typeof TEST_EVENT_TYPE;
  timestamp: string;
  data: Record<string, unknown>;
}

/** The fields of an activity or audit item the events are made from (the item as the stream shows it). */
export interface SourceItem {
  entity: string;
  id: string;
  type: string;
  at: string;
  actorId: string;
  userId?: string;
  subjectId?: string;
  method?: string;
  detail?: Record<string, unknown>;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

const STATUS_OF: Record<string, 'ACTIVE' | 'DISABLED' | 'COMPROMISED'> = {
  USER_ENABLED: 'ACTIVE',
  USER_DISABLED: 'DISABLED',
  USER_COMPROMISED: 'COMPROMISED',
};

/** The type and data of each event an item makes, before ids: none for the activity no webhook tells of. */
function eventsOfItem(item: SourceItem): { type: EventType; data: Record<string, unknown> }[] {
  const actorId = item.actorId;
  if (item.entity === 'AUDIT') {
    return item.type === 'USER_DELETED' && item.subjectId
      ? [{ type: 'user.deleted', data: { userId: item.subjectId, actorId } }]
      : [];
  }
  const userId = item.userId;
  if (item.entity !== 'ACTIVITY' || !userId) return [];
  const detail = item.detail ?? {};
  const email = text(detail.email);
  switch (item.type) {
    case 'SIGNUP': {
      if (!email) return [];
      const via = text(detail.via) ?? 'SIGNUP';
      return [
        { type: 'user.created', data: { userId, email, via, actorId } },
        { type: 'user.verified', data: { userId, email, actorId } },
        ...(via === 'INVITATION' ? [{ type: 'invitation.accepted' as const, data: { userId, email, actorId } }] : []),
      ];
    }
    case 'INVITED':
      return email ? [{ type: 'invitation.created', data: { userId, email, actorId } }] : [];
    case 'PROFILE_UPDATED':
      return [{ type: 'user.updated', data: { userId, fields: detail.fields ?? [], actorId } }];
    case 'EMAIL_CHANGE':
      return email
        ? [
            {
              type: 'user.email_changed',
              data: { userId, email, previousEmail: text(detail.previousEmail) ?? '', actorId },
            },
            { type: 'user.verified', data: { userId, email, actorId } },
          ]
        : [];
    case 'USER_ENABLED':
    case 'USER_DISABLED':
    case 'USER_COMPROMISED':
      return [{ type: 'user.status_changed', data: { userId, status: STATUS_OF[item.type], actorId } }];
    case 'ROLE_ASSIGNED':
      return [
        {
          type: 'user.role_assigned',
          data: { userId, role: text(detail.role) ?? '', expiresAt: text(detail.expiresAt), actorId },
        },
      ];
    case 'ROLE_REVOKED':
      return [{ type: 'user.role_revoked', data: { userId, role: text(detail.role) ?? '', actorId } }];
    case 'PASSWORD_CHANGE':
      return [{ type: 'user.password_changed', data: { userId, via: 'CHANGE', actorId } }];
    case 'PASSWORD_RESET':
      return [{ type: 'user.password_changed', data: { userId, via: 'RESET', actorId } }];
    case 'TOTP_ENABLED':
      return [{ type: 'user.mfa_enabled', data: { userId, factor: 'TOTP', actorId } }];
    case 'TOTP_DISABLED':
      return [{ type: 'user.mfa_disabled', data: { userId, factor: 'TOTP', actorId } }];
    case 'LOGIN':
      return [
        {
          type: 'session.created',
          data: { userId, sessionId: text(detail.sessionId), method: text(item.method), actorId },
        },
      ];
    case 'LOGOUT':
      return [
        { type: 'session.revoked', data: { userId, sessionId: text(detail.sessionId), reason: 'LOGOUT', actorId } },
      ];
    case 'SESSION_REVOKED':
      return [
        { type: 'session.revoked', data: { userId, sessionId: text(detail.sessionId), reason: 'REVOKED', actorId } },
      ];
    case 'REFRESH_TOKEN_REUSED':
      return [
        {
          type: 'session.revoked',
          data: { userId, sessionId: text(detail.sessionId), reason: 'REFRESH_TOKEN_REUSED', actorId },
        },
      ];
    default:
      return [];
  }
}

/** The events an activity or audit item makes, with their ids and the time of the change. */
export function eventsOf(item: SourceItem): WebhookEvent[] {
  return eventsOfItem(item).map(({ type, data }) => ({
    id: eventIdOf(item.id, type, item.at),
    type,
    timestamp: item.at,
    data,
  }));
}

/** The activity types that make events: what the stream's filter lets through (shared/webhooks/stream-filter.ts). */
export const EVENT_ACTIVITY_TYPES = [
  'SIGNUP',
  'INVITED',
  'PROFILE_UPDATED',
  'EMAIL_CHANGE',
  'USER_ENABLED',
  'USER_DISABLED',
  'USER_COMPROMISED',
  'ROLE_ASSIGNED',
  'ROLE_REVOKED',
  'PASSWORD_CHANGE',
  'PASSWORD_RESET',
  'TOTP_ENABLED',
  'TOTP_DISABLED',
  'LOGIN',
  'LOGOUT',
  'SESSION_REVOKED',
  'REFRESH_TOKEN_REUSED',
] as const;

/** What each event tells, for the OpenAPI document and the console. */
const EVENT_SUMMARIES: Record<EventType | typeof TEST_EVENT_TYPE, string> = {
  'user.created': 'An account came to be: a verified signup, an accepted invitation, or a sign-in provider',
  'user.verified': "A user's e-mail address was proven (at signup, or a changed address)",
  'user.updated': 'A user changed their names or phone',
  'user.email_changed': "A user's e-mail address changed (the new one proven)",
  'user.status_changed': 'An admin made a user ACTIVE, DISABLED or COMPROMISED',
  'user.deleted': 'A user was deleted, with everything of theirs',
  'user.role_assigned': 'A role was granted to a user (with its end, if any)',
  'user.role_revoked': 'A role was taken from a user',
  'user.password_changed': "A user's password was changed or reset",
  'user.mfa_enabled': 'A user turned on TOTP',
  'user.mfa_disabled': "A user's TOTP was turned off (by them, or reset by an admin)",
  'session.created': 'A user signed in: a new session, and how they proved who they are',
  'session.revoked': 'A session ended: signed out, revoked, or a reused refresh token',
  'invitation.created': 'An admin invited someone: an INVITED account and its invitation mail',
  'invitation.accepted': 'An invitation was accepted: the account is ACTIVE',
  'webhook.test': 'Sent by "Send test event": to one endpoint, whatever it subscribes to',
};

/** The body of one event type: `{ type, timestamp, data }`. */
function bodyOf(type: string, data: v.GenericSchema) {
  return v.object({
    type: v.literal(type),
    timestamp: v.pipe(v.string(), v.description('When the change was made (ISO 8601, UTC)')),
    data,
  });
}

/** Every event type with its summary and body (the OpenAPI document's `webhooks`). */
export function webhookDocs(): Record<string, { summary: string; body: v.GenericSchema }> {
  const test = v.object({ endpointId: v.string(), actorId: ActorId });
  return Object.fromEntries([
    ...EVENT_TYPES.map((type) => [type, { summary: EVENT_SUMMARIES[type], body: bodyOf(type, EVENT_DATA[type]) }]),
    [TEST_EVENT_TYPE, { summary: EVENT_SUMMARIES[TEST_EVENT_TYPE], body: bodyOf(TEST_EVENT_TYPE, test) }],
  ]);
}
