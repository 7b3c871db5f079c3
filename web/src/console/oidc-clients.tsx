import type { ComponentChildren, Ref } from 'preact';
import { useId, useState } from 'preact/hooks';
import { type TextKey, t, tn, tx } from '../i18n/index.ts';
import { fieldSentences, formProblem, when } from '../messages.ts';
import { useReauthenticated } from '../reauth.tsx';
import {
  ApiError,
  formSchemas,
  type OidcClient,
  type OidcClientType,
  type OidcClientWithSecret,
  type OidcGrantType,
  type UpdateOidcClientRequest,
  validateForm,
} from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Button, Field, Notice, onSubmit, Problem, useAction, useAutoFocus, useResource } from '../ui.tsx';
import { Confirm } from './confirm.tsx';
import { ConsolePage } from './layout.tsx';
import { deleteOnce, useListNews } from './list-news.ts';
import { ShownOnce } from './shown-once.tsx';
import { EmptyState, Loading } from './table-states.tsx';
import './oidc-clients.css';

/** The grant types, by the keys of their names and of the sentence that says what each is for. */
const GRANTS: { value: OidcGrantType; label: TextKey; sentence: TextKey }[] = [
  { value: 'authorization_code', label: 'clients.grant.code', sentence: 'clients.grant.codeNote' },
  { value: 'refresh_token', label: 'clients.grant.refresh', sentence: 'clients.grant.refreshNote' },
  { value: 'client_credentials', label: 'clients.grant.credentials', sentence: 'clients.grant.credentialsNote' },
];
const grantLabel = (grant: OidcGrantType) => {
  const known = GRANTS.find((g) => g.value === grant);
  return known ? t(known.label) : grant;
};

/** Sharper sentences for what the service refuses here (a function: said in the language in use). */
const clientSentences = () => ({
  FORBIDDEN: t('clients.problem.forbidden'),
  CONFLICT: t('clients.problem.conflict'),
});

const typeName = (type: OidcClientType) =>
  t(type === 'confidential' ? 'clients.type.confidential' : 'clients.type.public');

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** The fields as the sentences about them name them. */
const FIELD_LABELS: Record<string, TextKey> = {
  name: 'clients.field.name',
  grantTypes: 'clients.field.grantTypes',
  redirectUris: 'clients.field.redirectUris',
  postLogoutRedirectUris: 'clients.field.logoutUris',
  accessTokenLifetimeSeconds: 'clients.field.accessLifetime',
  refreshTokenLifetimeSeconds: 'clients.field.refreshLifetime',
};

/**
 * The service's (and the SDK's) messages about a client's addresses, grant types and lifetimes, in the language in
 * use; the English texts are the messages themselves. A number or address in a message fills the text's placeholder.
 */
const CLIENT_PREDICATES: [RegExp, TextKey, string?][] = [
  [/^must not have a fragment$/, 'clients.predicate.fragment'],
  [/^must be an exact URL, without wildcards$/, 'clients.predicate.wildcard'],
  [/^must not contain spaces$/, 'clients.predicate.spaces'],
  [/^must be an absolute URL$/, 'clients.predicate.absolute'],
  [/^must not carry user information$/, 'clients.predicate.userInfo'],
  [/^must be written in its standard form: (.+)$/, 'clients.predicate.standardForm', 'form'],
  [/^must name a host$/, 'clients.predicate.host'],
  [/^must use https \(http only for localhost, 127\.0\.0\.1 or \[::1\]\)$/, 'clients.predicate.https'],
  [/^must use https, loopback http, or a native app scheme with a dot/, 'clients.predicate.scheme'],
  [/^at least one redirect URI$/, 'clients.predicate.oneRedirect'],
  [/^at most (\d+) redirect URIs$/, 'clients.predicate.maxRedirects', 'max'],
  [/^at most (\d+) post-logout redirect URIs$/, 'clients.predicate.maxLogoutRedirects', 'max'],
  [/^at least one grant type$/, 'clients.predicate.oneGrant'],
  [/^client_credentials is for confidential clients only$/, 'clients.predicate.credentialsConfidential'],
  [/^must be at least (\d+)$/, 'clients.predicate.atLeast', 'min'],
  [/^must be at most (\d+)$/, 'clients.predicate.atMost', 'max'],
];

