import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { type Brand, DEFAULT_PRIMARY, DEFAULT_SECONDARY, darkPair, isHttpsUrl } from '../brand.ts';
import { type Language, type TextKey, t } from '../i18n/index.ts';
import { codeSentence, fieldSentences } from '../messages.ts';
import {
  formSchemas,
  type LoginMode,
  type Merchant,
  type SignupMode,
  type UpdateMerchantRequest,
  validateForm,
} from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Button, Field, Notice, onSubmit, Problem, useAction, useResource } from '../ui.tsx';
import { ConsolePage } from './layout.tsx';
import { LeaveGuard } from './leave-guard.tsx';
import { SignInPreview } from './preview.tsx';
import './settings.css';

/** Whether `value` is a colour the service takes (`#rrggbb`), by the SDK's copy of its rule. */
const isColour = (value: string) => validateForm(formSchemas.merchantColours, { primaryColor: value }).success;
/** The service keeps at most 20 (shared/merchants/schemas.ts). */
const MAX_ORIGINS = 20;

/** A choice of a setting: its value, and the keys of its title and of the sentence that says what it does. */
interface Option<T extends string> {
  value: T;
  title: TextKey;
  sentence: TextKey;
}

const LOGIN_MODES: Option<LoginMode>[] = [
  { value: 'PASSWORD', title: 'settings.loginMode.password', sentence: 'settings.loginMode.passwordSentence' },
  { value: 'OTP_EMAIL', title: 'settings.loginMode.code', sentence: 'settings.loginMode.codeSentence' },
  { value: 'PASSWORD_OR_OTP_EMAIL', title: 'settings.loginMode.either', sentence: 'settings.loginMode.eitherSentence' },
];

const SIGNUP_MODES: Option<SignupMode>[] = [
  { value: 'OPEN', title: 'settings.signupMode.open', sentence: 'settings.signupMode.openSentence' },
  {
    value: 'INVITATION_ONLY',
    title: 'settings.signupMode.invitation',
    sentence: 'settings.signupMode.invitationSentence',
  },
];

/** The tenant's language: the pages' and the mails' when a reader's browser names none of ours. */
const LANGUAGE_CHOICES: Option<Language>[] = [
  { value: 'en', title: 'settings.language.en', sentence: 'settings.language.enSentence' },
  { value: 'de', title: 'settings.language.de', sentence: 'settings.language.deSentence' },
];

interface Form {
  name: string;
  logoUrl: string;
  primaryColor: string;
  secondaryColor: string;
  darkPrimaryColor: string;
  darkSecondaryColor: string;
  privacyPolicyUrl: string;
  termsUrl: string;
  defaultLanguage: Language;
  loginMode: LoginMode;
  signupMode: SignupMode;
  totpAllowed: boolean;
  allowUserDisableTotp: boolean;
  passkeysAllowed: boolean;
  allowedOrigins: string[];
}

function formOf(merchant: Merchant): Form {
  return {
    name: merchant.name,
    logoUrl: merchant.logoUrl ?? '',
    primaryColor: merchant.primaryColor ?? '',
    secondaryColor: merchant.secondaryColor ?? '',
    darkPrimaryColor: merchant.darkPrimaryColor ?? '',
    darkSecondaryColor: merchant.darkSecondaryColor ?? '',
    privacyPolicyUrl: merchant.privacyPolicyUrl ?? '',
    termsUrl: merchant.termsUrl ?? '',
    defaultLanguage: merchant.defaultLanguage,
    loginMode: merchant.loginMode,
    signupMode: merchant.signupMode,
    totpAllowed: merchant.totpAllowed,
    allowUserDisableTotp: merchant.allowUserDisableTotp,
    passkeysAllowed: merchant.passkeysAllowed,
    allowedOrigins: [...merchant.allowedOrigins],
  };
}

/** An origin as the service takes it: scheme, host and port, nothing more (`https://shop.example`). */
export function originProblem(value: string): string | undefined {
  try {
    const url = new URL(value);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value) return undefined;
  } catch {
    // Not a URL at all: said below.
  }
  return t('settings.problem.origin');
}

