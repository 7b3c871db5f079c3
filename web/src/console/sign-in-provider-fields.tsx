import { useId } from 'preact/hooks';
import { type TextKey, t, tx } from '../i18n/index.ts';
import { codeSentence, fieldSentences, formProblem } from '../messages.ts';
import {
  ApiError,
  type CreateSignInProviderRequest,
  type SignInProviderKind as ProviderKind,
  type SignInProvider,
  type UpdateSignInProviderRequest,
} from '../sdk.ts';
import { Field, PasswordField } from '../ui.tsx';

/** What each kind is, as the form and the provider's page say it. */
interface KindFacts {
  kind: ProviderKind;
  label: TextKey;
  note: TextKey;
  /** The button's name unless the admin gives another (the service's; OIDC has none: the admin must give one). */
  name: string | null;
  /** The scopes asked unless the admin lists others (the service's). */
  scopes: string[];
  clientIdHint: TextKey;
  /** Where the redirect URI is registered at the provider. */
  register: TextKey;
}

export const KINDS: KindFacts[] = [
  {
    kind: 'GOOGLE',
    label: 'providers.kind.GOOGLE',
    note: 'providers.kindNote.GOOGLE',
    name: 'Google',
    scopes: ['openid', 'email', 'profile'],
    clientIdHint: 'providers.clientIdHint.GOOGLE',
    register: 'providers.register.GOOGLE',
  },
  {
    kind: 'APPLE',
    label: 'providers.kind.APPLE',
    note: 'providers.kindNote.APPLE',
    name: 'Apple',
    scopes: ['openid', 'email', 'name'],
    clientIdHint: 'providers.clientIdHint.APPLE',
    register: 'providers.register.APPLE',
  },
  {
    kind: 'MICROSOFT',
    label: 'providers.kind.MICROSOFT',
    note: 'providers.kindNote.MICROSOFT',
    name: 'Microsoft',
    scopes: ['openid', 'email', 'profile'],
    clientIdHint: 'providers.clientIdHint.MICROSOFT',
    register: 'providers.register.MICROSOFT',
  },
  {
    kind: 'GITHUB',
    label: 'providers.kind.GITHUB',
    note: 'providers.kindNote.GITHUB',
    name: 'GitHub',
    scopes: ['read:user', 'user:email'],
    clientIdHint: 'providers.clientIdHint.GITHUB',
    register: 'providers.register.GITHUB',
  },
  {
    kind: 'OIDC',
    label: 'providers.kind.OIDC',
    note: 'providers.kindNote.OIDC',
    name: null,
    scopes: ['openid', 'email', 'profile'],
    clientIdHint: 'providers.clientIdHint.OIDC',
    register: 'providers.register.OIDC',
  },
];

export function kindFacts(kind: ProviderKind): KindFacts {
  return KINDS.find((facts) => facts.kind === kind) ?? (KINDS[KINDS.length - 1] as KindFacts);
}

export const kindName = (kind: ProviderKind) => t(kindFacts(kind).label);

/** The service keeps at most this many providers per tenant (a sign-in page shows them all as buttons). */
export const MAX_PROVIDERS = 10;
const MAX_NAME = 40;
const MAX_SCOPES = 20;
const APPLE_ID = /^[A-Z0-9]{10}$/;
/** A PEM block's shape, its BEGIN and END lines around base64 (the service checks it is an Apple key). */
const APPLE_KEY = /^-----BEGIN [A-Z ]+-----[A-Za-z0-9+/=\s]+-----END [A-Z ]+-----$/;
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]{1,128}$/;
const DIRECTORY = /^[A-Za-z0-9.-]{1,128}$/;

/** A provider as its form holds it: everything as typed. */
export interface Draft {
  kind: ProviderKind;
  displayName: string;
  clientId: string;
  clientSecret: string;
  teamId: string;
  keyId: string;
  privateKey: string;
  issuer: string;
  microsoftTenant: string;
  scopes: string;
  enabled: boolean;
  trustEmail: boolean;
  order: string;
}

export const NEW_PROVIDER: Draft = {
  kind: 'GOOGLE',
  displayName: '',
  clientId: '',
  clientSecret: '',
  teamId: '',
  keyId: '',
  privateKey: '',
  issuer: '',
  microsoftTenant: '',
  scopes: '',
  enabled: true,
  trustEmail: false,
  order: '',
};

const words = (text: string) => text.split(/\s+/).filter(Boolean);
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item, i) => item === b[i]);