function clientPredicate(message: string): string {
  for (const [pattern, key, placeholder] of CLIENT_PREDICATES) {
    const found = pattern.exec(message);
    if (found) return t(key, placeholder ? { [placeholder]: found[1] ?? '' } : {});
  }
  // Another message names grant types as the service spells them; the form shows them as words.
  return message.replace(/(authorization|refresh|client)_(code|token|credentials)/g, '$1 $2');
}

/**
 * The service's field errors (`redirectUris.1`, `grantTypes`…) as sentences by field: a URI's problem is said of
 * the URI sent, and the grant types by their names as the form shows them.
 */
function problemsByField(error: unknown, sent: { redirectUris: string[]; postLogoutRedirectUris: string[] }) {
  const readable =
    error instanceof ApiError
      ? formProblem(error.errors.map(({ path, message }) => ({ path, message: clientPredicate(message) })))
      : error;
  return fieldSentences(readable, (path) => {
    const [field = '', index] = path.split('.');
    if ((field === 'redirectUris' || field === 'postLogoutRedirectUris') && index !== undefined) {
      const uri = sent[field][Number(index)];
      const label =
        uri === undefined ? t('clients.field.line', { number: Number(index) + 1 }) : t('clients.field.uri', { uri });
      return { field, label };
    }
    const label = FIELD_LABELS[field];
    return { field, label: label ? t(label) : field };
  });
}

/**
 * The tenant's OpenID Connect clients ("sign-in clients"): listed, registered,
 * a confidential client's secret rotated, deleted. A secret is shown once, when
 * the client is registered and when it is rotated. Registering and rotating ask
 * for a sign-in younger than 10 minutes (the "confirm it is you" prompt); so does
 * changing a client's addresses or first-party flag (Edit, in the client's place in
 * the list: only what changed is sent).
 */
export function OidcClients() {
  const { client } = useSession();
  const list = useResource(() => client.admin.oidcClients.list());
  const clients = list.data;
  const [shown, setShown] = useState<{ client: OidcClientWithSecret; rotated: boolean } | null>(null);
  const { news, setNews, heading: listHeading, say } = useListNews(list);
  const reauth = useReauthenticated();
  const [editing, setEditing] = useState<string | null>(null);

  const rotate = async (c: OidcClient) => {
    setNews(null);
    const rotated = await reauth.run(() => client.admin.oidcClients.rotateSecret(c.clientId));
    setShown({ client: rotated, rotated: true });
    await list.reload();
  };

  const remove = async (c: OidcClient) => {
    const said = await deleteOnce(() => client.admin.oidcClients.delete(c.clientId), {
      now: t('clients.deleted', { name: c.name }),
      already: t('clients.deletedAlready', { name: c.name }),
    });
    if (shown?.client.clientId === c.clientId) setShown(null);
    await say(said);
  };

  return (
    <ConsolePage title={t('clients.title')}>
      <p class="muted">{t('clients.intro')}</p>
      <p>{tx('clients.issuer', { issuer: <code class="issuer">{location.origin}</code> })}</p>
      {shown?.client.clientSecret && (
        <NewSecret
          client={shown.client}
          rotated={shown.rotated}
          onDone={() => {
            setShown(null);
            listHeading.current?.focus();
          }}
        />
      )}
      {news && <Notice>{news}</Notice>}
      <section class="panel" aria-labelledby="clients-heading">
        <h2 id="clients-heading" tabIndex={-1} ref={listHeading}>
          {t('clients.heading')}
        </h2>
        {list.error && (
          <>
            <Problem error={list.error} />
            <button type="button" class="button secondary" onClick={list.reload}>
              {t('clients.tryAgain')}
            </button>
          </>
        )}
        {clients === null && !list.error && (
          <div aria-busy="true">
            <Loading>{t('clients.loading')}</Loading>
            <ul class="oidc-clients" aria-hidden="true">
              {[0, 1].map((item) => (
                <li key={item} class="oidc-client">
                  <span class="skeleton skeleton-1" />
                  <span class="skeleton skeleton-2" />
                  <span class="skeleton skeleton-0" />
                </li>
              ))}
            </ul>
          </div>
        )}
        {clients && clients.length === 0 && (
          <EmptyState
            action={
              <button
                type="button"
                class="button secondary"
                onClick={() => document.getElementById('register-heading')?.focus()}
              >
                {t('clients.register')}
              </button>
            }
          >
            {t('clients.empty')}
          </EmptyState>
        )}
        {clients && clients.length > 0 && (
          <ul class="oidc-clients">
            {clients.map((c) =>
              editing === c.clientId ? (
                <li key={c.clientId} class="oidc-client" aria-label={t('clients.changing', { name: c.name })}>
                  <h3>{c.name}</h3>
                  <EditClient
                    client={c}
                    run={reauth.run}
                    onCancel={() => setEditing(null)}
                    onSaved={async (saved) => {
                      setEditing(null);
                      await say(saved ? t('clients.saved', { name: saved.name }) : t('clients.nothingChanged'));
                    }}
                  />
                </li>
              ) : (
                <ClientItem
                  key={c.clientId}
                  client={c}
                  onEdit={() => {
                    setNews(null);
                    setEditing(c.clientId);
                  }}
                  onRotate={() => rotate(c)}
                  onDelete={() => remove(c)}
                />
              ),
            )}
          </ul>
        )}
      </section>
      <Register
        onRegistered={async (created) => {
          setNews(created.clientSecret ? null : t('clients.registered', { name: created.name }));
          setShown(created.clientSecret ? { client: created, rotated: false } : null);
          await list.reload();
          if (!created.clientSecret) listHeading.current?.focus();
        }}
        run={reauth.run}
      />
      {reauth.prompt}
    </ConsolePage>
  );
}

