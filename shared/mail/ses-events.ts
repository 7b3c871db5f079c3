import type { Context, SNSEvent } from 'aws-lambda';
import type { Deps } from '../deps.ts';
import { type ContextWithDeps, invocationDeps } from '../http/invocation-deps.ts';
import { type LogFields, withFields } from '../log.ts';
import type { TenantRef } from '../store/keys.ts';
import { mailSuppressionRepo, type SuppressionReason } from '../store/mail-suppression-repo.ts';
import type { MailMessage } from './message.ts';
import { MAIL_TAG } from './tags.ts';

/**
 * SES's feedback on the mail the service sent: SES event publishing
 * (the configuration set SES_CONFIGURATION_SET names, shared/mail/ses-mailer.ts)
 * publishes each mail's events to an SNS topic, and SNS invokes this function
 * with them. The record format is AWS's ("Contents of event data that Amazon
 * SES publishes to Amazon SNS", SES Developer Guide): `eventType`, `mail` with
 * the tags the mail was sent with (`app`, `mid`, `kind`: the tenant and the
 * kind of mail), and `bounce` or `complaint`.
 *
 * - A Permanent (hard) bounce suppresses each bounced recipient in the
 *   tenant the tags name; a complaint each complained recipient. The service
 *   then stops mailing that address (shared/auth/mail-delivery.ts) until an
 *   admin clears it (DELETE /users/{id}/mail-suppression).
 * - A Transient or Undetermined bounce, a delivery delay, a reject and any
 *   other event are logged, and suppress nothing.
 * - A message that is not such a record (not JSON, no tenant tags, no
 *   recipients) is logged and skipped, never thrown: a throw would have the
 *   same message delivered again and again.
 *
 * Logged by kind, type and tenant, never with an address. A store fault is
 * thrown (Lambda retries the invocation; the writes are idempotent: the
 * latest event per address wins, by its time).
 */
