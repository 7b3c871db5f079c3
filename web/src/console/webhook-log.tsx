import type { HTMLAttributes } from 'preact';
import { useState } from 'preact/hooks';
import { t, tn } from '../i18n/index.ts';
import { fieldSentences } from '../messages.ts';
import type { WebhookDeliveryAttempt, WebhookEndpoint } from '../sdk.ts';
import { useSession } from '../session.tsx';
import {
  Button,
  Field,
  Notice,
  onSubmit,
  Problem,
  ScrollingTable,
  TableHead,
  useAction,
  useCursorPages,
} from '../ui.tsx';
import { EmptyState, Loading, SkeletonRows } from './table-states.tsx';
import { When } from './users-shared.tsx';
import { eventName } from './webhook-fields.tsx';

/** Attempts asked for at a time. */
const LOG_PAGE = 25;
/** How far back the log (and a replay) reaches. */
const KEPT_DAYS = 30;

/** What the service's refusals mean for a turned-off endpoint. */
const offSentences = () => ({ CONFLICT: t('webhooks.problem.off') });

/** "Send test event": a `webhook.test` event to this endpoint alone; its attempt shows in the log. */
export function SendTest(props: { endpoint: WebhookEndpoint; onQueued(): void }) {
  const { client } = useSession();
  const [done, setDone] = useState(false);
  const send = useAction(async () => {
    setDone(false);
    await client.admin.webhooks.sendTest(props.endpoint.id);
    setDone(true);
    props.onQueued();
  });
  return (
    <section class="panel" aria-labelledby="test-heading">
      <h2 id="test-heading">{t('webhooks.test.heading')}</h2>
      <p>{t('webhooks.test.intro')}</p>
      <Problem error={send.error} overrides={offSentences()} />
      <div class="actions">
        <Button type="button" kind="secondary" busy={send.busy} onClick={() => send.run()}>
          {t('webhooks.test.send')}
        </Button>
      </div>
      {done && <Notice>{t('webhooks.test.queued')}</Notice>}
    </section>
  );
}

/** A time as `<input type="datetime-local">` takes it: the reader's own zone, to the minute. */
function localInputValue(date: Date): string {
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}

/** The service's words about `since`, as sentences. */
const SINCE_PREDICATES: [RegExp, 'webhooks.replay.tooOld' | 'webhooks.replay.future'][] = [
  [/within the last 30 days/, 'webhooks.replay.tooOld'],
  [/must not be in the future/, 'webhooks.replay.future'],
];

/** "Replay since …": every event since a time that the endpoint subscribes to, again (for a receiver that was down). */
export function Replay(props: { endpoint: WebhookEndpoint }) {
  const { client } = useSession();
  const [since, setSince] = useState(() => localInputValue(new Date(Date.now() - 60 * 60_000)));
  const [local, setLocal] = useState<string | null>(null);
  const [answer, setAnswer] = useState<number | null>(null);
  const replay = useAction(async () => {
    setAnswer(null);
    const at = new Date(since);
    if (!since || Number.isNaN(at.getTime())) {
      setLocal(t('webhooks.replay.missing'));
      return;
    }
    setLocal(null);
    const queued = await client.admin.webhooks.replay(props.endpoint.id, at.toISOString());
    setAnswer(queued.events);
  });
  const remote = fieldSentences(replay.error, { since: t('webhooks.replay.since') }).since;
  const said = SINCE_PREDICATES.find(([pattern]) => remote && pattern.test(remote));
  const problem = local ?? (said ? t(said[1]) : remote);
  const now = new Date();
  return (
    <section class="panel" aria-labelledby="replay-heading">
      <h2 id="replay-heading">{t('webhooks.replay.heading')}</h2>
      <p>{t('webhooks.replay.intro', { days: KEPT_DAYS })}</p>
      <form onSubmit={onSubmit(replay.run)} onInput={() => setAnswer(null)} noValidate class="replay-form">
        <Field
          label={t('webhooks.replay.since')}
          name="since"
          type="datetime-local"
          required
          min={localInputValue(new Date(now.getTime() - KEPT_DAYS * 24 * 3600_000))}
          max={localInputValue(now)}
          value={since}
          onInput={(e) => setSince(e.currentTarget.value)}
          problem={problem}
        />
        <Problem error={problem ? null : replay.error} overrides={offSentences()} />
        <Button busy={replay.busy} kind="secondary">
          {t('webhooks.replay.send')}
        </Button>
      </form>
      {answer !== null && (
        <Notice>{answer === 0 ? t('webhooks.replay.none') : tn('webhooks.replay.queued', answer)}</Notice>
      )}
    </section>
  );
}