function ClientItem(props: { client: OidcClient; onEdit(): void; onRotate(): unknown; onDelete(): unknown }) {
  const c = props.client;
  const headingId = useId();
  return (
    <li class="oidc-client" aria-labelledby={headingId}>
      <h3 id={headingId}>{c.name}</h3>
      <dl>
        <dt>{t('clients.type')}</dt>
        <dd>{typeName(c.type)}</dd>
        <dt>{t('clients.clientId')}</dt>
        <dd>
          <code>{c.clientId}</code>
        </dd>
        <dt>{t('clients.redirectUris')}</dt>
        <dd>
          <UriList uris={c.redirectUris} />
        </dd>
        {c.postLogoutRedirectUris.length > 0 && (
          <>
            <dt>{t('clients.logoutUris')}</dt>
            <dd>
              <UriList uris={c.postLogoutRedirectUris} />
            </dd>
          </>
        )}
        <dt>{t('clients.grantTypes')}</dt>
        <dd>{c.grantTypes.map(grantLabel).join(', ')}</dd>
        <dt>{t('clients.firstParty')}</dt>
        <dd>{t(c.firstParty ? 'clients.yes' : 'clients.no')}</dd>
        <dt>{t('clients.signing')}</dt>
        <dd>{c.idTokenSigningAlg}</dd>
        <dt>{t('clients.lifetimes')}</dt>
        <dd>
          {c.grantTypes.includes('refresh_token')
            ? t('clients.lifetimeBoth', {
                access: duration(c.accessTokenLifetimeSeconds),
                refresh: duration(c.refreshTokenLifetimeSeconds),
              })
            : t('clients.lifetimeAccess', { access: duration(c.accessTokenLifetimeSeconds) })}
        </dd>
        <dt>{t('clients.created')}</dt>
        <dd>{when(c.createdAt)}</dd>
        {c.secretCreatedAt && (
          <>
            <dt>{t('clients.secretMade')}</dt>
            <dd>{when(c.secretCreatedAt)}</dd>
          </>
        )}
      </dl>
      <div class="actions">
        <button
          type="button"
          class="button secondary"
          aria-label={t('clients.editFull', { name: c.name })}
          onClick={props.onEdit}
        >
          {t('clients.edit')}
        </button>
        {c.type === 'confidential' && (
          <Confirm
            label={t('clients.rotate')}
            fullLabel={t('clients.rotateFull', { name: c.name })}
            question={tx('clients.rotateQuestion', { name: <strong>{c.name}</strong> })}
            confirmLabel={t('clients.rotate')}
            overrides={clientSentences()}
            onConfirm={props.onRotate}
          />
        )}
        <Confirm
          label={t('clients.delete')}
          fullLabel={t('clients.deleteFull', { name: c.name })}
          danger
          question={tx('clients.deleteQuestion', { name: <strong>{c.name}</strong> })}
          confirmLabel={t('clients.deleteConfirm')}
          overrides={clientSentences()}
          onConfirm={props.onDelete}
        />
      </div>
    </li>
  );
}