export function sesEventsHandler(depsOf: () => Deps) {
  return async (
    event: SNSEvent,
    context?: Pick<Context, 'awsRequestId'> & Pick<ContextWithDeps, 'deps'>,
  ): Promise<void> => {
    const deps = invocationDeps(context, depsOf);
    const log = withFields(deps.log, { requestId: context?.awsRequestId });
    for (const record of Array.isArray(event?.Records) ? event.Records : []) {
      await recordSesEvent({ ...deps, log }, record?.Sns?.Message, record?.Sns?.MessageId);
    }
  };
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

/** Every kind of mail (the Record is exhaustive: a new kind fails to compile until it is here). */
const MAIL_KINDS: Record<MailMessage['kind'], true> = {
  SIGNUP_CODE: true,
  LOGIN_CODE: true,
  PASSWORD_RESET_CODE: true,
  PASSWORD_RESET_BY_ADMIN: true,
  ALREADY_REGISTERED: true,
  INVITATION: true,
  PASSWORD_CHANGED: true,
  PASSWORD_RESET_DONE: true,
  EMAIL_CHANGE_CODE: true,
  EMAIL_CHANGED: true,
  EMAIL_CHANGE_REQUESTED: true,
  REAUTH_CODE: true,
  ACCOUNT_LOCKED: true,
  WEBHOOK_DISABLED: true,
};

/** Our ids (`app_…`, `mid_…`) as tags carry them; anything else names no tenant of ours. */
const TENANT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The first value of a tag of the mail (SES publishes each tag as a list of values). */
function tagOf(mail: Json, name: string): string | null {
  const tags = isObject(mail.tags) ? mail.tags : {};
  const values = tags[name];
  return Array.isArray(values) ? text(values[0]) : null;
}

/** An ISO 8601 UTC time with milliseconds (toISOString), as every stored time, or null. */
function isoTime(value: unknown): string | null {
  const raw = text(value);
  if (!raw) return null;
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** A plain address, trimmed and lower-cased; `Name <address>` gives its address. Null for anything else. */
function addressOf(value: unknown): string | null {
  const raw = text(value);
  if (!raw) return null;
  const inBrackets = /<([^<>]+)>\s*$/.exec(raw)?.[1];
  const address = (inBrackets ?? raw).trim().toLowerCase();
  return /^[^\s@<>,;"]+@[^\s@<>,;"]+$/.test(address) ? address : null;
}

function recipientsOf(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  const addresses = list.map((recipient) => addressOf(isObject(recipient) ? recipient.emailAddress : null));
  return [...new Set(addresses.filter((address): address is string => address !== null))];
}

/** One SNS message: parsed, judged, and for a hard bounce or a complaint, recorded per recipient. */
async function recordSesEvent(deps: Deps, message: unknown, snsMessageId: unknown): Promise<void> {
  const fields: LogFields = { snsMessageId: text(snsMessageId) ?? undefined };
  const skip = (reason: string, more: LogFields = {}) =>
    deps.log.error('ses event skipped', { ...fields, reason, ...more });

  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof message === 'string' ? message : '');
  } catch {
    return skip('not JSON');
  }
  if (!isObject(parsed)) return skip('not an object');
  // `notificationType` is how SES names it in an identity's own feedback notifications (no configuration set).
  const eventType = text(parsed.eventType) ?? text(parsed.notificationType);
  if (!eventType) return skip('no eventType');
  const mail = isObject(parsed.mail) ? parsed.mail : {};
  const app = tagOf(mail, MAIL_TAG.app);
  const mid = tagOf(mail, MAIL_TAG.mid);
  const kindTag = tagOf(mail, MAIL_TAG.kind);
  const mailKind = kindTag && Object.hasOwn(MAIL_KINDS, kindTag) ? kindTag : null;
  Object.assign(fields, {
    eventType,
    mailKind: mailKind ?? undefined,
    sesMessageId: text(mail.messageId) ?? undefined,
  });
  if (!app || !mid || !TENANT_ID.test(app) || !TENANT_ID.test(mid)) return skip('no tenant tags');
  Object.assign(fields, { app, mid });
  const tenant: TenantRef = { app, mid };

  switch (eventType) {
    case 'Bounce': {
      const bounce = isObject(parsed.bounce) ? parsed.bounce : {};
      const bounceType = text(bounce.bounceType);
      Object.assign(fields, {
        bounceType: bounceType ?? undefined,
        bounceSubType: text(bounce.bounceSubType) ?? undefined,
      });
      if (bounceType !== 'Permanent') {
        // Transient (a full mailbox, a message too large, …) or Undetermined: SES may deliver later; nothing to stop.
        deps.log.info('ses event: bounce not permanent, nothing suppressed', fields);
        return;
      }
      return suppress(deps, tenant, 'BOUNCE', recipientsOf(bounce.bouncedRecipients), {
        at: isoTime(bounce.timestamp) ?? isoTime(mail.timestamp),
        feedbackId: text(bounce.feedbackId),
        mailKind,
        fields,
        skip,
      });
    }
    case 'Complaint': {
      const complaint = isObject(parsed.complaint) ? parsed.complaint : {};
      Object.assign(fields, { complaintFeedbackType: text(complaint.complaintFeedbackType) ?? undefined });
      return suppress(deps, tenant, 'COMPLAINT', recipientsOf(complaint.complainedRecipients), {
        at: isoTime(complaint.timestamp) ?? isoTime(mail.timestamp),
        feedbackId: text(complaint.feedbackId),
        mailKind,
        fields,
        skip,
      });
    }
    case 'DeliveryDelay': {
      const delay = isObject(parsed.deliveryDelay) ? parsed.deliveryDelay : {};
      deps.log.info('ses event: delivery delayed, nothing suppressed', {
        ...fields,
        delayType: text(delay.delayType) ?? undefined,
      });
      return;
    }
    case 'Reject': {
      const reject = isObject(parsed.reject) ? parsed.reject : {};
      // SES refused the mail before sending it (a virus, say): nothing about the address.
      deps.log.info('ses event: mail rejected by SES, nothing suppressed', {
        ...fields,
        rejectReason: text(reject.reason) ?? undefined,
      });
      return;
    }
    default:
      // Send, Delivery, Open, Click…: only there if the configuration set publishes them; nothing to do.
      deps.log.info('ses event ignored', fields);
  }
}

/** Records the suppression of each recipient (none named: logged and skipped). */
async function suppress(
  deps: Deps,
  tenant: TenantRef,
  reason: SuppressionReason,
  recipients: string[],
  event: {
    at: string | null;
    feedbackId: string | null;
    mailKind: string | null;
    fields: LogFields;
    skip: (reason: string) => void;
  },
): Promise<void> {
  if (recipients.length === 0) return event.skip('no recipients');
  const now = deps.clock.now();
  const at = event.at ?? now.toISOString();
  const repo = mailSuppressionRepo(deps.store);
  let recorded = 0;
  for (const address of recipients) {
    const written = await repo.record(
      tenant,
      address,
      {
        reason,
        at,
        mailKind: event.mailKind,
        feedbackId: event.feedbackId,
      },
      now,
    );
    if (written) recorded++;
  }
  deps.log.info('ses event: mail suppressed', {
    ...event.fields,
    reason,
    recipients: recipients.length,
    // Fewer than the recipients when this event, or a later one, was already recorded (SNS delivered it again).
    recorded,
  });
}