/** The brand the form shows now: what is valid of it, the defaults for the rest. */
function brandOfForm(form: Form, fallbackName: string): Brand {
  return {
    name: form.name.trim() || fallbackName,
    logoUrl: isHttpsUrl(form.logoUrl.trim()) ? form.logoUrl.trim() : null,
    primaryColor: isColour(form.primaryColor) ? form.primaryColor.toLowerCase() : null,
    secondaryColor: isColour(form.secondaryColor) ? form.secondaryColor.toLowerCase() : null,
    darkPrimaryColor: isColour(form.darkPrimaryColor) ? form.darkPrimaryColor.toLowerCase() : null,
    darkSecondaryColor: isColour(form.darkSecondaryColor) ? form.darkSecondaryColor.toLowerCase() : null,
  };
}

/**
 * The merchant's settings: name, logo and colours, light and dark (with a live
 * preview of the sign-in page), the policy links of the pages' footer, how
 * people sign in and sign up, authenticator apps, passkeys, and the origins allowed to
 * call the service from a browser.
 */
export function Settings() {
  const { client, tenant, setTenant } = useSession();
  const { data: merchant, error, setData: setMerchant } = useResource(() => client.admin.merchant.get());

  return (
    <ConsolePage title={t('settings.title')}>
      <Problem error={error} />
      {!merchant && !error && <p class="muted">{t('settings.loading')}</p>}
      {merchant && (
        <SettingsForm
          merchant={merchant}
          onSaved={(saved) => {
            setMerchant(saved);
            // This page wears the new brand at once, and the frame (name, title) follows.
            setTenant({
              ...tenant,
              name: saved.name,
              logoUrl: saved.logoUrl,
              primaryColor: saved.primaryColor,
              secondaryColor: saved.secondaryColor,
              darkPrimaryColor: saved.darkPrimaryColor,
              darkSecondaryColor: saved.darkSecondaryColor,
              privacyPolicyUrl: saved.privacyPolicyUrl,
              termsUrl: saved.termsUrl,
              defaultLanguage: saved.defaultLanguage,
              loginMode: saved.loginMode,
              signupMode: saved.signupMode,
              totpAllowed: saved.totpAllowed,
              allowUserDisableTotp: saved.allowUserDisableTotp,
              // The console is served on the hosted pages, where discovery says the setting as it is.
              passkeysAllowed: saved.passkeysAllowed,
            });
          }}
        />
      )}
    </ConsolePage>
  );
}

/** Whether the form holds anything the last save did not (what was read, or what the save answered). */
const sameForm = (a: Form, b: Form) => JSON.stringify(a) === JSON.stringify(b);

/** The form's own checks, as the service's field messages would name them: by field, in the form's words. */
function problemsOf(form: Form): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!form.name.trim()) problems.name = t('settings.problem.name');
  const logoUrl = form.logoUrl.trim();
  if (logoUrl && !isHttpsUrl(logoUrl)) problems.logoUrl = t('settings.problem.logoUrl');
  const colours = validateForm(formSchemas.merchantColours, {
    primaryColor: form.primaryColor.trim() || null,
    secondaryColor: form.secondaryColor.trim() || null,
    darkPrimaryColor: form.darkPrimaryColor.trim() || null,
    darkSecondaryColor: form.darkSecondaryColor.trim() || null,
  });
  if (!colours.success) for (const error of colours.errors) problems[error.path] = t('settings.problem.colour');
  const privacyPolicyUrl = form.privacyPolicyUrl.trim();
  if (privacyPolicyUrl && !isHttpsUrl(privacyPolicyUrl)) problems.privacyPolicyUrl = t('settings.problem.privacyUrl');
  const termsUrl = form.termsUrl.trim();
  if (termsUrl && !isHttpsUrl(termsUrl)) problems.termsUrl = t('settings.problem.termsUrl');
  return problems;
}

const colourOrNull = (value: string) => value.trim().toLowerCase() || null;

/**
 * The form starts from the merchant as read, and again from what each save answered. While it differs from that,
 * the save bar says so, and leaving the page asks first (LeaveGuard). A save refused, by the form's own checks or
 * by the service, moves focus to the first field with a problem.
 */