function UriList(props: { uris: string[] }) {
  return (
    <ul class="uris">
      {props.uris.map((uri) => (
        <li key={uri}>
          <code>{uri}</code>
        </li>
      ))}
    </ul>
  );
}

/** A textarea with its label, hint and problem, as `Field` does for inputs. */
function LinesField(props: {
  label: string;
  hint: string;
  value: string;
  onInput(value: string): void;
  problem?: string | undefined;
  required?: boolean;
}) {
  const id = useId();
  const described = [props.problem ? `${id}-problem` : '', `${id}-hint`].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <textarea
        id={id}
        rows={3}
        spellcheck={false}
        autocomplete="off"
        aria-required={props.required ? 'true' : undefined}
        aria-invalid={props.problem ? 'true' : undefined}
        aria-describedby={described}
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
      <p class="hint" id={`${id}-hint`}>
        {props.hint}
      </p>
      {props.problem && (
        <p class="problem" id={`${id}-problem`}>
          {props.problem}
        </p>
      )}
    </div>
  );
}

function Choice(props: { children: ComponentChildren; note: string }) {
  return (
    <span>
      <span class="option-title">{props.children}</span> <span class="muted">{props.note}</span>
    </span>
  );
}

/** A client as its form holds it: the addresses one per line, the lifetimes as typed. */
interface Draft {
  name: string;
  type: OidcClientType;
  redirects: string;
  logoutRedirects: string;
  grants: OidcGrantType[];
  firstParty: boolean;
  alg: 'ES256' | 'RS256';
  accessLifetime: string;
  refreshLifetime: string;
}

const NEW_CLIENT: Draft = {
  name: '',
  type: 'confidential',
  redirects: '',
  logoutRedirects: '',
  grants: ['authorization_code', 'refresh_token'],
  firstParty: false,
  alg: 'ES256',
  accessLifetime: '900',
  refreshLifetime: '604800',
};

function draftOf(c: OidcClient): Draft {
  return {
    name: c.name,
    type: c.type,
    redirects: c.redirectUris.join('\n'),
    logoutRedirects: c.postLogoutRedirectUris.join('\n'),
    grants: [...c.grantTypes],
    firstParty: c.firstParty,
    alg: c.idTokenSigningAlg,
    accessLifetime: String(c.accessTokenLifetimeSeconds),
    refreshLifetime: String(c.refreshTokenLifetimeSeconds),
  };
}

/** The grant types a client of this type may have: client credentials only with a secret to sign in with. */
const grantsFor = (type: OidcClientType) =>
  GRANTS.filter((g) => type === 'confidential' || g.value !== 'client_credentials');

/** "15 minutes", "7 days": a number of seconds as people say it, in the largest whole unit, for a lifetime. */
function duration(seconds: number): string {
  if (seconds >= 86_400 && seconds % 86_400 === 0) return tn('clients.days', seconds / 86_400);
  if (seconds >= 3600 && seconds % 3600 === 0) return tn('hours', seconds / 3600);
  if (seconds >= 60 && seconds % 60 === 0) return tn('minutes', seconds / 60);
  return tn('seconds', seconds);
}

/** A whole number of seconds as typed, or undefined (said at the field) when it is none. */
function secondsOf(text: string): number | undefined {
  return /^\s*\d{1,9}\s*$/.test(text) ? Number(text) : undefined;
}

/**
 * What the form checks before sending, as sentences by field; the rest (the addresses' rules, the lifetimes'
 * bounds) is the SDK's copy of the service's rule, or the service's answer, said at the same fields.
 */
function localProblems(draft: Draft, editing: boolean): Record<string, string> {
  const missing: Record<string, string> = {};
  if (!draft.name.trim()) missing.name = t('clients.problem.name');
  if (lines(draft.redirects).length === 0) missing.redirectUris = t('clients.problem.redirectUris');
  if (draft.grants.filter((g) => grantsFor(draft.type).some((o) => o.value === g)).length === 0) {
    missing.grantTypes = t('clients.problem.grantTypes');
  }
  if (editing && secondsOf(draft.accessLifetime) === undefined) {
    missing.accessTokenLifetimeSeconds = t('clients.problem.accessLifetime');
  }
  if (editing && secondsOf(draft.refreshLifetime) === undefined) {
    missing.refreshTokenLifetimeSeconds = t('clients.problem.refreshLifetime');
  }
  return missing;
}

