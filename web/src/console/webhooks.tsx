import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { t, tn, tx } from '../i18n/index.ts';
import { codeSentence, when } from '../messages.ts';
import { useReauthenticated } from '../reauth.tsx';
import { ApiError, WEBHOOK_EVENT_TYPES, type WebhookEndpoint, type WebhookEndpointWithSecret } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Button, Notice, onSubmit, Problem, useAction, useResource } from '../ui.tsx';
import { Confirm } from './confirm.tsx';
import { ConsolePage } from './layout.tsx';
import { LeaveGuard } from './leave-guard.tsx';
import { ListPanel } from './list-panel.tsx';
import { ShownOnce } from './shown-once.tsx';
import { Loading } from './table-states.tsx';
import { When } from './users-shared.tsx';
import {
  alertOverrides,
  changesOf,
  createBody,
  type Draft,
  draftOf,
  EndpointFields,
  localProblems,
  MAX_ENDPOINTS,
  NEW_ENDPOINT,
  remoteProblems,
  sameDraft,
} from './webhook-fields.tsx';
import { DeliveryLog, Replay, SendTest } from './webhook-log.tsx';
import './webhooks.css';
import { carryNews, useCarriedNews } from './carried-news.ts';

const LIST = '/console/webhooks';
const pageOf = (id: string) => `${LIST}/${encodeURIComponent(id)}`;

function useWebhooksApi() {
  return useSession().client.admin.webhooks;
}

/**
 * What the page just left has to say on the next: news (an endpoint deleted), or the secret of the endpoint just
 * added, shown there once. Kept here, not in the address, so that a reload or a link never shows it again.
 */
let carriedSecret: WebhookEndpointWithSecret | null = null;

/** The endpoint's health, in words: turned off by the service or an admin, failing, or not. */
function healthOf(endpoint: WebhookEndpoint): { text: string; tone: 'bad' | 'off' | 'ok' } {
  if (endpoint.disabledReason === 'FAILING') return { text: t('webhooks.health.turnedOffFailing'), tone: 'bad' };
  if (!endpoint.enabled) return { text: t('webhooks.health.turnedOff'), tone: 'off' };
  if (endpoint.failingSince) {
    return { text: t('webhooks.health.failingSince', { when: when(endpoint.failingSince) }), tone: 'bad' };
  }
  return { text: t('webhooks.health.ok'), tone: 'ok' };
}

function Health(props: { endpoint: WebhookEndpoint }) {
  const health = healthOf(props.endpoint);
  return <span class={`health health-${health.tone}`}>{health.text}</span>;
}

function OnOff(props: { on: boolean }) {
  return (
    <span class={`badge ${props.on ? 'endpoint-on' : 'endpoint-off'}`}>
      {t(props.on ? 'webhooks.on' : 'webhooks.off')}
    </span>
  );
}

const eventCount = (endpoint: WebhookEndpoint) =>
  endpoint.eventTypes.length === WEBHOOK_EVENT_TYPES.length
    ? t('webhooks.allEventsCount')
    : tn('webhooks.eventCount', endpoint.eventTypes.length);

// On or off and how deliveries go share a column: the three fit a phone without scrolling.
const columns = () => [t('webhooks.column.url'), t('webhooks.column.events'), t('webhooks.column.health')];

