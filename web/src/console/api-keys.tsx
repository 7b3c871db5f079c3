import { useRef, useState } from 'preact/hooks';
import { t, tx } from '../i18n/index.ts';
import { fieldSentences, when } from '../messages.ts';
import { useReauthenticated } from '../reauth.tsx';
import type { ApiKey, GeneratedApiKey } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Button, Field, Notice, onSubmit, Problem, ScrollingTable, TableHead, useAction, useResource } from '../ui.tsx';
import { Confirm } from './confirm.tsx';
import { ConsolePage } from './layout.tsx';
import { deleteOnce, useListNews } from './list-news.ts';
import { ShownOnce } from './shown-once.tsx';
import { EmptyState, Loading, SkeletonRows } from './table-states.tsx';

/** Sharper sentences for what the service refuses here (a function: said in the language in use). */
const keySentences = () => ({ FORBIDDEN: t('apiKeys.problem.forbidden') });

/**
 * The merchant's admin API keys: listed by label and prefix (never the key),
 * created by an administrator (the key is shown this once), revoked at once.
 * Every console user may create them: the contract lets any ADMIN or
 * SUPER_ADMIN user do so (keys themselves cannot, and never reach this page);
 * the service asks for a recent sign-in, which the "confirm it is you" prompt gives.
 */
export function ApiKeys() {
  const { client, user } = useSession();
  const merchant = useRef<string | null>(null);
  const merchantId = async () => {
    merchant.current ??= (await client.admin.merchant.get()).id;
    return merchant.current;
  };
  const list = useResource(async () => client.admin.merchant.apiKeys.list(await merchantId()));
  const keys = list.data;
  // Who made each key, by e-mail address; the id is shown when the list cannot be read.
  const people = useResource(async () => new Map((await client.admin.users.list()).map((u) => [u.id, u.email])));
  const { news, setNews, heading: listHeading, say } = useListNews(list);
  const [created, setCreated] = useState<GeneratedApiKey | null>(null);
  const [label, setLabel] = useState('');
  const labelField = useRef<HTMLInputElement>(null);
  const [localProblem, setLocalProblem] = useState<string | undefined>();
  const reauth = useReauthenticated();

  const create = useAction(async () => {
    setNews(null);
    if (!label.trim()) {
      setLocalProblem(t('apiKeys.problem.label'));
      return;
    }
    setLocalProblem(undefined);
    const id = await merchantId();
    // Signed in more than 10 minutes ago: the prompt asks the user to confirm it is them, then the same call again.
    const key = await reauth.run(() => client.admin.merchant.apiKeys.create(id, { label: label.trim() }));
    setCreated(key);
    setLabel('');
    await list.reload();
  });
  const remote = fieldSentences(create.error, { label: t('apiKeys.label') });

  const revoke = async (key: ApiKey) => {
    const id = merchant.current;
    if (!id) return;
    const said = await deleteOnce(() => client.admin.merchant.apiKeys.revoke(id, key.keyId), {
      now: t('apiKeys.revoked', { label: key.label }),
      already: t('apiKeys.revokedAlready', { label: key.label }),
    });
    if (created?.keyId === key.keyId) setCreated(null);
    await say(said);
  };

  const createdBy = (key: ApiKey) =>
    key.createdBy === user?.id
      ? t('apiKeys.you', { email: user.email })
      : (people.data?.get(key.createdBy) ?? key.createdBy);

  return (
    <ConsolePage title={t('apiKeys.title')}>
      <p class="muted">{tx('apiKeys.intro', { header: <code>X-Api-Key</code> })}</p>
      {created && (
        <NewKey
          generated={created}
          onDone={() => {
            setCreated(null);
            listHeading.current?.focus();
          }}
        />
      )}
      {news && <Notice>{news}</Notice>}
      <section class="panel" aria-labelledby="keys-heading">
        <h2 id="keys-heading" tabIndex={-1} ref={listHeading}>
          {t('apiKeys.heading')}
        </h2>
        <Problem error={list.error} />
        {list.error && (
          <button type="button" class="button secondary" onClick={list.reload}>
            {t('apiKeys.tryAgain')}
          </button>
        )}
        {keys && keys.length === 0 && (
          <EmptyState
            action={
              <button type="button" class="button secondary" onClick={() => labelField.current?.focus()}>
                {t('apiKeys.createFirst')}
              </button>
            }
          >
            {t('apiKeys.empty')}
          </EmptyState>
        )}
        {keys === null && !list.error && <Loading>{t('apiKeys.loading')}</Loading>}
        {(keys === null ? !list.error : keys.length > 0) && (
          <ScrollingTable label={t('apiKeys.title')} busy={keys === null}>
            <table>
              <TableHead
                columns={[
                  t('apiKeys.label'),
                  t('apiKeys.prefix'),
                  t('apiKeys.createdBy'),
                  t('apiKeys.created'),
                  t('apiKeys.lastUsed'),
                ]}
                actions
              />
              {keys === null && <SkeletonRows columns={6} rows={2} />}
              <tbody>
                {keys?.map((key) => (
                  <tr key={key.keyId}>
                    <th scope="row">{key.label}</th>
                    <td>
                      <code class="key-prefix">{key.keyPrefix}…</code>
                    </td>
                    <td>{createdBy(key)}</td>
                    <td>{when(key.createdAt)}</td>
                    <td>{key.lastUsedAt ? when(key.lastUsedAt) : <span class="muted">{t('apiKeys.never')}</span>}</td>
                    <td>
                      <Confirm
                        label={t('apiKeys.revoke')}
                        fullLabel={t('apiKeys.revokeFull', { label: key.label })}
                        danger
                        question={tx('apiKeys.revokeQuestion', {
                          label: <strong>{key.label}</strong>,
                          prefix: key.keyPrefix,
                        })}
                        confirmLabel={t('apiKeys.revokeConfirm')}
                        overrides={keySentences()}
                        onConfirm={() => revoke(key)}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollingTable>
        )}
      </section>
      <section class="panel" aria-labelledby="new-key-heading">
        <h2 id="new-key-heading">{t('apiKeys.new')}</h2>
        <form onSubmit={onSubmit(create.run)} noValidate>
          <Field
            label={t('apiKeys.label')}
            name="label"
            required
            maxLength={64}
            autocomplete="off"
            inputRef={labelField}
            hint={t('apiKeys.labelHint')}
            value={label}
            onInput={(e) => setLabel(e.currentTarget.value)}
            problem={localProblem ?? remote.label}
          />
          <Problem error={create.error} overrides={keySentences()} />
          <Button busy={create.busy}>{t('apiKeys.create')}</Button>
        </form>
      </section>
      {reauth.prompt}
    </ConsolePage>
  );
}

/** The key just made, whole: shown this once, with a copy button. */
function NewKey(props: { generated: GeneratedApiKey; onDone(): void }) {
  return (
    <ShownOnce
      id="created-key-heading"
      heading={t('apiKeys.shown.heading', { label: props.generated.label })}
      value={props.generated.apiKey}
      noun={t('apiKeys.shown.noun')}
      testId="new-api-key"
      onDone={props.onDone}
    >
      <strong>{t('apiKeys.shown.copyNow')}</strong> {t('apiKeys.shown.store')}
    </ShownOnce>
  );
}