/**
 * A client's fields, for registering one and for changing one (`editing`): there the type is shown, not chosen (it
 * never changes), and the token lifetimes can be changed too.
 */
function ClientFields(props: {
  draft: Draft;
  onChange(change: Partial<Draft>): void;
  problem(field: string): string | undefined;
  editing: boolean;
  nameRef?: Ref<HTMLInputElement>;
}) {
  const { draft, onChange, problem } = props;
  const offered = grantsFor(draft.type);
  const chosen = draft.grants.filter((g) => offered.some((o) => o.value === g));
  const grantsProblemId = useId();
  const grantsProblem = problem('grantTypes');
  const access = secondsOf(draft.accessLifetime);
  const refresh = secondsOf(draft.refreshLifetime);
  return (
    <>
      <Field
        label={t('clients.name')}
        name="name"
        required
        maxLength={128}
        autocomplete="off"
        inputRef={props.nameRef}
        hint={t('clients.nameHint')}
        value={draft.name}
        onInput={(e) => onChange({ name: e.currentTarget.value })}
        problem={problem('name')}
      />
      {props.editing ? (
        <p>
          <span class="option-title">{t('clients.typeIs')}</span> {typeName(draft.type)}{' '}
          <span class="muted">{t('clients.typeNever')}</span>
        </p>
      ) : (
        <fieldset class="choice options">
          <legend>{t('clients.type')}</legend>
          <label>
            <input
              type="radio"
              name="type"
              checked={draft.type === 'public'}
              onChange={() => onChange({ type: 'public' })}
            />
            <Choice note={t('clients.publicNote')}>{t('clients.public')}</Choice>
          </label>
          <label>
            <input
              type="radio"
              name="type"
              checked={draft.type === 'confidential'}
              onChange={() => onChange({ type: 'confidential' })}
            />
            <Choice note={t('clients.confidentialNote')}>{t('clients.confidential')}</Choice>
          </label>
        </fieldset>
      )}
      <LinesField
        label={t('clients.redirectUris')}
        required
        hint={t('clients.redirectUrisHint')}
        value={draft.redirects}
        onInput={(redirects) => onChange({ redirects })}
        problem={problem('redirectUris')}
      />
      <LinesField
        label={t('clients.logoutUrisOptional')}
        hint={t('clients.logoutUrisHint')}
        value={draft.logoutRedirects}
        onInput={(logoutRedirects) => onChange({ logoutRedirects })}
        problem={problem('postLogoutRedirectUris')}
      />
      <fieldset
        class="choice options"
        aria-describedby={grantsProblem ? grantsProblemId : undefined}
        aria-invalid={grantsProblem ? 'true' : undefined}
      >
        <legend>{t('clients.grantTypes')}</legend>
        {offered.map((g) => (
          <label key={g.value}>
            <input
              type="checkbox"
              name="grantTypes"
              value={g.value}
              checked={chosen.includes(g.value)}
              onChange={(e) =>
                onChange({
                  grants: e.currentTarget.checked ? [...chosen, g.value] : chosen.filter((value) => value !== g.value),
                })
              }
            />
            <Choice note={t(g.sentence)}>{t(g.label)}</Choice>
          </label>
        ))}
        {grantsProblem && (
          <p class="problem" id={grantsProblemId}>
            {grantsProblem}
          </p>
        )}
      </fieldset>
      <div class="field options">
        <label>
          <input
            type="checkbox"
            name="firstParty"
            checked={draft.firstParty}
            onChange={(e) => onChange({ firstParty: e.currentTarget.checked })}
          />
          <Choice note={t('clients.firstPartyNote')}>{t('clients.firstParty')}</Choice>
        </label>
      </div>
      <fieldset class="choice options">
        <legend>{t('clients.signing')}</legend>
        <label>
          <input type="radio" name="alg" checked={draft.alg === 'ES256'} onChange={() => onChange({ alg: 'ES256' })} />
          <Choice note={t('clients.es256Note')}>ES256</Choice>
        </label>
        <label>
          <input type="radio" name="alg" checked={draft.alg === 'RS256'} onChange={() => onChange({ alg: 'RS256' })} />
          <Choice note={t('clients.rs256Note')}>RS256</Choice>
        </label>
      </fieldset>
      {props.editing && (
        <div class="row top">
          <Field
            label={t('clients.accessLifetime')}
            name="accessTokenLifetimeSeconds"
            inputMode="numeric"
            autocomplete="off"
            value={draft.accessLifetime}
            onInput={(e) => onChange({ accessLifetime: e.currentTarget.value })}
            hint={
              access
                ? t('clients.accessLifetimeHintNow', { duration: duration(access) })
                : t('clients.accessLifetimeHint')
            }
            problem={problem('accessTokenLifetimeSeconds')}
          />
          <Field
            label={t('clients.refreshLifetime')}
            name="refreshTokenLifetimeSeconds"
            inputMode="numeric"
            autocomplete="off"
            value={draft.refreshLifetime}
            onInput={(e) => onChange({ refreshLifetime: e.currentTarget.value })}
            hint={
              refresh
                ? t('clients.refreshLifetimeHintNow', { duration: duration(refresh) })
                : t('clients.refreshLifetimeHint')
            }
            problem={problem('refreshTokenLifetimeSeconds')}
          />
        </div>
      )}
    </>
  );
}