function SettingsForm(props: { merchant: Merchant; onSaved(merchant: Merchant): void }) {
  const { client } = useSession();
  const { merchant } = props;
  const [form, setForm] = useState(() => formOf(merchant));
  const set = (change: Partial<Form>) => setForm({ ...form, ...change });
  const [local, setLocal] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const dirty = !sameForm(form, formOf(merchant));

  const save = useAction(async () => {
    setSaved(false);
    const problems = problemsOf(form);
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    const body: UpdateMerchantRequest = {
      name: form.name.trim(),
      logoUrl: form.logoUrl.trim() || null,
      primaryColor: colourOrNull(form.primaryColor),
      secondaryColor: colourOrNull(form.secondaryColor),
      darkPrimaryColor: colourOrNull(form.darkPrimaryColor),
      darkSecondaryColor: colourOrNull(form.darkSecondaryColor),
      privacyPolicyUrl: form.privacyPolicyUrl.trim() || null,
      termsUrl: form.termsUrl.trim() || null,
      defaultLanguage: form.defaultLanguage,
      loginMode: form.loginMode,
      signupMode: form.signupMode,
      totpAllowed: form.totpAllowed,
      allowUserDisableTotp: form.allowUserDisableTotp,
      passkeysAllowed: form.passkeysAllowed,
      allowedOrigins: form.allowedOrigins,
    };
    const answer = await client.admin.merchant.update(merchant.id, body);
    setForm(formOf(answer));
    props.onSaved(answer);
    setSaved(true);
  });
  // The service's field messages (what the form's own checks let through), each a sentence in the language in use.
  const remote = fieldSentences(save.error);
  const problemOf = (path: string) => local[path] ?? remote[path];
  const brand = brandOfForm(form, merchant.name);
  // What an empty dark colour stands for: the pair the pages derive from the light colours being edited.
  const derived = darkPair({ ...brand, darkPrimaryColor: null, darkSecondaryColor: null });
  const originsProblem = Object.entries(remote).find(([path]) => path.startsWith('allowedOrigins'))?.[1];

  // After a refused save (the form's own checks, each attempt a new `local`; or the service's answer), the first
  // field with a problem, in the order shown, is brought into view clear of the sticky save bar and focused, so
  // that a keyboard or screen reader user starts where the fix is.
  useEffect(() => {
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!first) return;
    first.scrollIntoView({ block: 'center' });
    first.focus({ preventScroll: true });
  }, [local, save.error]);

  return (
    <form
      ref={formRef}
      onSubmit={onSubmit(save.run)}
      onInput={() => setSaved(false)}
      noValidate
      aria-describedby="settings-intro"
      class="settings-layout"
    >
      <div>
        <p id="settings-intro" class="muted">
          {t('settings.intro')}
        </p>
        <fieldset class="panel">
          <legend>{t('settings.brand')}</legend>
          <Field
            label={t('settings.name')}
            name="name"
            required
            maxLength={128}
            value={form.name}
            onInput={(e) => set({ name: e.currentTarget.value })}
            problem={problemOf('name')}
          />
          <Field
            label={t('settings.logoUrl')}
            name="logoUrl"
            type="url"
            inputMode="url"
            hint={t('settings.logoUrlHint')}
            value={form.logoUrl}
            onInput={(e) => set({ logoUrl: e.currentTarget.value })}
            problem={problemOf('logoUrl')}
          />
          <ColourField
            label={t('settings.primary')}
            pickLabel={t('settings.primaryPick')}
            name="primaryColor"
            hint={t('settings.primaryHint')}
            fallback={DEFAULT_PRIMARY}
            value={form.primaryColor}
            onChange={(primaryColor) => set({ primaryColor })}
            problem={problemOf('primaryColor')}
          />
          <ColourField
            label={t('settings.secondary')}
            pickLabel={t('settings.secondaryPick')}
            name="secondaryColor"
            hint={t('settings.secondaryHint')}
            fallback={DEFAULT_SECONDARY}
            value={form.secondaryColor}
            onChange={(secondaryColor) => set({ secondaryColor })}
            problem={problemOf('secondaryColor')}
          />
        </fieldset>

        <fieldset class="panel" aria-describedby="dark-intro">
          <legend>{t('settings.dark')}</legend>
          <p id="dark-intro" class="muted">
            {t('settings.darkIntro')}
          </p>
          <ColourField
            label={t('settings.darkPrimary')}
            pickLabel={t('settings.darkPrimaryPick')}
            name="darkPrimaryColor"
            hint={t('settings.darkPrimaryHint', { colour: derived.primary })}
            fallback={derived.primary}
            value={form.darkPrimaryColor}
            onChange={(darkPrimaryColor) => set({ darkPrimaryColor })}
            problem={problemOf('darkPrimaryColor')}
          />
          <ColourField
            label={t('settings.darkSecondary')}
            pickLabel={t('settings.darkSecondaryPick')}
            name="darkSecondaryColor"
            hint={t('settings.darkSecondaryHint', { colour: derived.secondary })}
            fallback={derived.secondary}
            value={form.darkSecondaryColor}
            onChange={(darkSecondaryColor) => set({ darkSecondaryColor })}
            problem={problemOf('darkSecondaryColor')}
          />
        </fieldset>

        <fieldset class="panel">
          <legend>{t('settings.policies')}</legend>
          <Field
            label={t('settings.privacyUrl')}
            name="privacyPolicyUrl"
            type="url"
            inputMode="url"
            autocomplete="off"
            hint={t('settings.privacyUrlHint')}
            value={form.privacyPolicyUrl}
            onInput={(e) => set({ privacyPolicyUrl: e.currentTarget.value })}
            problem={problemOf('privacyPolicyUrl')}
          />
          <Field
            label={t('settings.termsUrl')}
            name="termsUrl"
            type="url"
            inputMode="url"
            autocomplete="off"
            hint={t('settings.termsUrlHint')}
            value={form.termsUrl}
            onInput={(e) => set({ termsUrl: e.currentTarget.value })}
            problem={problemOf('termsUrl')}
          />
        </fieldset>

        <fieldset class="panel options" aria-describedby="language-intro">
          <legend>{t('settings.language')}</legend>
          <p class="hint" id="language-intro">
            {t('settings.languageIntro')}
          </p>
          <Choices
            name="defaultLanguage"
            options={LANGUAGE_CHOICES}
            value={form.defaultLanguage}
            onChange={(defaultLanguage) => set({ defaultLanguage })}
          />
        </fieldset>

        <fieldset class="panel options">
          <legend>{t('settings.signingIn')}</legend>
          <Choices
            name="loginMode"
            options={LOGIN_MODES}
            value={form.loginMode}
            onChange={(loginMode) => set({ loginMode })}
          />
        </fieldset>

        <fieldset class="panel options">
          <legend>{t('settings.signingUp')}</legend>
          <Choices
            name="signupMode"
            options={SIGNUP_MODES}
            value={form.signupMode}
            onChange={(signupMode) => set({ signupMode })}
          />
        </fieldset>

        <fieldset class="panel options">
          <legend>{t('settings.totp')}</legend>
          <label>
            <input
              type="checkbox"
              name="totpAllowed"
              checked={form.totpAllowed}
              onChange={(e) => set({ totpAllowed: e.currentTarget.checked })}
            />
            <span>{t('settings.totpAllowed')}</span>
          </label>
          <label>
            <input
              type="checkbox"
              name="allowUserDisableTotp"
              checked={form.allowUserDisableTotp}
              onChange={(e) => set({ allowUserDisableTotp: e.currentTarget.checked })}
            />
            <span>{t('settings.totpRemovable')}</span>
          </label>
          {form.totpAllowed && !form.allowUserDisableTotp && <p class="hint">{t('settings.totpStays')}</p>}
        </fieldset>

        <fieldset class="panel options">
          <legend>{t('settings.passkeys')}</legend>
          <label>
            <input
              type="checkbox"
              name="passkeysAllowed"
              checked={form.passkeysAllowed}
              aria-describedby="passkeys-hint"
              onChange={(e) => set({ passkeysAllowed: e.currentTarget.checked })}
            />
            <span>{t('settings.passkeysAllowed')}</span>
          </label>
          <p class="hint" id="passkeys-hint">
            {t('settings.passkeysHint')}
          </p>
        </fieldset>

        <Origins
          origins={form.allowedOrigins}
          onChange={(allowedOrigins) => set({ allowedOrigins })}
          problem={originsProblem}
        />

        {/* Sticky at the foot of the screen while the form scrolls: the save, and whether there is anything to save. */}
        <div class="save-bar">
          <Button busy={save.busy}>{t('settings.save')}</Button>
          {dirty && !save.busy && (
            <span class="unsaved">
              <span aria-hidden="true">●</span> {t('settings.unsaved')}
            </span>
          )}
          {saved && <Notice>{t('settings.saved')}</Notice>}
          {!saved && Object.keys(local).length > 0 && (
            <p class="alert" role="alert">
              {codeSentence('VALIDATION_FAILED')}
            </p>
          )}
          <Problem error={save.error} />
        </div>
      </div>
      <SignInPreview
        brand={brand}
        loginMode={form.loginMode}
        signupMode={form.signupMode}
        passkeys={form.passkeysAllowed}
      />
      <LeaveGuard dirty={dirty} question={t('settings.leaveQuestion')} />
    </form>
  );
}

