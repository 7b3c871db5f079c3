import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { fieldSentences, formProblem, when } from '../messages.ts';
import { useReauthenticated } from '../reauth.tsx';
import {
  ApiError,
  formSchemas,
  type OidcClient,
  type OidcClientType,
  type OidcClientWithSecret,
  type OidcGrantType,
  validateForm,
} from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Button, Field, Notice, onSubmit, Problem, useAction, useResource } from '../ui.tsx';
import { Confirm } from './confirm.tsx';
import { ConsolePage } from './layout.tsx';
import { deleteOnce, useListNews } from './list-news.ts';
import { ShownOnce } from './shown-once.tsx';
import './oidc-clients.css';

const GRANTS: { value: OidcGrantType; label: string; sentence: string }[] = [
  {
    value: 'authorization_code',
    label: 'Authorization code',
    sentence: 'People sign in on this service’s pages and come back to the app.',
  },
  { value: 'refresh_token', label: 'Refresh token', sentence: 'The app stays signed in without asking again.' },
  {
    value: 'client_credentials',
    label: 'Client credentials',
    sentence: 'A server signs in as itself, with its secret, with no person involved.',
  },
];
const GRANT_LABEL = Object.fromEntries(GRANTS.map((g) => [g.value, g.label])) as Record<OidcGrantType, string>;

const CLIENT_SENTENCES = {
  FORBIDDEN: 'You may not change sign-in clients. Only administrators who signed in themselves can.',
  CONFLICT: 'A public client has no secret to rotate.',
};

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

const FIELD_LABELS: Record<string, string> = {
  name: 'The name',
  grantTypes: 'Grant types',
  redirectUris: 'The redirect URIs',
  postLogoutRedirectUris: 'The sign-out redirect URIs',
};

/**
 * The service's field errors (`redirectUris.1`, `grantTypes`…) as sentences by field: a URI's problem is said of
 * the URI sent, and the grant types by their names as the form shows them.
 */
function problemsByField(error: unknown, sent: { redirectUris: string[]; postLogoutRedirectUris: string[] }) {
  const readable =
    error instanceof ApiError
      ? formProblem(
          error.errors.map(({ path, message }) => ({
            path,
            message: message.replace(/(authorization|refresh|client)_(code|token|credentials)/g, '$1 $2'),
          })),
        )
      : error;
  return fieldSentences(readable, (path) => {
    const [field = '', index] = path.split('.');
    if ((field === 'redirectUris' || field === 'postLogoutRedirectUris') && index !== undefined) {
      const uri = sent[field][Number(index)];
      return { field, label: uri === undefined ? `Line ${Number(index) + 1}` : `“${uri}”` };
    }
    return { field, label: FIELD_LABELS[field] ?? field };
  });
}

/**
 * The tenant's OpenID Connect clients ("sign-in clients"): listed, registered,
 * a confidential client's secret rotated, deleted. A secret is shown once, when
 * the client is registered and when it is rotated. Registering and rotating ask
 * for a sign-in younger than 10 minutes (the "confirm it is you" prompt).
 * There is no editing form yet: delete and register again.
 */