function Register(props: {
  onRegistered(created: OidcClientWithSecret): Promise<void>;
  run<T>(action: () => Promise<T>): Promise<T>;
}) {
  const { client } = useSession();
  const [draft, setDraft] = useState<Draft>(NEW_CLIENT);
  const [sent, setSent] = useState({ redirectUris: [] as string[], postLogoutRedirectUris: [] as string[] });
  const [local, setLocal] = useState<Record<string, string>>({});

  const register = useAction(async () => {
    const missing = localProblems(draft, false);
    setLocal(missing);
    if (Object.keys(missing).length > 0) return;
    const body = {
      name: draft.name.trim(),
      type: draft.type,
      redirectUris: lines(draft.redirects),
      postLogoutRedirectUris: lines(draft.logoutRedirects),
      grantTypes: draft.grants.filter((g) => grantsFor(draft.type).some((o) => o.value === g)),
      firstParty: draft.firstParty,
      idTokenSigningAlg: draft.alg,
    };
    const addresses = { redirectUris: body.redirectUris, postLogoutRedirectUris: body.postLogoutRedirectUris };
    setSent(addresses);
    // The addresses are checked here first, by the SDK's copy of the service's rule, and said the same way.
    const checked = validateForm(formSchemas.oidcClientRedirects, addresses);
    if (!checked.success) throw formProblem(checked.errors);
    // Signed in more than 10 minutes ago: the prompt asks the user to confirm it is them, then the same call again.
    const created = await props.run(() => client.admin.oidcClients.create(body));
    setDraft({ ...draft, name: '', redirects: '', logoutRedirects: '', firstParty: false });
    await props.onRegistered(created);
  });
  const remote = problemsByField(register.error, sent);
  const problem = (field: string) => local[field] ?? remote[field];

  return (
    <section class="panel" aria-labelledby="register-heading">
      <h2 id="register-heading" tabIndex={-1}>
        {t('clients.register')}
      </h2>
      <form onSubmit={onSubmit(register.run)} noValidate>
        <ClientFields
          draft={draft}
          onChange={(change) => setDraft({ ...draft, ...change })}
          problem={problem}
          editing={false}
        />
        <Problem error={register.error} overrides={clientSentences()} />
        <Button busy={register.busy}>{t('clients.registerButton')}</Button>
      </form>
    </section>
  );
}

const sameSet = <T,>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x) => b.includes(x));

/**
 * What changed between a client and its draft, as PATCH takes it: only the fields changed, so that a change of
 * name alone asks for no recent sign-in (the addresses and the first-party flag do: the service says so, and the
 * page then asks the admin to confirm it is them).
 */