/** `/console/webhooks`: the tenant's endpoints, each with its events, on or off, and how its deliveries go. */
export function WebhookEndpoints() {
  const api = useWebhooksApi();
  const list = useResource(() => api.list(), [api]);
  const news = useCarriedNews();
  const full = (list.data?.length ?? 0) >= MAX_ENDPOINTS;
  const add = (
    <a class="button primary" href={`${LIST}/new`}>
      {t('webhooks.add')}
    </a>
  );

  return (
    <ConsolePage title={t('webhooks.title')}>
      <p class="muted">{t('webhooks.intro')}</p>
      {news && <Notice>{news}</Notice>}
      <ListPanel
        headingId="endpoints-heading"
        heading={t('webhooks.heading')}
        list={list}
        empty={t('webhooks.empty')}
        add={add}
        full={full ? codeSentence('WEBHOOK_LIMIT_REACHED') : null}
        table={{
          label: t('webhooks.table'),
          loading: t('webhooks.loading'),
          class: 'endpoints-table',
          columns: columns(),
        }}
        row={(endpoint) => (
          <>
            <td class="endpoint-url">
              <a href={pageOf(endpoint.id)}>{endpoint.url}</a>
              {endpoint.description && <span class="endpoint-description">{endpoint.description}</span>}
            </td>
            <td class="nowrap">{eventCount(endpoint)}</td>
            <td class="endpoint-health">
              <OnOff on={endpoint.enabled} />
              <Health endpoint={endpoint} />
            </td>
          </>
        )}
      />
    </ConsolePage>
  );
}

/** After a refused save, the first field with a problem is brought into view and focused: where the fix is. */
function useFocusFirstProblem(form: { current: HTMLFormElement | null }, after: readonly unknown[]) {
  useEffect(() => {
    const first = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!first) return;
    first.scrollIntoView({ block: 'center' });
    // A fieldset takes no focus: its first box does.
    const target = first.tagName === 'FIELDSET' ? first.querySelector<HTMLElement>('input') : first;
    target?.focus({ preventScroll: true });
  }, after);
}

function FormProblems(props: { local: Record<string, string>; error: unknown }) {
  if (Object.keys(props.local).length > 0) {
    return (
      <p class="alert" role="alert">
        {codeSentence('VALIDATION_FAILED')}
      </p>
    );
  }
  return <Problem error={props.error} overrides={alertOverrides()} />;
}

/** `/console/webhooks/new`: the URL, a description and the events; added, the endpoint's page shows its secret once. */
export function NewWebhookEndpoint() {
  const api = useWebhooksApi();
  const { route } = useLocation();
  const reauth = useReauthenticated();
  const [draft, setDraft] = useState<Draft>(NEW_ENDPOINT);
  const [local, setLocal] = useState<Record<string, string>>({});
  const formRef = useRef<HTMLFormElement>(null);

  const save = useAction(async () => {
    const problems = localProblems(draft);
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    // Signed in more than 10 minutes ago: the prompt asks the admin to confirm it is them, then the same call again.
    const created = await reauth.run(() => api.create(createBody(draft)));
    carriedSecret = created;
    route(pageOf(created.id));
  });
  const remote = remoteProblems(save.error);
  const problem = (field: string) => local[field] ?? remote[field];
  useFocusFirstProblem(formRef, [local, save.error]);

  return (
    <ConsolePage title={t('webhooks.addTitle')}>
      <p>
        <a href={LIST}>{t('webhooks.back')}</a>
      </p>
      <p class="muted">{t('webhooks.addIntro')}</p>
      <section class="panel" aria-labelledby="add-heading">
        <h2 id="add-heading">{t('webhooks.addHeading')}</h2>
        <form ref={formRef} onSubmit={onSubmit(save.run)} noValidate>
          <EndpointFields draft={draft} onChange={(change) => setDraft({ ...draft, ...change })} problem={problem} />
          <FormProblems local={local} error={save.error} />
          <div class="actions">
            <Button busy={save.busy}>{t('webhooks.addButton')}</Button>
            <a class="button secondary" href={LIST}>
              {t('webhooks.cancel')}
            </a>
          </div>
        </form>
      </section>
      <LeaveGuard dirty={!sameDraft(draft, NEW_ENDPOINT) && !save.busy} question={t('webhooks.leaveQuestion')} />
      {reauth.prompt}
    </ConsolePage>
  );
}

/**
 * `/console/webhooks/:id`: the endpoint's facts and its secret (shown once after it is added or rotated), its
 * settings, on and off, a test event, a replay, the delivery log, and its deletion.
 */