const logColumns = () => [
  t('webhooks.log.time'),
  t('webhooks.log.event'),
  t('webhooks.log.attempt'),
  t('webhooks.log.status'),
  t('webhooks.log.latency'),
  t('webhooks.log.error'),
];

function StatusCode(props: { attempt: WebhookDeliveryAttempt }) {
  const code = props.attempt.statusCode;
  if (code === null) return <span class="muted">{t('webhooks.log.noAnswer')}</span>;
  const ok = code >= 200 && code < 300;
  return <span class={`badge ${ok ? 'delivery-ok' : 'delivery-failed'}`}>{code}</span>;
}

/**
 * The endpoint's delivery log, newest first, 25 at a time with "Load more": each attempt's time, event, number,
 * status code, latency and error (and when it is tried again), with "Redeliver" to send its event once more.
 * `version` changes when the page queued something: the log is read again from the top.
 */
export function DeliveryLog(props: { endpoint: WebhookEndpoint; version: number; onRefresh(): void }) {
  const { client } = useSession();
  const id = props.endpoint.id;
  const log = useCursorPages(
    (cursor) => client.admin.webhooks.attempts(id, { limit: LOG_PAGE, cursor }),
    [id, props.version],
  );
  const items = log.items;
  const loading = items === null && !log.error;
  const [redelivered, setRedelivered] = useState<string | null>(null);
  const redeliver = useAction(async (attempt: WebhookDeliveryAttempt) => {
    setRedelivered(null);
    await client.admin.webhooks.redeliver(id, attempt.eventId);
    setRedelivered(t('webhooks.log.redelivered', { event: eventName(attempt.eventType) }));
  });

  return (
    <section class="panel" aria-labelledby="log-heading">
      <h2 id="log-heading">{t('webhooks.log.heading')}</h2>
      <p class="muted">{t('webhooks.log.intro', { days: KEPT_DAYS })}</p>
      <div class="actions log-actions">
        <Button type="button" kind="secondary small" busy={log.busy} onClick={props.onRefresh}>
          {t('webhooks.log.refresh')}
        </Button>
      </div>
      {redelivered && <Notice>{redelivered}</Notice>}
      <Problem error={redeliver.error} overrides={offSentences()} />
      {items?.length === 0 && <EmptyState>{t('webhooks.log.none')}</EmptyState>}
      {(loading || (items && items.length > 0)) && (
        <ScrollingTable label={t('webhooks.log.table')} busy={loading}>
          {loading && <Loading>{t('webhooks.log.loading')}</Loading>}
          <table class="delivery-log">
            <TableHead columns={logColumns()} actions />
            {loading && <SkeletonRows columns={7} rows={3} />}
            <tbody>
              {items?.map((attempt, index) => {
                // The first attempt of a page just loaded takes the focus (a row, by the table's rules).
                const focus = log.focusTarget(index) as HTMLAttributes<HTMLTableRowElement>;
                return (
                  <tr key={attempt.id} {...focus}>
                    <td class="nowrap">
                      <When at={attempt.at} />
                    </td>
                    <td>
                      {eventName(attempt.eventType)}
                      <code class="event-type">{attempt.eventType}</code>
                    </td>
                    <td>{attempt.attempt}</td>
                    <td>
                      <StatusCode attempt={attempt} />
                    </td>
                    <td class="nowrap">{t('webhooks.log.ms', { ms: attempt.latencyMs })}</td>
                    <td class="delivery-error">
                      {attempt.error ?? <span class="muted">{t('webhooks.log.noError')}</span>}
                      {attempt.retryAt && (
                        <span class="retry">
                          {t('webhooks.log.retryAt')} <When at={attempt.retryAt} />
                        </span>
                      )}
                    </td>
                    <td>
                      <button
                        type="button"
                        class="button secondary small"
                        aria-label={t('webhooks.log.redeliverFull', {
                          event: eventName(attempt.eventType),
                          attempt: attempt.attempt,
                        })}
                        disabled={redeliver.busy}
                        onClick={() => redeliver.run(attempt)}
                      >
                        {t('webhooks.log.redeliver')}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollingTable>
      )}
      <Problem error={log.error} />
      {(log.hasMore || log.error) && (
        <button type="button" class="button secondary" aria-busy={log.busy} disabled={log.busy} onClick={log.more}>
          {items === null ? t('boot.tryAgain') : t('webhooks.log.more')}
        </button>
      )}
    </section>
  );
}