function changesOf(c: OidcClient, draft: Draft): UpdateOidcClientRequest {
  const body: UpdateOidcClientRequest = {};
  const redirectUris = lines(draft.redirects);
  const postLogoutRedirectUris = lines(draft.logoutRedirects);
  const grantTypes = draft.grants.filter((g) => grantsFor(c.type).some((o) => o.value === g));
  if (draft.name.trim() !== c.name) body.name = draft.name.trim();
  // The order of the redirect URIs is kept as typed; a list only reordered is no change.
  if (!sameSet(redirectUris, c.redirectUris)) body.redirectUris = redirectUris;
  if (!sameSet(postLogoutRedirectUris, c.postLogoutRedirectUris)) body.postLogoutRedirectUris = postLogoutRedirectUris;
  if (!sameSet(grantTypes, c.grantTypes)) body.grantTypes = grantTypes;
  if (draft.firstParty !== c.firstParty) body.firstParty = draft.firstParty;
  if (draft.alg !== c.idTokenSigningAlg) body.idTokenSigningAlg = draft.alg;
  const access = secondsOf(draft.accessLifetime);
  const refresh = secondsOf(draft.refreshLifetime);
  if (access !== undefined && access !== c.accessTokenLifetimeSeconds) body.accessTokenLifetimeSeconds = access;
  if (refresh !== undefined && refresh !== c.refreshTokenLifetimeSeconds) body.refreshTokenLifetimeSeconds = refresh;
  return body;
}

/** A registered client's fields to change, in its place in the list; Save sends what changed (PATCH). */
function EditClient(props: {
  client: OidcClient;
  onSaved(saved: OidcClient | null): Promise<void>;
  onCancel(): void;
  run<T>(action: () => Promise<T>): Promise<T>;
}) {
  const { client } = useSession();
  const c = props.client;
  const [draft, setDraft] = useState<Draft>(() => draftOf(c));
  const [sent, setSent] = useState({ redirectUris: [] as string[], postLogoutRedirectUris: [] as string[] });
  const [local, setLocal] = useState<Record<string, string>>({});
  const nameField = useAutoFocus<HTMLInputElement>();

  const save = useAction(async () => {
    const missing = localProblems(draft, true);
    setLocal(missing);
    if (Object.keys(missing).length > 0) return;
    const body = changesOf(c, draft);
    if (Object.keys(body).length === 0) return props.onSaved(null);
    const addresses = {
      redirectUris: body.redirectUris ?? c.redirectUris,
      postLogoutRedirectUris: body.postLogoutRedirectUris ?? c.postLogoutRedirectUris,
    };
    setSent(addresses);
    const checked = validateForm(formSchemas.oidcClientRedirects, addresses);
    if (!checked.success) throw formProblem(checked.errors);
    await props.onSaved(await props.run(() => client.admin.oidcClients.update(c.clientId, body)));
  });
  const remote = problemsByField(save.error, sent);
  const problem = (field: string) => local[field] ?? remote[field];
  const headingId = useId();

  return (
    <form class="edit-client" onSubmit={onSubmit(save.run)} noValidate aria-labelledby={headingId}>
      <h4 id={headingId} class="visually-hidden">
        {t('clients.change', { name: c.name })}
      </h4>
      <ClientFields
        draft={draft}
        onChange={(change) => setDraft({ ...draft, ...change })}
        problem={problem}
        editing
        nameRef={nameField}
      />
      <Problem error={save.error} overrides={clientSentences()} />
      <div class="actions">
        <Button busy={save.busy}>{t('clients.saveChanges')}</Button>
        <button type="button" class="button secondary" onClick={props.onCancel}>
          {t('clients.cancel')}
        </button>
      </div>
    </form>
  );
}

/** A confidential client's secret, just made: shown this once, with a copy button. */
function NewSecret(props: { client: OidcClientWithSecret; rotated: boolean; onDone(): void }) {
  return (
    <ShownOnce
      id="client-secret-heading"
      heading={t(props.rotated ? 'clients.secretRotated' : 'clients.secretRegistered', { name: props.client.name })}
      value={props.client.clientSecret ?? ''}
      noun={t('clients.secretNoun')}
      testId="client-secret"
      onDone={props.onDone}
    >
      <strong>{t('clients.secretCopyNow')}</strong> {props.rotated && `${t('clients.secretOldGone')} `}
      {tx('clients.secretStore', { clientId: <code>{props.client.clientId}</code> })}
    </ShownOnce>
  );
}