export function WebhookEndpointPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const api = useWebhooksApi();
  const { data: endpoint, error, loading, reload, setData } = useResource(() => api.get(id), [api, id]);
  const [shown, setShown] = useState<{ endpoint: WebhookEndpointWithSecret; rotated: boolean } | null>(() => {
    const secret = carriedSecret?.id === id ? carriedSecret : null;
    carriedSecret = null;
    return secret ? { endpoint: secret, rotated: false } : null;
  });
  const [savedNews, setSavedNews] = useState<string | null>(null);
  const [logVersion, setLogVersion] = useState(0);
  const refreshLog = () => setLogVersion((version) => version + 1);
  const facts = useRef<HTMLHeadingElement>(null);

  if (error || !endpoint) {
    const gone = error instanceof ApiError && error.code === 'NOT_FOUND';
    return (
      <ConsolePage title={t('webhooks.endpointTitle')}>
        <p>
          <a href={LIST}>{t('webhooks.back')}</a>
        </p>
        {error ? (
          <div class="panel">
            <Problem error={error} overrides={{ NOT_FOUND: t('webhooks.gone') }} />
            {!gone && (
              <Button type="button" kind="secondary" busy={loading} onClick={reload}>
                {t('boot.tryAgain')}
              </Button>
            )}
          </div>
        ) : (
          <section class="panel" aria-labelledby="facts-heading" aria-busy="true">
            <h2 id="facts-heading">{t('webhooks.factsHeading')}</h2>
            <Loading>{t('webhooks.loadingOne')}</Loading>
            <div aria-hidden="true">
              {[2, 0, 1].map((width, line) => (
                <span key={line} class={`skeleton skeleton-${width}`} />
              ))}
            </div>
          </section>
        )}
      </ConsolePage>
    );
  }

  return (
    <ConsolePage title={t('webhooks.endpointTitle')}>
      <p>
        <a href={LIST}>{t('webhooks.back')}</a>
      </p>
      {shown && (
        <NewSecret
          endpoint={shown.endpoint}
          rotated={shown.rotated}
          onDone={() => {
            setShown(null);
            facts.current?.focus();
          }}
        />
      )}
      <Facts
        endpoint={endpoint}
        headingRef={facts}
        onRotated={(rotated) => {
          setData(rotated);
          setSavedNews(null);
          setShown({ endpoint: rotated, rotated: true });
        }}
      />
      <OnOffPanel
        endpoint={endpoint}
        onChanged={(changed) => {
          setData(changed);
          setSavedNews(null);
        }}
      />
      <SendTest endpoint={endpoint} onQueued={refreshLog} />
      <DeliveryLog endpoint={endpoint} version={logVersion} onRefresh={refreshLog} />
      <Replay endpoint={endpoint} />
      {/* A new answer remounts the form (its key), saying it was saved when a save made it. */}
      <EditEndpoint
        key={endpoint.updatedAt}
        endpoint={endpoint}
        news={savedNews}
        onSaved={(saved) => {
          setData(saved);
          setSavedNews(t('webhooks.saved'));
        }}
      />
      <DeleteEndpoint endpoint={endpoint} />
    </ConsolePage>
  );
}

/** The endpoint's secret, just made: shown this once, with what to do with it. */
function NewSecret(props: { endpoint: WebhookEndpointWithSecret; rotated: boolean; onDone(): void }) {
  const { endpoint } = props;
  return (
    <ShownOnce
      id="secret-heading"
      heading={t(props.rotated ? 'webhooks.secret.rotatedHeading' : 'webhooks.secret.addedHeading')}
      value={endpoint.secret}
      noun={t('webhooks.secret.noun')}
      testId="webhook-secret"
      onDone={props.onDone}
    >
      <strong>{t('webhooks.secret.copyNow')}</strong> {t('webhooks.secret.use')}{' '}
      {props.rotated &&
        endpoint.previousSecretExpiresAt &&
        t('webhooks.secret.oldKeepsWorking', { when: when(endpoint.previousSecretExpiresAt) })}
    </ShownOnce>
  );
}

