import { useEffect, useId, useRef } from 'preact/hooks';
import { type TextKey, t } from '../i18n/index.ts';
import { codeSentence, fieldSentences } from '../messages.ts';
import {
  ApiError,
  type CreateWebhookEndpointRequest,
  type UpdateWebhookEndpointRequest,
  WEBHOOK_EVENT_TYPES,
  type WebhookEndpoint,
  type WebhookEventType,
} from '../sdk.ts';
import { Field } from '../ui.tsx';

/** The service keeps at most this many endpoints per tenant. */
export const MAX_ENDPOINTS = 20;
const MAX_DESCRIPTION = 200;

/** Each event as the console names it. */
const EVENT_NAMES: Record<WebhookEventType, TextKey> = {
  'user.created': 'webhooks.event.userCreated',
  'user.verified': 'webhooks.event.userVerified',
  'user.updated': 'webhooks.event.userUpdated',
  'user.email_changed': 'webhooks.event.userEmailChanged',
  'user.status_changed': 'webhooks.event.userStatusChanged',
  'user.deleted': 'webhooks.event.userDeleted',
  'user.role_assigned': 'webhooks.event.userRoleAssigned',
  'user.role_revoked': 'webhooks.event.userRoleRevoked',
  'user.password_changed': 'webhooks.event.userPasswordChanged',
  'user.mfa_enabled': 'webhooks.event.userMfaEnabled',
  'user.mfa_disabled': 'webhooks.event.userMfaDisabled',
  'session.created': 'webhooks.event.sessionCreated',
  'session.revoked': 'webhooks.event.sessionRevoked',
  'invitation.created': 'webhooks.event.invitationCreated',
  'invitation.accepted': 'webhooks.event.invitationAccepted',
};

/** The events in groups by what they are about, as the form shows them. */
const GROUPS: { prefix: string; legend: TextKey }[] = [
  { prefix: 'user.', legend: 'webhooks.group.user' },
  { prefix: 'session.', legend: 'webhooks.group.session' },
  { prefix: 'invitation.', legend: 'webhooks.group.invitation' },
];

/** An event's name in the language in use ("Send test event"'s too); a type the console does not know as it is. */
export function eventName(type: string): string {
  if (type === 'webhook.test') return t('webhooks.event.test');
  return Object.hasOwn(EVENT_NAMES, type) ? t(EVENT_NAMES[type as WebhookEventType]) : type;
}

/** An endpoint as its form holds it: everything as typed, the events in the service's order. */
export interface Draft {
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
}

export const NEW_ENDPOINT: Draft = { url: '', description: '', eventTypes: [] };

export function draftOf(endpoint: WebhookEndpoint): Draft {
  return { url: endpoint.url, description: endpoint.description ?? '', eventTypes: inOrder(endpoint.eventTypes) };
}

const inOrder = (types: readonly WebhookEventType[]) => WEBHOOK_EVENT_TYPES.filter((type) => types.includes(type));

export const sameDraft = (a: Draft, b: Draft) => JSON.stringify(a) === JSON.stringify(b);