export function OidcClients() {
  const { client } = useSession();
  const list = useResource(() => client.admin.oidcClients.list());
  const clients = list.data;
  const [shown, setShown] = useState<{ client: OidcClientWithSecret; rotated: boolean } | null>(null);
  const { news, setNews, heading: listHeading, say } = useListNews(list);
  const reauth = useReauthenticated();

  const rotate = async (c: OidcClient) => {
    setNews(null);
    const rotated = await reauth.run(() => client.admin.oidcClients.rotateSecret(c.clientId));
    setShown({ client: rotated, rotated: true });
    await list.reload();
  };

  const remove = async (c: OidcClient) => {
    const said = await deleteOnce(() => client.admin.oidcClients.delete(c.clientId), {
      now: `The client “${c.name}” was deleted. Apps using it can no longer sign people in.`,
      already: `The client “${c.name}” had been deleted already.`,
    });
    if (shown?.client.clientId === c.clientId) setShown(null);
    await say(said);
  };

  return (
    <ConsolePage title="Sign-in clients">
      <p class="muted">
        A sign-in client is an app of yours that signs people in with this service through OpenID Connect: a web, mobile
        or server app, registered with the exact addresses people come back to.
      </p>
      <p>
        Give your app's OpenID Connect library this issuer, a client id from below (and its secret, for a confidential
        client) and one of its redirect URIs: <code class="issuer">{location.origin}</code>
      </p>
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
          Clients
        </h2>
        <Problem error={list.error} />
        {clients === null && !list.error && <p class="muted">Loading the clients…</p>}
        {clients && clients.length === 0 && <p>There are no sign-in clients.</p>}
        {clients && clients.length > 0 && (
          <ul class="oidc-clients">
            {clients.map((c) => (
              <ClientItem key={c.clientId} client={c} onRotate={() => rotate(c)} onDelete={() => remove(c)} />
            ))}
          </ul>
        )}
      </section>
      <Register
        onRegistered={async (created) => {
          setNews(created.clientSecret ? null : `The client “${created.name}” is registered.`);
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

function ClientItem(props: { client: OidcClient; onRotate(): unknown; onDelete(): unknown }) {
  const c = props.client;
  const headingId = useId();
  return (
    <li class="oidc-client" aria-labelledby={headingId}>
      <h3 id={headingId}>{c.name}</h3>
      <dl>
        <dt>Type</dt>
        <dd>{c.type === 'confidential' ? 'Confidential (has a secret)' : 'Public (no secret)'}</dd>
        <dt>Client id</dt>
        <dd>
          <code>{c.clientId}</code>
        </dd>
        <dt>Redirect URIs</dt>
        <dd>
          <UriList uris={c.redirectUris} />
        </dd>
        {c.postLogoutRedirectUris.length > 0 && (
          <>
            <dt>Sign-out redirect URIs</dt>
            <dd>
              <UriList uris={c.postLogoutRedirectUris} />
            </dd>
          </>
        )}
        <dt>Grant types</dt>
        <dd>{c.grantTypes.map((g) => GRANT_LABEL[g]).join(', ')}</dd>
        <dt>First-party</dt>
        <dd>{c.firstParty ? 'Yes' : 'No'}</dd>
        <dt>ID token signing</dt>
        <dd>{c.idTokenSigningAlg}</dd>
        <dt>Created</dt>
        <dd>{when(c.createdAt)}</dd>
        {c.secretCreatedAt && (
          <>
            <dt>Secret made</dt>
            <dd>{when(c.secretCreatedAt)}</dd>
          </>
        )}
      </dl>
      <div class="actions">
        {c.type === 'confidential' && (
          <Confirm
            label="Rotate secret"
            fullLabel={`Rotate secret of ${c.name}`}
            question={
              <>
                Make a new secret for <strong>{c.name}</strong>? The current secret stops working at once: the app needs
                the new one.
              </>
            }
            confirmLabel="Rotate secret"
            overrides={CLIENT_SENTENCES}
            onConfirm={props.onRotate}
          />
        )}
        <Confirm
          label="Delete"
          fullLabel={`Delete ${c.name}`}
          danger
          question={
            <>
              Delete the client <strong>{c.name}</strong>? Apps using it can no longer sign people in. This cannot be
              undone.
            </>
          }
          confirmLabel="Delete client"
          overrides={CLIENT_SENTENCES}
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

function Register(props: {
  onRegistered(created: OidcClientWithSecret): Promise<void>;
  run<T>(action: () => Promise<T>): Promise<T>;
}) {
  const { client } = useSession();
  const [name, setName] = useState('');
  const [type, setType] = useState<OidcClientType>('confidential');
  const [redirects, setRedirects] = useState('');
  const [logoutRedirects, setLogoutRedirects] = useState('');
  const [grants, setGrants] = useState<OidcGrantType[]>(['authorization_code', 'refresh_token']);
  const [firstParty, setFirstParty] = useState(false);
  const [alg, setAlg] = useState<'ES256' | 'RS256'>('ES256');
  const [sent, setSent] = useState({ redirectUris: [] as string[], postLogoutRedirectUris: [] as string[] });
  const [local, setLocal] = useState<Record<string, string>>({});

  const offered = GRANTS.filter((g) => type === 'confidential' || g.value !== 'client_credentials');
  const chosen = grants.filter((g) => offered.some((o) => o.value === g));

  const register = useAction(async () => {
    const body = {
      name: name.trim(),
      type,
      redirectUris: lines(redirects),
      postLogoutRedirectUris: lines(logoutRedirects),
      grantTypes: chosen,
      firstParty,
      idTokenSigningAlg: alg,
    };
    const missing: Record<string, string> = {};
    if (!body.name) missing.name = 'Give the client a name, such as the app people will see.';
    if (body.redirectUris.length === 0) missing.redirectUris = 'Give at least one redirect URI, one per line.';
    if (body.grantTypes.length === 0) missing.grantTypes = 'Choose at least one grant type.';
    setLocal(missing);
    if (Object.keys(missing).length > 0) return;
    const addresses = { redirectUris: body.redirectUris, postLogoutRedirectUris: body.postLogoutRedirectUris };
    setSent(addresses);
    // The addresses are checked here first, by the SDK's copy of the service's rule, and said the same way.
    const checked = validateForm(formSchemas.oidcClientRedirects, addresses);
    if (!checked.success) throw formProblem(checked.errors);
    // Signed in more than 10 minutes ago: the prompt asks the user to confirm it is them, then the same call again.
    const created = await props.run(() => client.admin.oidcClients.create(body));
    setName('');
    setRedirects('');
    setLogoutRedirects('');
    setFirstParty(false);
    await props.onRegistered(created);
  });
  const remote = problemsByField(register.error, sent);
  const problem = (field: string) => local[field] ?? remote[field];
  const grantsProblemId = useId();
  const grantsProblem = problem('grantTypes');

  return (
    <section class="panel" aria-labelledby="register-heading">
      <h2 id="register-heading">Register a client</h2>
      <form onSubmit={onSubmit(register.run)} noValidate>
        <Field
          label="Name"
          name="name"
          required
          maxLength={128}
          autocomplete="off"
          hint="The app’s name, as you and the people signing in know it."
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          problem={problem('name')}
        />
        <fieldset class="choice options">
          <legend>Type</legend>
          <label>
            <input type="radio" name="type" checked={type === 'public'} onChange={() => setType('public')} />
            <Choice note="An app on people’s devices (single-page or mobile): it cannot keep a secret, so it has none.">
              Public
            </Choice>
          </label>
          <label>
            <input
              type="radio"
              name="type"
              checked={type === 'confidential'}
              onChange={() => setType('confidential')}
            />
            <Choice note="An app on your server, which keeps a secret: it gets one, shown once.">Confidential</Choice>
          </label>
        </fieldset>
        <LinesField
          label="Redirect URIs"
          required
          hint="Where people come back after signing in, exactly, one per line: https, http only for localhost, no # part."
          value={redirects}
          onInput={setRedirects}
          problem={problem('redirectUris')}
        />
        <LinesField
          label="Sign-out redirect URIs (optional)"
          hint="Where people may be sent after signing out, one per line."
          value={logoutRedirects}
          onInput={setLogoutRedirects}
          problem={problem('postLogoutRedirectUris')}
        />
        <fieldset
          class="choice options"
          aria-describedby={grantsProblem ? grantsProblemId : undefined}
          aria-invalid={grantsProblem ? 'true' : undefined}
        >
          <legend>Grant types</legend>
          {offered.map((g) => (
            <label key={g.value}>
              <input
                type="checkbox"
                name="grantTypes"
                value={g.value}
                checked={chosen.includes(g.value)}
                onChange={(e) =>
                  setGrants(
                    e.currentTarget.checked ? [...chosen, g.value] : chosen.filter((value) => value !== g.value),
                  )
                }
              />
              <Choice note={g.sentence}>{g.label}</Choice>
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
              checked={firstParty}
              onChange={(e) => setFirstParty(e.currentTarget.checked)}
            />
            <Choice note="Your own app: people signing in to it are not asked to approve it.">First-party</Choice>
          </label>
        </div>
        <fieldset class="choice options">
          <legend>ID token signing</legend>
          <label>
            <input type="radio" name="alg" checked={alg === 'ES256'} onChange={() => setAlg('ES256')} />
            <Choice note="The default: small, fast keys.">ES256</Choice>
          </label>
          <label>
            <input type="radio" name="alg" checked={alg === 'RS256'} onChange={() => setAlg('RS256')} />
            <Choice note="For API Gateway JWT authorizers, which accept RSA signatures only.">RS256</Choice>
          </label>
        </fieldset>
        <Problem error={register.error} overrides={CLIENT_SENTENCES} />
        <Button busy={register.busy}>Register client</Button>
      </form>
    </section>
  );
}

/** A confidential client's secret, just made: shown this once, with a copy button. */
function NewSecret(props: { client: OidcClientWithSecret; rotated: boolean; onDone(): void }) {
  return (
    <ShownOnce
      id="client-secret-heading"
      heading={props.rotated ? `The new secret of “${props.client.name}”` : `“${props.client.name}” is registered`}
      value={props.client.clientSecret ?? ''}
      noun="secret"
      testId="client-secret"
      onDone={props.onDone}
    >
      <strong>Copy the secret now: you will not see it again.</strong>{' '}
      {props.rotated ? 'The old secret no longer works. ' : ''}Store it where your server keeps its secrets, with the
      client id <code>{props.client.clientId}</code>.
    </ShownOnce>
  );
}