/** A colour as a picker and as `#rrggbb` text, kept together; empty text means `fallback`, shown as its placeholder. */
function ColourField(props: {
  label: string;
  /** The picker's name: "Pick the primary colour". */
  pickLabel: string;
  name: string;
  hint: string;
  fallback: string;
  value: string;
  onChange(value: string): void;
  problem: string | undefined;
}) {
  const id = useId();
  const picker = isColour(props.value) ? props.value.toLowerCase() : props.fallback;
  // The picker sits beside the text input whatever the label's length (a label may take two lines in German).
  return (
    <div class="colour-group">
      <Field
        label={props.label}
        name={props.name}
        placeholder={props.fallback}
        spellcheck={false}
        autocomplete="off"
        maxLength={7}
        hint={props.hint}
        value={props.value}
        onInput={(e) => props.onChange(e.currentTarget.value.trim())}
        problem={props.problem}
        addon={
          <>
            <label for={id} class="visually-hidden">
              {props.pickLabel}
            </label>
            <input id={id} type="color" value={picker} onInput={(e) => props.onChange(e.currentTarget.value)} />
          </>
        }
      />
    </div>
  );
}

function Choices<T extends string>(props: { name: string; options: Option<T>[]; value: T; onChange(value: T): void }) {
  return (
    <>
      {props.options.map((option) => (
        <label key={option.value}>
          <input
            type="radio"
            name={props.name}
            value={option.value}
            checked={props.value === option.value}
            onChange={() => props.onChange(option.value)}
          />
          <span>
            <span class="option-title">{t(option.title)}.</span> {t(option.sentence)}
          </span>
        </label>
      ))}
    </>
  );
}