/** What the endpoint is: its URL, events, secret's age and the rotation's overlap; and "Rotate secret". */
function Facts(props: {
  endpoint: WebhookEndpoint;
  headingRef: { current: HTMLHeadingElement | null };
  onRotated(endpoint: WebhookEndpointWithSecret): void;
}) {
  const api = useWebhooksApi();
  const reauth = useReauthenticated();
  const { endpoint } = props;
  return (
    <section class="panel" aria-labelledby="facts-heading">
      <h2 id="facts-heading" tabIndex={-1} ref={props.headingRef}>
        {t('webhooks.factsHeading')}
      </h2>
      <dl class="facts endpoint-facts">
        <dt>{t('webhooks.field.url')}</dt>
        <dd>
          <code data-testid="endpoint-url">{endpoint.url}</code>
        </dd>
        {endpoint.description && (
          <>
            <dt>{t('webhooks.field.description')}</dt>
            <dd>{endpoint.description}</dd>
          </>
        )}
        <dt>{t('webhooks.column.events')}</dt>
        <dd>{eventCount(endpoint)}</dd>
        <dt>{t('webhooks.column.health')}</dt>
        <dd>
          <Health endpoint={endpoint} />
        </dd>
        <dt>{t('webhooks.lastSuccess')}</dt>
        <dd data-testid="last-success">
          <When at={endpoint.lastSuccessAt} never={t('webhooks.noSuccessYet')} />
          {/* Written at the first success, then at most once an hour: each write is a write unit. */}
          {endpoint.lastSuccessAt && <span class="muted"> {t('webhooks.lastSuccessHourly')}</span>}
        </dd>
        <dt>{t('webhooks.secretMade')}</dt>
        <dd>
          <When at={endpoint.secretCreatedAt} />
        </dd>
        {endpoint.previousSecretExpiresAt && Date.parse(endpoint.previousSecretExpiresAt) > Date.now() && (
          <>
            <dt>{t('webhooks.previousSecret')}</dt>
            <dd>{t('webhooks.previousSecretUntil', { when: when(endpoint.previousSecretExpiresAt) })}</dd>
          </>
        )}
        <dt>{t('webhooks.created')}</dt>
        <dd>
          <When at={endpoint.createdAt} />
        </dd>
      </dl>
      <div class="actions">
        <Confirm
          label={t('webhooks.rotate')}
          question={t('webhooks.rotateQuestion')}
          confirmLabel={t('webhooks.rotateConfirm')}
          overrides={{ NOT_FOUND: t('webhooks.gone') }}
          onConfirm={async () => props.onRotated(await reauth.run(() => api.rotateSecret(endpoint.id)))}
        />
      </div>
      {reauth.prompt}
    </section>
  );
}

/**
 * On or off: turned off, nothing is sent to it (nor tested, nor replayed). Turned off by the service after a day of
 * failed deliveries, it says so, and turning it on starts counting afresh.
 */
function OnOffPanel(props: { endpoint: WebhookEndpoint; onChanged(endpoint: WebhookEndpoint): void }) {
  const api = useWebhooksApi();
  const reauth = useReauthenticated();
  const { endpoint } = props;
  const [news, setNews] = useState<string | null>(null);
  const toggle = useAction(async () => {
    setNews(null);
    const changed = await reauth.run(() => api.update(endpoint.id, { enabled: !endpoint.enabled }));
    props.onChanged(changed);
    setNews(t(changed.enabled ? 'webhooks.turnedOnNews' : 'webhooks.turnedOffNews'));
  });
  return (
    <section class="panel" aria-labelledby="onoff-heading">
      <h2 id="onoff-heading">{t('webhooks.onOffHeading')}</h2>
      {endpoint.disabledReason === 'FAILING' ? (
        <p class="warning">
          <strong>{t('webhooks.health.turnedOffFailing')}</strong>{' '}
          {endpoint.disabledAt && t('webhooks.failingSinceOff', { when: when(endpoint.disabledAt) })}{' '}
          {t('webhooks.failingFix')}
        </p>
      ) : (
        <p>
          <OnOff on={endpoint.enabled} /> {t(endpoint.enabled ? 'webhooks.onNote' : 'webhooks.offNote')}
        </p>
      )}
      <Problem error={toggle.error} overrides={{ NOT_FOUND: t('webhooks.gone') }} />
      <div class="actions">
        <Button type="button" kind={endpoint.enabled ? 'secondary' : 'primary'} busy={toggle.busy} onClick={toggle.run}>
          {t(endpoint.enabled ? 'webhooks.turnOff' : 'webhooks.turnOn')}
        </Button>
      </div>
      {news && <Notice>{news}</Notice>}
      {reauth.prompt}
    </section>
  );
}