/** A stored provider in its form: a name, directory or scopes that are the kind's own show as empty (the placeholder). */
export function draftOf(provider: SignInProvider): Draft {
  const facts = kindFacts(provider.kind);
  return {
    kind: provider.kind,
    displayName: provider.displayName === facts.name ? '' : provider.displayName,
    clientId: provider.clientId,
    clientSecret: '',
    teamId: provider.apple?.teamId ?? '',
    keyId: provider.apple?.keyId ?? '',
    privateKey: '',
    issuer: provider.kind === 'OIDC' ? provider.issuer : '',
    microsoftTenant: provider.microsoftTenant && provider.microsoftTenant !== 'common' ? provider.microsoftTenant : '',
    scopes: sameList(provider.scopes, facts.scopes) ? '' : provider.scopes.join(' '),
    enabled: provider.enabled,
    trustEmail: provider.trustEmail,
    order: String(provider.order),
  };
}

export const sameDraft = (a: Draft, b: Draft) => JSON.stringify(a) === JSON.stringify(b);

/** An issuer as the service takes it: an absolute http(s) URL without query or fragment. */
function issuerProblem(value: string): string | undefined {
  if (!value) return t('providers.problem.issuer');
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return t('providers.problem.issuerUrl');
  } catch {
    return t('providers.problem.issuerUrl');
  }
  if (/[?#]/.test(value)) return t('providers.problem.issuerQuery');
  return undefined;
}

/** The form's own checks, as sentences by field; `stored` when changing a provider (its secret may stay). */
export function localProblems(draft: Draft, stored: SignInProvider | null): Record<string, string> {
  const problems: Record<string, string> = {};
  const name = draft.displayName.trim();
  if (draft.kind === 'OIDC' && !name) problems.displayName = t('providers.problem.name');
  if (name.length > MAX_NAME) problems.displayName = t('providers.problem.nameLength', { max: MAX_NAME });
  if (!draft.clientId.trim()) problems.clientId = t('providers.problem.clientId');
  if (draft.kind === 'APPLE') {
    if (!APPLE_ID.test(draft.teamId.trim())) problems.teamId = t('providers.problem.teamId');
    if (!APPLE_ID.test(draft.keyId.trim())) problems.keyId = t('providers.problem.keyId');
    const key = draft.privateKey.trim();
    const idsChanged =
      stored !== null && (draft.teamId.trim() !== stored.apple?.teamId || draft.keyId.trim() !== stored.apple?.keyId);
    if (key && !APPLE_KEY.test(key)) problems.privateKey = t('providers.problem.privateKeyForm');
    else if (!key && stored === null) problems.privateKey = t('providers.problem.privateKey');
    else if (!key && idsChanged) problems.privateKey = t('providers.problem.privateKeyAgain');
  } else if (stored === null && !draft.clientSecret) {
    problems.clientSecret = t('providers.problem.clientSecret');
  }
  if (draft.kind === 'OIDC') {
    const issuer = issuerProblem(draft.issuer.trim());
    if (issuer) problems.issuer = issuer;
  }
  if (draft.kind === 'MICROSOFT' && draft.microsoftTenant.trim() && !DIRECTORY.test(draft.microsoftTenant.trim())) {
    problems.microsoftTenant = t('providers.problem.directory');
  }
  const scopes = words(draft.scopes);
  const wrong = scopes.find((scope) => !SCOPE.test(scope));
  if (wrong) problems.scopes = t('providers.problem.scope', { scope: wrong });
  else if (scopes.length > MAX_SCOPES) problems.scopes = t('providers.problem.scopes', { max: MAX_SCOPES });
  const order = draft.order.trim();
  if (order && !(/^\d{1,2}$/.test(order) && Number(order) <= 99)) problems.order = t('providers.problem.order');
  return problems;
}

/** POST's body: the kind's own name, directory and scopes when left empty (the service fills them). */
export function createBody(draft: Draft): CreateSignInProviderRequest {
  const body: CreateSignInProviderRequest = { kind: draft.kind, clientId: draft.clientId.trim() };
  const name = draft.displayName.trim();
  if (name) body.displayName = name;
  if (draft.kind === 'APPLE') {
    body.apple = { teamId: draft.teamId.trim(), keyId: draft.keyId.trim(), privateKey: draft.privateKey.trim() };
  } else body.clientSecret = draft.clientSecret;
  if (draft.kind === 'OIDC') body.issuer = draft.issuer.trim();
  if (draft.kind === 'MICROSOFT' && draft.microsoftTenant.trim()) body.microsoftTenant = draft.microsoftTenant.trim();
  const scopes = words(draft.scopes);
  if (scopes.length > 0) body.scopes = scopes;
  body.enabled = draft.enabled;
  body.trustEmail = draft.trustEmail;
  if (draft.order.trim()) body.order = Number(draft.order.trim());
  return body;
}

/**
 * PATCH's body: only what changed, so that an unchanged issuer is not read again. An empty secret or key keeps the
 * stored one; an emptied name, directory or scope list goes back to the kind's own.
 */
export function changesOf(stored: SignInProvider, draft: Draft): UpdateSignInProviderRequest {
  const facts = kindFacts(stored.kind);
  const body: UpdateSignInProviderRequest = {};
  const name = draft.displayName.trim() || facts.name || '';
  if (name && name !== stored.displayName) body.displayName = name;
  if (draft.clientId.trim() !== stored.clientId) body.clientId = draft.clientId.trim();
  if (stored.kind === 'APPLE') {
    if (draft.privateKey.trim()) {
      body.apple = { teamId: draft.teamId.trim(), keyId: draft.keyId.trim(), privateKey: draft.privateKey.trim() };
    }
  } else if (draft.clientSecret) body.clientSecret = draft.clientSecret;
  if (stored.kind === 'OIDC' && draft.issuer.trim() !== stored.issuer) body.issuer = draft.issuer.trim();
  const directory = draft.microsoftTenant.trim() || 'common';
  if (stored.kind === 'MICROSOFT' && directory !== stored.microsoftTenant) body.microsoftTenant = directory;
  const scopes = words(draft.scopes);
  const asked = scopes.length > 0 ? scopes : facts.scopes;
  if (!sameList(asked, stored.scopes)) body.scopes = asked;
  if (draft.enabled !== stored.enabled) body.enabled = draft.enabled;
  if (draft.trustEmail !== stored.trustEmail) body.trustEmail = draft.trustEmail;
  const order = draft.order.trim();
  if (order && Number(order) !== stored.order) body.order = Number(order);
  return body;
}

/** The service's messages about these fields, in the language in use; the English texts are the messages themselves. */
const PREDICATES: [RegExp, TextKey][] = [
  [/^must be 10 capital letters or digits$/, 'providers.predicate.appleId'],
  [/^must be the \.p8 key \(PEM\)$/, 'providers.predicate.p8'],
  [/^must be an absolute URL$/, 'providers.predicate.absolute'],
  [/^must not have a query or fragment$/, 'providers.predicate.queryFragment'],
  [/^must be a scope token$/, 'providers.predicate.scope'],
  [/^must be common, organizations, consumers, a directory id or a domain$/, 'providers.predicate.directory'],
];

const predicate = (message: string) => {
  const known = PREDICATES.find(([pattern]) => pattern.test(message));
  return known ? t(known[1]) : message;
};

/** Which field of the form a path of the service's names, and how the sentences name it. */
function fieldOf(path: string, kind: ProviderKind): { field: string; label: string } | undefined {
  const [first = '', second] = path.split('.');
  if (first === 'apple') {
    const field = second === 'teamId' || second === 'keyId' ? second : 'privateKey';
    return { field, label: t(FIELD_LABELS[field] as TextKey) };
  }
  // Entra ID's issuer is made of its directory.
  const field = first === 'issuer' && kind === 'MICROSOFT' ? 'microsoftTenant' : first;
  const label = FIELD_LABELS[field];
  return label ? { field, label: t(label) } : undefined;
}

const FIELD_LABELS: Record<string, TextKey> = {
  displayName: 'providers.field.displayName',
  clientId: 'providers.field.clientId',
  clientSecret: 'providers.field.clientSecret',
  teamId: 'providers.field.teamId',
  keyId: 'providers.field.keyId',
  privateKey: 'providers.field.privateKey',
  issuer: 'providers.field.issuer',
  microsoftTenant: 'providers.field.directory',
  scopes: 'providers.field.scopes',
  order: 'providers.field.order',
};

/**
 * A provider whose settings could not be read (PROVIDER_DISCOVERY_FAILED): the problem's sentence and the service's
 * detail (what went wrong: no answer, another issuer named), said at the field it comes from, or in the alert for a
 * kind whose issuer is not the admin's.
 */
export function discoveryProblem(
  error: unknown,
  kind: ProviderKind,
): { field: string | null; sentence: string } | null {
  if (!(error instanceof ApiError) || error.code !== 'PROVIDER_DISCOVERY_FAILED') return null;
  const detail = error.errors.find((e) => e.path === 'issuer')?.message ?? error.detail;
  // The detail is the service's own words (English), a clause: said after the sentence, ending as one.
  const clause = detail?.trim().replace(/[.\s]+$/, '');
  const sentence = [
    codeSentence('PROVIDER_DISCOVERY_FAILED'),
    clause ? t('providers.problem.detail', { detail: clause }) : '',
  ]
    .filter(Boolean)
    .join(' ');
  const field = kind === 'OIDC' ? 'issuer' : kind === 'MICROSOFT' ? 'microsoftTenant' : null;
  return { field, sentence };
}

/** The service's refusal as sentences by field (the form's own checks come first, in `localProblems`). */
export function remoteProblems(error: unknown, kind: ProviderKind): Record<string, string> {
  const discovery = discoveryProblem(error, kind);
  if (discovery) return discovery.field ? { [discovery.field]: discovery.sentence } : {};
  const readable =
    error instanceof ApiError && error.code === 'VALIDATION_FAILED'
      ? formProblem(error.errors.map(({ path, message }) => ({ path, message: predicate(message) })))
      : error;
  return fieldSentences(readable, (path) => fieldOf(path, kind));
}

/** The alert under the form: the code's sentence, or where the problem is said at a field, a pointer to it. */
export function alertOverrides(error: unknown, kind: ProviderKind) {
  const discovery = discoveryProblem(error, kind);
  return {
    PROVIDER_DISCOVERY_FAILED: discovery?.field ? codeSentence('VALIDATION_FAILED') : (discovery?.sentence ?? ''),
    NOT_FOUND: t('providers.gone'),
  };
}

/** A textarea with its label, hint and problem, as `Field` does for inputs. */
function KeyField(props: {
  label: string;
  hint: string;
  value: string;
  onInput(value: string): void;
  problem?: string | undefined;
}) {
  const id = useId();
  const described = [props.problem ? `${id}-problem` : '', `${id}-hint`].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <textarea
        id={id}
        name="privateKey"
        class="pem"
        rows={5}
        spellcheck={false}
        autocomplete="off"
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

/**
 * A provider's fields, for adding one (the kind is chosen first, and the fields follow it) and for changing one
 * (`stored`: the kind is said, not chosen; an empty secret or key keeps the stored one).
 */
export function ProviderFields(props: {
  draft: Draft;
  onChange(change: Partial<Draft>): void;
  problem(field: string): string | undefined;
  stored: SignInProvider | null;
}) {
  const { draft, onChange, problem, stored } = props;
  const facts = kindFacts(draft.kind);
  const secretHint = stored
    ? t('providers.secretKeep')
    : t(draft.kind === 'GITHUB' ? 'providers.secretHint.GITHUB' : 'providers.secretHint');
  return (
    <>
      {stored ? (
        <>
          <p>
            <span class="option-title">{t('providers.kindIs')}</span> {kindName(stored.kind)}
          </p>
          <p class="muted">{t('providers.kindNever')}</p>
        </>
      ) : (
        <fieldset class="choice options">
          <legend>{t('providers.kind')}</legend>
          {KINDS.map((k) => (
            <label key={k.kind}>
              <input
                type="radio"
                name="kind"
                value={k.kind}
                checked={draft.kind === k.kind}
                onChange={() => onChange({ kind: k.kind })}
              />
              <span>
                <span class="option-title">{t(k.label)}</span> <span class="muted">{t(k.note)}</span>
              </span>
            </label>
          ))}
        </fieldset>
      )}
      {draft.kind === 'OIDC' && (
        <Field
          label={t('providers.issuer')}
          name="issuer"
          type="url"
          inputMode="url"
          required
          autocomplete="off"
          spellcheck={false}
          placeholder="https://login.example.com"
          hint={t('providers.issuerHint')}
          value={draft.issuer}
          onInput={(e) => onChange({ issuer: e.currentTarget.value })}
          problem={problem('issuer')}
        />
      )}
      <Field
        label={t(draft.kind === 'OIDC' ? 'providers.displayName' : 'providers.displayNameOptional')}
        name="displayName"
        required={draft.kind === 'OIDC'}
        maxLength={MAX_NAME}
        autocomplete="off"
        placeholder={facts.name ?? undefined}
        hint={facts.name ? t('providers.displayNameHint', { name: facts.name }) : t('providers.displayNameHintOidc')}
        value={draft.displayName}
        onInput={(e) => onChange({ displayName: e.currentTarget.value })}
        problem={problem('displayName')}
      />
      {draft.kind === 'MICROSOFT' && (
        <Field
          label={t('providers.directory')}
          name="microsoftTenant"
          autocomplete="off"
          spellcheck={false}
          placeholder="common"
          hint={<DirectoryHint />}
          value={draft.microsoftTenant}
          onInput={(e) => onChange({ microsoftTenant: e.currentTarget.value })}
          problem={problem('microsoftTenant')}
        />
      )}
      <Field
        label={t(draft.kind === 'APPLE' ? 'providers.servicesId' : 'providers.clientId')}
        name="clientId"
        required
        autocomplete="off"
        spellcheck={false}
        hint={t(facts.clientIdHint)}
        value={draft.clientId}
        onInput={(e) => onChange({ clientId: e.currentTarget.value })}
        problem={problem('clientId')}
      />
      {draft.kind === 'APPLE' ? (
        <>
          <div class="row top">
            <Field
              label={t('providers.teamId')}
              name="teamId"
              required
              autocomplete="off"
              spellcheck={false}
              maxLength={10}
              hint={t('providers.teamIdHint')}
              value={draft.teamId}
              onInput={(e) => onChange({ teamId: e.currentTarget.value.toUpperCase() })}
              problem={problem('teamId')}
            />
            <Field
              label={t('providers.keyId')}
              name="keyId"
              required
              autocomplete="off"
              spellcheck={false}
              maxLength={10}
              hint={t('providers.keyIdHint')}
              value={draft.keyId}
              onInput={(e) => onChange({ keyId: e.currentTarget.value.toUpperCase() })}
              problem={problem('keyId')}
            />
          </div>
          <KeyField
            label={t('providers.privateKey')}
            hint={t(stored ? 'providers.privateKeyKeep' : 'providers.privateKeyHint')}
            value={draft.privateKey}
            onInput={(privateKey) => onChange({ privateKey })}
            problem={problem('privateKey')}
          />
        </>
      ) : (
        <PasswordField
          label={t('providers.clientSecret')}
          name="clientSecret"
          required={!stored}
          autocomplete="off"
          hint={secretHint}
          value={draft.clientSecret}
          onInput={(e) => onChange({ clientSecret: e.currentTarget.value })}
          problem={problem('clientSecret')}
        />
      )}
      <Field
        label={t('providers.scopes')}
        name="scopes"
        autocomplete="off"
        spellcheck={false}
        placeholder={facts.scopes.join(' ')}
        hint={t(draft.kind === 'GITHUB' ? 'providers.scopesHintGithub' : 'providers.scopesHint')}
        value={draft.scopes}
        onInput={(e) => onChange({ scopes: e.currentTarget.value })}
        problem={problem('scopes')}
      />
      <Field
        label={t('providers.order')}
        name="order"
        inputMode="numeric"
        autocomplete="off"
        maxLength={2}
        class="short"
        hint={t(stored ? 'providers.orderHintEdit' : 'providers.orderHint')}
        value={draft.order}
        onInput={(e) => onChange({ order: e.currentTarget.value })}
        problem={problem('order')}
      />
      <Switch
        name="enabled"
        label={t('providers.enabled')}
        note={t('providers.enabledNote')}
        checked={draft.enabled}
        onChange={(enabled) => onChange({ enabled })}
      />
      <Switch
        name="trustEmail"
        label={t('providers.trustEmail')}
        note={t('providers.trustEmailNote')}
        checked={draft.trustEmail}
        onChange={(trustEmail) => onChange({ trustEmail })}
      />
    </>
  );
}

/** A checkbox with the sentence that says what it does, read out with it. */
function Switch(props: { name: string; label: string; note: string; checked: boolean; onChange(on: boolean): void }) {
  const noteId = useId();
  return (
    <div class="field options switch">
      <label>
        <input
          type="checkbox"
          name={props.name}
          checked={props.checked}
          aria-describedby={noteId}
          onChange={(e) => props.onChange(e.currentTarget.checked)}
        />
        <span class="option-title">{props.label}</span>
      </label>
      <p class="hint" id={noteId}>
        {props.note}
      </p>
    </div>
  );
}

/** Entra ID's directories, one choice a line: who may sign in with each. */
function DirectoryHint() {
  return (
    <>
      <p class="directories-intro">{t('providers.directoryHint')}</p>
      <ul class="directories">
        <li>{tx('providers.directory.common', { value: <code>common</code> })}</li>
        <li>{tx('providers.directory.organizations', { value: <code>organizations</code> })}</li>
        <li>{tx('providers.directory.consumers', { value: <code>consumers</code> })}</li>
        <li>{t('providers.directory.single')}</li>
      </ul>
    </>
  );
}