/** The origins allowed to call the service from a browser: a list to add to and take from. */
function Origins(props: { origins: string[]; onChange(origins: string[]): void; problem: string | undefined }) {
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [news, setNews] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const add = () => {
    const origin = draft.trim();
    const wrong = originProblem(origin);
    if (wrong) return setProblem(wrong);
    if (props.origins.includes(origin)) return setProblem(t('settings.problem.originTwice'));
    if (props.origins.length >= MAX_ORIGINS)
      return setProblem(t('settings.problem.tooManyOrigins', { max: MAX_ORIGINS }));
    setProblem(undefined);
    setDraft('');
    setNews(t('settings.originAdded', { origin }));
    props.onChange([...props.origins, origin]);
  };
  return (
    <fieldset class="panel">
      <legend>{t('settings.origins')}</legend>
      <p class="muted">{t('settings.originsIntro')}</p>
      {props.origins.length === 0 ? (
        <p>{t('settings.noOrigins')}</p>
      ) : (
        <ul class="origins" aria-label={t('settings.origins')}>
          {props.origins.map((origin) => (
            <li key={origin}>
              <code>{origin}</code>
              <button
                type="button"
                class="button secondary small"
                aria-label={t('settings.removeOrigin', { origin })}
                onClick={() => {
                  setNews(t('settings.originRemoved', { origin }));
                  props.onChange(props.origins.filter((o) => o !== origin));
                  // Its button is gone with it: focus goes to the field that adds origins.
                  input.current?.focus();
                }}
              >
                {t('settings.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="row">
        <Field
          label={t('settings.newOrigin')}
          name="newOrigin"
          inputRef={input}
          type="url"
          inputMode="url"
          placeholder="https://shop.example"
          autocomplete="off"
          value={draft}
          onInput={(e) => setDraft(e.currentTarget.value)}
          onKeyDown={(e) => {
            // Enter here adds the origin; it does not save the whole form.
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
          problem={problem ?? props.problem}
        />
        <div class="field">
          <button type="button" class="button secondary" onClick={add}>
            {t('settings.addOrigin')}
          </button>
        </div>
      </div>
      {news && (
        <p class="hint" role="status">
          {news}
        </p>
      )}
    </fieldset>
  );
}
