import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { t, tx } from '../i18n/index.ts';
import { codeSentence } from '../messages.ts';
import { useReauthenticated } from '../reauth.tsx';
import { ApiError, type SignInProvider } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Button, Notice, onSubmit, Problem, useAction, useResource } from '../ui.tsx';
import { Confirm } from './confirm.tsx';
import { ConsolePage } from './layout.tsx';
import { LeaveGuard } from './leave-guard.tsx';
import { ListPanel } from './list-panel.tsx';
import {
  alertOverrides,
  changesOf,
  createBody,
  type Draft,
  draftOf,
  kindFacts,
  kindName,
  localProblems,
  MAX_PROVIDERS,
  NEW_PROVIDER,
  ProviderFields,
  remoteProblems,
  sameDraft,
} from './sign-in-provider-fields.tsx';
import { Loading } from './table-states.tsx';
import { When } from './users-shared.tsx';
import './sign-in-providers.css';
import { carryNews, useCarriedNews } from './carried-news.ts';

const LIST = '/console/sign-in-providers';

/** The SDK's admin API of the tenant's providers. */
function useProvidersApi() {
  return useSession().client.admin.signInProviders;
}

const byOrder = (a: SignInProvider, b: SignInProvider) => a.order - b.order || a.createdAt.localeCompare(b.createdAt);

const columns = () => [
  t('providers.column.name'),
  t('providers.column.kind'),
  t('providers.column.enabled'),
  t('providers.column.trustEmail'),
  t('providers.column.order'),
];

/**
 * `/console/sign-in-providers`: the tenant's sign-in providers (the "Sign in with …" buttons of its sign-in page),
 * in their buttons' order; each opens its own page, and "Add a provider" the form that adds one.
 */
export function SignInProviders() {
  const api = useProvidersApi();
  const list = useResource(async () => [...(await api.list())].sort(byOrder), [api]);
  const news = useCarriedNews();
  const full = (list.data?.length ?? 0) >= MAX_PROVIDERS;
  const add = (
    <a class="button primary" href={`${LIST}/new`}>
      {t('providers.add')}
    </a>
  );

  return (
    <ConsolePage title={t('providers.title')}>
      <p class="muted">{t('providers.intro')}</p>
      {news && <Notice>{news}</Notice>}
      <ListPanel
        headingId="providers-heading"
        heading={t('providers.heading')}
        list={list}
        empty={t('providers.empty')}
        add={add}
        full={full ? codeSentence('PROVIDER_LIMIT_REACHED') : null}
        table={{
          label: t('providers.table'),
          loading: t('providers.loading'),
          class: 'providers-table',
          columns: columns(),
        }}
        row={(provider) => (
          <>
            <td>
              <a href={`${LIST}/${encodeURIComponent(provider.id)}`}>{provider.displayName}</a>
            </td>
            <td>{kindName(provider.kind)}</td>
            <td>
              <OnOff on={provider.enabled} />
            </td>
            <td>{t(provider.trustEmail ? 'providers.yes' : 'providers.no')}</td>
            <td>{provider.order}</td>
          </>
        )}
      />
    </ConsolePage>
  );
}

function OnOff(props: { on: boolean }) {
  return (
    <span class={`badge ${props.on ? 'provider-on' : 'provider-off'}`}>
      {t(props.on ? 'providers.on' : 'providers.off')}
    </span>
  );
}

/**
 * After a refused save (the form's own checks, each attempt a new `local`; or the service's answer), the first field
 * with a problem is brought into view and focused, so that a keyboard or screen reader user starts where the fix is.
 */
function useFocusFirstProblem(form: { current: HTMLFormElement | null }, after: readonly unknown[]) {
  useEffect(() => {
    const first = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!first) return;
    first.scrollIntoView({ block: 'center' });
    first.focus({ preventScroll: true });
  }, after);
}