/** The form's own checks, as sentences by field; the service judges the address's host itself. */
export function localProblems(draft: Draft): Record<string, string> {
  const problems: Record<string, string> = {};
  const url = draft.url.trim();
  if (!url) problems.url = t('webhooks.problem.url');
  else if (!/^https?:\/\/[^/?#\s]+/i.test(url)) problems.url = t('webhooks.problem.urlForm');
  if (draft.description.trim().length > MAX_DESCRIPTION) {
    problems.description = t('webhooks.problem.description', { max: MAX_DESCRIPTION });
  }
  if (draft.eventTypes.length === 0) problems.eventTypes = t('webhooks.problem.eventTypes');
  return problems;
}

export function createBody(draft: Draft): CreateWebhookEndpointRequest {
  const description = draft.description.trim();
  return { url: draft.url.trim(), eventTypes: draft.eventTypes, ...(description ? { description } : {}) };
}

/** PATCH's body: only what changed. */
export function changesOf(endpoint: WebhookEndpoint, draft: Draft): UpdateWebhookEndpointRequest {
  const body: UpdateWebhookEndpointRequest = {};
  const url = draft.url.trim();
  const description = draft.description.trim() || null;
  if (url !== endpoint.url) body.url = url;
  if (description !== endpoint.description) body.description = description;
  if (!sameDraft({ ...draft, url: '', description: '' }, { ...draftOf(endpoint), url: '', description: '' })) {
    body.eventTypes = draft.eventTypes;
  }
  return body;
}

/** Why the service refused an address, in the language in use (its messages are the English texts' sources). */
const URL_REASONS: [RegExp, TextKey][] = [
  [/^must use https$/, 'webhooks.reason.https'],
  [/^must use http or https$/, 'webhooks.reason.https'],
  [/^must not carry user information$/, 'webhooks.reason.userInfo'],
  [/^must name a public host$/, 'webhooks.reason.publicHost'],
  [/^names a host that does not resolve$/, 'webhooks.reason.resolve'],
  [/^is not an absolute URL$/, 'webhooks.reason.absolute'],
];

const FIELD_LABELS = (): Record<string, string> => ({
  url: t('webhooks.field.url'),
  description: t('webhooks.field.description'),
  eventTypes: t('webhooks.field.eventTypes'),
});

/**
 * The service's refusal as sentences by field: an address it will not send to (WEBHOOK_URL_NOT_ALLOWED) is said at
 * the URL field, with why; a 400's other field messages at theirs.
 */
export function remoteProblems(error: unknown): Record<string, string> {
  if (error instanceof ApiError && error.code === 'WEBHOOK_URL_NOT_ALLOWED') {
    const message = error.errors.find((e) => e.path === 'url')?.message ?? '';
    const reason = URL_REASONS.find(([pattern]) => pattern.test(message))?.[1];
    return { url: reason ? `${codeSentence(error.code)} ${t(reason)}` : codeSentence(error.code) };
  }
  return fieldSentences(error, FIELD_LABELS());
}

/** The form's alert: a field's problem is said at the field, the alert only points there. */
export function alertOverrides() {
  return { WEBHOOK_URL_NOT_ALLOWED: codeSentence('VALIDATION_FAILED') };
}

/** The URL, the description and the events, for adding an endpoint and for changing one. */
export function EndpointFields(props: {
  draft: Draft;
  onChange(change: Partial<Draft>): void;
  problem(field: string): string | undefined;
}) {
  const { draft, onChange, problem } = props;
  return (
    <>
      <Field
        label={t('webhooks.field.url')}
        name="url"
        type="url"
        inputMode="url"
        required
        maxLength={2048}
        autocomplete="off"
        spellcheck={false}
        placeholder="https://"
        hint={t('webhooks.urlHint')}
        value={draft.url}
        onInput={(e) => onChange({ url: e.currentTarget.value })}
        problem={problem('url')}
      />
      <Field
        label={t('webhooks.field.descriptionOptional')}
        name="description"
        maxLength={MAX_DESCRIPTION}
        autocomplete="off"
        hint={t('webhooks.descriptionHint')}
        value={draft.description}
        onInput={(e) => onChange({ description: e.currentTarget.value })}
        problem={problem('description')}
      />
      <EventTypesField
        chosen={draft.eventTypes}
        onChange={(eventTypes) => onChange({ eventTypes })}
        problem={problem('eventTypes')}
      />
    </>
  );
}

/** A checkbox that says "some" as well as "all" and "none" (HTML has no attribute for it). */
function AllBox(props: { chosen: number; onChange(all: boolean): void }) {
  const box = useRef<HTMLInputElement>(null);
  const all = props.chosen === WEBHOOK_EVENT_TYPES.length;
  useEffect(() => {
    if (box.current) box.current.indeterminate = props.chosen > 0 && !all;
  }, [props.chosen, all]);
  return (
    <label class="all-events">
      <input ref={box} type="checkbox" checked={all} onChange={(e) => props.onChange(e.currentTarget.checked)} />
      <span class="option-title">{t('webhooks.allEvents')}</span>
    </label>
  );
}

/** The events to send, grouped by what they are about, with one box that picks them all. */
function EventTypesField(props: {
  chosen: WebhookEventType[];
  onChange(types: WebhookEventType[]): void;
  problem: string | undefined;
}) {
  const problemId = useId();
  const hintId = useId();
  const { chosen } = props;
  const toggle = (type: WebhookEventType, on: boolean) =>
    props.onChange(inOrder(on ? [...chosen, type] : chosen.filter((other) => other !== type)));
  return (
    <fieldset
      class="choice options event-types"
      aria-describedby={[props.problem ? problemId : '', hintId].filter(Boolean).join(' ')}
      aria-invalid={props.problem ? 'true' : undefined}
    >
      <legend>{t('webhooks.field.eventTypes')}</legend>
      <p class="hint" id={hintId}>
        {t('webhooks.eventTypesHint')}
      </p>
      <AllBox chosen={chosen.length} onChange={(all) => props.onChange(all ? [...WEBHOOK_EVENT_TYPES] : [])} />
      <div class="event-groups">
        {GROUPS.map((group) => (
          <fieldset key={group.prefix} class="event-group">
            <legend>{t(group.legend)}</legend>
            {WEBHOOK_EVENT_TYPES.filter((type) => type.startsWith(group.prefix)).map((type) => (
              <label key={type}>
                <input
                  type="checkbox"
                  name="eventTypes"
                  value={type}
                  checked={chosen.includes(type)}
                  onChange={(e) => toggle(type, e.currentTarget.checked)}
                />
                <span>
                  {eventName(type)} <code class="event-type">{type}</code>
                </span>
              </label>
            ))}
          </fieldset>
        ))}
      </div>
      {props.problem && (
        <p class="problem" id={problemId}>
          {props.problem}
        </p>
      )}
    </fieldset>
  );
}