/** The endpoint's settings: Save sends what changed (PATCH). */
function EditEndpoint(props: {
  endpoint: WebhookEndpoint;
  /** What the last save did, said by the Save button. */
  news: string | null;
  onSaved(endpoint: WebhookEndpoint): void;
}) {
  const api = useWebhooksApi();
  const reauth = useReauthenticated();
  const { endpoint } = props;
  const saved = useMemo(() => draftOf(endpoint), [endpoint]);
  const [draft, setDraft] = useState<Draft>(saved);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [done, setDone] = useState<string | null>(props.news);
  const formRef = useRef<HTMLFormElement>(null);
  const dirty = !sameDraft(draft, saved);

  const save = useAction(async () => {
    setDone(null);
    const problems = localProblems(draft);
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    const body = changesOf(endpoint, draft);
    if (Object.keys(body).length === 0) {
      setDraft(saved);
      setDone(t('webhooks.nothingChanged'));
      return;
    }
    props.onSaved(await reauth.run(() => api.update(endpoint.id, body)));
  });
  const remote = remoteProblems(save.error);
  const problem = (field: string) => local[field] ?? remote[field];
  useFocusFirstProblem(formRef, [local, save.error]);

  return (
    <section class="panel" aria-labelledby="edit-heading">
      <h2 id="edit-heading">{t('webhooks.editHeading')}</h2>
      <form ref={formRef} onSubmit={onSubmit(save.run)} onInput={() => setDone(null)} noValidate>
        <EndpointFields draft={draft} onChange={(change) => setDraft({ ...draft, ...change })} problem={problem} />
        <FormProblems local={local} error={save.error} />
        <div class="actions">
          <Button busy={save.busy}>{t('webhooks.save')}</Button>
          {dirty && !save.busy && (
            <span class="endpoint-unsaved">
              <span aria-hidden="true">●</span> {t('webhooks.unsaved')}
            </span>
          )}
        </div>
        {done && <Notice>{done}</Notice>}
      </form>
      <LeaveGuard dirty={dirty && !save.busy} question={t('webhooks.leaveQuestion')} />
      {reauth.prompt}
    </section>
  );
}

function DeleteEndpoint(props: { endpoint: WebhookEndpoint }) {
  const api = useWebhooksApi();
  const { route } = useLocation();
  const reauth = useReauthenticated();
  const { endpoint } = props;
  return (
    <section class="panel" aria-labelledby="delete-heading">
      <h2 id="delete-heading">{t('webhooks.deleteHeading')}</h2>
      <p>{t('webhooks.deleteIntro')}</p>
      <Confirm
        label={t('webhooks.delete')}
        danger
        question={tx('webhooks.deleteQuestion', { url: <strong class="break">{endpoint.url}</strong> })}
        confirmLabel={t('webhooks.deleteConfirm')}
        onConfirm={async () => {
          try {
            await reauth.run(() => api.delete(endpoint.id));
            carryNews(t('webhooks.deleted', { url: endpoint.url }));
          } catch (error) {
            if (!(error instanceof ApiError && error.code === 'NOT_FOUND')) throw error;
            carryNews(t('webhooks.deletedAlready', { url: endpoint.url }));
          }
          route(LIST);
        }}
      />
      {reauth.prompt}
    </section>
  );
}