/** `/console/sign-in-providers/new`: the kind first, then its fields; saved, the provider's page (its redirect URI). */
export function NewSignInProvider() {
  const api = useProvidersApi();
  const { route } = useLocation();
  const reauth = useReauthenticated();
  const [draft, setDraft] = useState<Draft>(NEW_PROVIDER);
  const [local, setLocal] = useState<Record<string, string>>({});
  const formRef = useRef<HTMLFormElement>(null);

  const save = useAction(async () => {
    const problems = localProblems(draft, null);
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    // Signed in more than 10 minutes ago: the prompt asks the admin to confirm it is them, then the same call again.
    const created = await reauth.run(() => api.create(createBody(draft)));
    carryNews(t('providers.added', { name: created.displayName }));
    route(`${LIST}/${encodeURIComponent(created.id)}`);
  });
  const remote = remoteProblems(save.error, draft.kind);
  const problem = (field: string) => local[field] ?? remote[field];
  useFocusFirstProblem(formRef, [local, save.error]);

  return (
    <ConsolePage title={t('providers.addTitle')}>
      <p>
        <a href={LIST}>{t('providers.back')}</a>
      </p>
      <p class="muted">{t('providers.addIntro')}</p>
      <section class="panel" aria-labelledby="add-heading">
        <h2 id="add-heading">{t('providers.addHeading')}</h2>
        <form ref={formRef} onSubmit={onSubmit(save.run)} noValidate>
          <ProviderFields
            draft={draft}
            // Another kind's problems do not hold for this one.
            onChange={(change) => {
              if (change.kind && change.kind !== draft.kind) {
                setLocal({});
                save.setError(null);
              }
              setDraft({ ...draft, ...change });
            }}
            problem={problem}
            stored={null}
          />
          <FormProblems local={local} error={save.error} kind={draft.kind} />
          <div class="actions">
            <Button busy={save.busy}>{t('providers.addButton')}</Button>
            <a class="button secondary" href={LIST}>
              {t('providers.cancel')}
            </a>
          </div>
        </form>
      </section>
      <LeaveGuard dirty={!sameDraft(draft, NEW_PROVIDER) && !save.busy} question={t('providers.leaveQuestion')} />
      {reauth.prompt}
    </ConsolePage>
  );
}

function FormProblems(props: { local: Record<string, string>; error: unknown; kind: SignInProvider['kind'] }) {
  if (Object.keys(props.local).length > 0) {
    return (
      <p class="alert" role="alert">
        {codeSentence('VALIDATION_FAILED')}
      </p>
    );
  }
  return <Problem error={props.error} overrides={alertOverrides(props.error, props.kind)} />;
}

/**
 * `/console/sign-in-providers/:id`: the redirect URI to register at the provider (with where to, for its kind), the
 * provider's settings to change, and its deletion.
 */
export function SignInProviderPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const api = useProvidersApi();
  const { data: provider, error, loading, reload, setData } = useResource(() => api.get(id), [api, id]);
  const news = useCarriedNews();
  const [savedNews, setSavedNews] = useState<string | null>(null);

  if (error || !provider) {
    const gone = error instanceof ApiError && error.code === 'NOT_FOUND';
    return (
      <ConsolePage title={t('providers.providerTitle')}>
        <p>
          <a href={LIST}>{t('providers.back')}</a>
        </p>
        {error ? (
          <div class="panel">
            <Problem error={error} overrides={{ NOT_FOUND: t('providers.gone') }} />
            {!gone && (
              <Button type="button" kind="secondary" busy={loading} onClick={reload}>
                {t('boot.tryAgain')}
              </Button>
            )}
          </div>
        ) : (
          <section class="panel" aria-labelledby="redirect-heading" aria-busy="true">
            <h2 id="redirect-heading">{t('providers.redirectHeading')}</h2>
            <Loading>{t('providers.loadingOne')}</Loading>
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
    <ConsolePage title={provider.displayName}>
      <p>
        <a href={LIST}>{t('providers.back')}</a>
      </p>
      {news && <Notice>{news}</Notice>}
      <RedirectUri provider={provider} />
      {/* A new answer remounts the form (its key), empty of secrets, saying it was saved. */}
      <EditProvider
        key={provider.updatedAt}
        provider={provider}
        news={savedNews}
        onSaved={(answer) => {
          setData(answer);
          setSavedNews(t('providers.saved', { name: answer.displayName }));
        }}
      />
      <DeleteProvider provider={provider} />
    </ConsolePage>
  );
}

/** The address the provider sends people back to, to be registered there: where, for its kind, and a copy button. */
function RedirectUri(props: { provider: SignInProvider }) {
  const { provider } = props;
  const uri = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(provider.redirectUri);
      setCopied(true);
    } catch {
      // No clipboard (permission, insecure context): select it, for the keyboard's copy.
      const range = document.createRange();
      if (uri.current) range.selectNodeContents(uri.current);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      setCopied(false);
    }
  };
  return (
    <section class="panel redirect-uri" aria-labelledby="redirect-heading">
      <h2 id="redirect-heading">{t('providers.redirectHeading')}</h2>
      <p>{t(kindFacts(provider.kind).register)}</p>
      <code class="secret" ref={uri} data-testid="redirect-uri">
        {provider.redirectUri}
      </code>
      <div class="actions">
        <button type="button" class="button secondary" onClick={copy}>
          {t('providers.copy')}
        </button>
      </div>
      {copied === true && <Notice>{t('providers.copied')}</Notice>}
      {copied === false && (
        <p class="hint" role="status">
          {t('providers.noClipboard')}
        </p>
      )}
      <dl class="facts provider-facts">
        <dt>{t('providers.kind')}</dt>
        <dd>{kindName(provider.kind)}</dd>
        {provider.kind !== 'OIDC' && (
          <>
            <dt>{t('providers.issuerIs')}</dt>
            <dd>
              <code>{provider.issuer}</code>
            </dd>
          </>
        )}
        <dt>{t('providers.status')}</dt>
        <dd>
          <OnOff on={provider.enabled} />
        </dd>
        <dt>{t(provider.kind === 'APPLE' ? 'providers.keySet' : 'providers.secretSet')}</dt>
        <dd>
          <When at={provider.secretSetAt} />
        </dd>
        <dt>{t('providers.created')}</dt>
        <dd>
          <When at={provider.createdAt} />
        </dd>
      </dl>
    </section>
  );
}

/** The provider's settings: Save sends what changed (PATCH); an empty secret or key keeps the stored one. */
function EditProvider(props: {
  provider: SignInProvider;
  /** What the last save did, said by the Save button. */
  news: string | null;
  onSaved(provider: SignInProvider): void;
}) {
  const api = useProvidersApi();
  const reauth = useReauthenticated();
  const { provider } = props;
  const saved = useMemo(() => draftOf(provider), [provider]);
  const [draft, setDraft] = useState<Draft>(saved);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [done, setDone] = useState<string | null>(props.news);
  const formRef = useRef<HTMLFormElement>(null);
  const dirty = !sameDraft(draft, saved);

  const save = useAction(async () => {
    setDone(null);
    const problems = localProblems(draft, provider);
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    const body = changesOf(provider, draft);
    if (Object.keys(body).length === 0) {
      setDraft(saved);
      setDone(t('providers.nothingChanged'));
      return;
    }
    props.onSaved(await reauth.run(() => api.update(provider.id, body)));
  });
  const remote = remoteProblems(save.error, provider.kind);
  const problem = (field: string) => local[field] ?? remote[field];
  useFocusFirstProblem(formRef, [local, save.error]);

  return (
    <section class="panel" aria-labelledby="edit-heading">
      <h2 id="edit-heading">{t('providers.editHeading')}</h2>
      <form ref={formRef} onSubmit={onSubmit(save.run)} onInput={() => setDone(null)} noValidate>
        <ProviderFields
          draft={draft}
          onChange={(change) => setDraft({ ...draft, ...change })}
          problem={problem}
          stored={provider}
        />
        <FormProblems local={local} error={save.error} kind={provider.kind} />
        <div class="actions">
          <Button busy={save.busy}>{t('providers.save')}</Button>
          {dirty && !save.busy && (
            <span class="provider-unsaved">
              <span aria-hidden="true">●</span> {t('providers.unsaved')}
            </span>
          )}
        </div>
        {done && <Notice>{done}</Notice>}
      </form>
      <LeaveGuard dirty={dirty && !save.busy} question={t('providers.leaveQuestion')} />
      {reauth.prompt}
    </section>
  );
}

function DeleteProvider(props: { provider: SignInProvider }) {
  const api = useProvidersApi();
  const { route } = useLocation();
  const reauth = useReauthenticated();
  const { provider } = props;
  const name = provider.displayName;
  return (
    <section class="panel" aria-labelledby="delete-heading">
      <h2 id="delete-heading">{t('providers.deleteHeading')}</h2>
      <p>{t('providers.deleteIntro')}</p>
      <Confirm
        label={t('providers.delete')}
        danger
        question={tx('providers.deleteQuestion', { name: <strong>{name}</strong> })}
        confirmLabel={t('providers.deleteConfirm')}
        overrides={{ NOT_FOUND: t('providers.gone') }}
        onConfirm={async () => {
          try {
            await reauth.run(() => api.remove(provider.id));
            carryNews(t('providers.deleted', { name }));
          } catch (error) {
            if (!(error instanceof ApiError && error.code === 'NOT_FOUND')) throw error;
            carryNews(t('providers.deletedAlready', { name }));
          }
          route(LIST);
        }}
      />
      {reauth.prompt}
    </section>
  );
}
