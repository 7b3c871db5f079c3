import { useId, useRef, useState } from 'preact/hooks';
import { type Brand, DEFAULT_PRIMARY, DEFAULT_SECONDARY } from '../brand.ts';
import { fieldProblems } from '../messages.ts';
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
import { SignInPreview } from './preview.tsx';
import './settings.css';

/** Whether `value` is a colour the service takes (`#rrggbb`), by the SDK's copy of its rule. */
const isColour = (value: string) => validateForm(formSchemas.merchantColours, { primaryColor: value }).success;
/** The service keeps at most 20 (shared/merchants/schemas.ts). */
const MAX_ORIGINS = 20;

const LOGIN_MODES: { value: LoginMode; title: string; sentence: string }[] = [
  { value: 'PASSWORD', title: 'Password', sentence: 'People sign in with their e-mail address and password.' },
  {
    value: 'OTP_EMAIL',
    title: 'Code by e-mail',
    sentence: 'People sign in with a 6-digit code we e-mail them. No password is asked for.',
  },
  {
    value: 'PASSWORD_OR_OTP_EMAIL',
    title: 'Either',
    sentence: 'People choose each time: their password, or a code we e-mail them.',
  },
];

const SIGNUP_MODES: { value: SignupMode; title: string; sentence: string }[] = [
  { value: 'OPEN', title: 'Open', sentence: 'Anyone can create an account on the sign-up page.' },
  {
    value: 'INVITATION_ONLY',
    title: 'By invitation',
    sentence: 'Only people an administrator invites can create an account.',
  },
];

interface Form {
  name: string;
  logoUrl: string;
  primaryColor: string;
  secondaryColor: string;
  loginMode: LoginMode;
  signupMode: SignupMode;
  totpAllowed: boolean;
  allowUserDisableTotp: boolean;
  allowedOrigins: string[];
}

function formOf(merchant: Merchant): Form {
  return {
    name: merchant.name,
    logoUrl: merchant.logoUrl ?? '',
    primaryColor: merchant.primaryColor ?? '',
    secondaryColor: merchant.secondaryColor ?? '',
    loginMode: merchant.loginMode,
    signupMode: merchant.signupMode,
    totpAllowed: merchant.totpAllowed,
    allowUserDisableTotp: merchant.allowUserDisableTotp,
    allowedOrigins: [...merchant.allowedOrigins],
  };
}

/** Logos are shown only from https (the pages' Content-Security-Policy allows no other remote image). */
function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
}

/** An origin as the service takes it: scheme, host and port, nothing more (`https://shop.example`). */
export function originProblem(value: string): string | undefined {
  try {
    const url = new URL(value);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value) return undefined;
  } catch {
    // Not a URL at all: said below.
  }
  return 'Enter an origin such as https://shop.example: the scheme and host (and port, if any), with no path or slash at the end.';
}

/** The brand the form shows now: what is valid of it, the defaults for the rest (the dark pair as saved). */
function brandOfForm(form: Form, merchant: Merchant): Brand {
  return {
    name: form.name.trim() || merchant.name,
    logoUrl: isHttpsUrl(form.logoUrl.trim()) ? form.logoUrl.trim() : null,
    primaryColor: isColour(form.primaryColor) ? form.primaryColor.toLowerCase() : null,
    secondaryColor: isColour(form.secondaryColor) ? form.secondaryColor.toLowerCase() : null,
    darkPrimaryColor: merchant.darkPrimaryColor,
    darkSecondaryColor: merchant.darkSecondaryColor,
  };
}

/**
 * The merchant's settings: name, logo and colours (with a live preview of
 * the sign-in page), how people sign in and sign up, authenticator apps, and
 * the origins allowed to call the service from a browser.
 */
export function Settings() {
  const { client, tenant, setTenant } = useSession();
  const { data: merchant, error, setData: setMerchant } = useResource(() => client.admin.merchant.get());

  return (
    <ConsolePage title="Settings">
      <Problem error={error} />
      {!merchant && !error && <p class="muted">Loading the settings…</p>}
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
              loginMode: saved.loginMode,
              signupMode: saved.signupMode,
              totpAllowed: saved.totpAllowed,
              allowUserDisableTotp: saved.allowUserDisableTotp,
            });
          }}
        />
      )}
    </ConsolePage>
  );
}

/** The form starts from the merchant as read, and again from what each save answered. */
function SettingsForm(props: { merchant: Merchant; onSaved(merchant: Merchant): void }) {
  const { client } = useSession();
  const { merchant } = props;
  const [form, setForm] = useState(() => formOf(merchant));
  const set = (change: Partial<Form>) => setForm({ ...form, ...change });
  const [local, setLocal] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);

  const save = useAction(async () => {
    setSaved(false);
    const problems: Record<string, string> = {};
    if (!form.name.trim()) problems.name = 'Enter the name people will see.';
    const logoUrl = form.logoUrl.trim();
    if (logoUrl && !isHttpsUrl(logoUrl)) {
      problems.logoUrl = 'Enter an https address of an image, such as https://shop.example/logo.png.';
    }
    const colours = validateForm(formSchemas.merchantColours, {
      primaryColor: form.primaryColor.trim() || null,
      secondaryColor: form.secondaryColor.trim() || null,
    });
    if (!colours.success) {
      for (const error of colours.errors)
        problems[error.path] = 'Enter a colour as # and six hex digits, like #1f6f5c.';
    }
    setLocal(problems);
    if (Object.keys(problems).length > 0 || !colours.success) return;
    const body: UpdateMerchantRequest = {
      name: form.name.trim(),
      logoUrl: logoUrl || null,
      primaryColor: colours.output.primaryColor?.toLowerCase() ?? null,
      secondaryColor: colours.output.secondaryColor?.toLowerCase() ?? null,
      loginMode: form.loginMode,
      signupMode: form.signupMode,
      totpAllowed: form.totpAllowed,
      allowUserDisableTotp: form.allowUserDisableTotp,
      allowedOrigins: form.allowedOrigins,
    };
    const answer = await client.admin.merchant.update(merchant.id, body);
    setForm(formOf(answer));
    props.onSaved(answer);
    setSaved(true);
  });
  const remote = fieldProblems(save.error);
  const problemOf = (path: string) => local[path] ?? remote[path];
  const brand = brandOfForm(form, merchant);
  const originsProblem = Object.entries(remote).find(([path]) => path.startsWith('allowedOrigins'))?.[1];

  return (
    <form
      onSubmit={onSubmit(save.run)}
      onInput={() => setSaved(false)}
      noValidate
      aria-describedby="settings-intro"
      class="settings-layout"
    >
      <div>
        <p id="settings-intro" class="muted">
          How your sign-in pages look and work. Changes apply once you save them.
        </p>
        <fieldset class="panel">
          <legend>Brand</legend>
          <Field
            label="Name"
            name="name"
            required
            maxLength={128}
            value={form.name}
            onInput={(e) => set({ name: e.currentTarget.value })}
            problem={problemOf('name')}
          />
          <Field
            label="Logo URL (optional)"
            name="logoUrl"
            type="url"
            inputMode="url"
            hint="An https address of a square image. Without one, the first letter of the name is shown."
            value={form.logoUrl}
            onInput={(e) => set({ logoUrl: e.currentTarget.value })}
            problem={problemOf('logoUrl')}
          />
          <ColourField
            label="Primary colour"
            name="primaryColor"
            hint="Buttons and the top bar. Leave empty for the default."
            fallback={DEFAULT_PRIMARY}
            value={form.primaryColor}
            onChange={(primaryColor) => set({ primaryColor })}
            problem={problemOf('primaryColor')}
          />
          <ColourField
            label="Secondary colour"
            name="secondaryColor"
            hint="The page background. Leave empty for the default."
            fallback={DEFAULT_SECONDARY}
            value={form.secondaryColor}
            onChange={(secondaryColor) => set({ secondaryColor })}
            problem={problemOf('secondaryColor')}
          />
        </fieldset>

        <fieldset class="panel options">
          <legend>Signing in</legend>
          <Choices
            name="loginMode"
            options={LOGIN_MODES}
            value={form.loginMode}
            onChange={(loginMode) => set({ loginMode })}
          />
        </fieldset>

        <fieldset class="panel options">
          <legend>Signing up</legend>
          <Choices
            name="signupMode"
            options={SIGNUP_MODES}
            value={form.signupMode}
            onChange={(signupMode) => set({ signupMode })}
          />
        </fieldset>

        <fieldset class="panel options">
          <legend>Authenticator apps</legend>
          <label>
            <input
              type="checkbox"
              name="totpAllowed"
              checked={form.totpAllowed}
              onChange={(e) => set({ totpAllowed: e.currentTarget.checked })}
            />
            <span>People may set up an authenticator app for two-step verification.</span>
          </label>
          <label>
            <input
              type="checkbox"
              name="allowUserDisableTotp"
              checked={form.allowUserDisableTotp}
              onChange={(e) => set({ allowUserDisableTotp: e.currentTarget.checked })}
            />
            <span>People may remove their authenticator app themselves.</span>
          </label>
          {form.totpAllowed && !form.allowUserDisableTotp && (
            <p class="hint">Once set up, an authenticator app stays until an administrator removes it.</p>
          )}
        </fieldset>

        <Origins
          origins={form.allowedOrigins}
          onChange={(allowedOrigins) => set({ allowedOrigins })}
          problem={originsProblem}
        />

        <div class="save-bar">
          <Button busy={save.busy}>Save settings</Button>
          {saved && <Notice>Your settings are saved. The sign-in pages show them from now on.</Notice>}
          {!saved && Object.keys(local).length > 0 && (
            <p class="alert" role="alert">
              Some of what you entered is not valid. Check the highlighted fields.
            </p>
          )}
          <Problem error={save.error} />
        </div>
      </div>
      <SignInPreview brand={brand} loginMode={form.loginMode} signupMode={form.signupMode} />
    </form>
  );
}

/** A colour as a picker and as `#rrggbb` text, kept together; empty text means the default. */
function ColourField(props: {
  label: string;
  name: string;
  hint: string;
  fallback: string;
  value: string;
  onChange(value: string): void;
  problem: string | undefined;
}) {
  const id = useId();
  const picker = isColour(props.value) ? props.value.toLowerCase() : props.fallback;
  return (
    <div class="colour-group">
      <div class="colour-row">
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
        />
        <div class="field colour-picker">
          <label for={id} class="visually-hidden">
            Pick the {props.label.toLowerCase()}
          </label>
          {/* Lined up with the text input: an empty line where the other has its label. */}
          <span class="colour-spacer" aria-hidden="true">
            &nbsp;
          </span>
          <input id={id} type="color" value={picker} onInput={(e) => props.onChange(e.currentTarget.value)} />
        </div>
      </div>
    </div>
  );
}

function Choices<T extends string>(props: {
  name: string;
  options: { value: T; title: string; sentence: string }[];
  value: T;
  onChange(value: T): void;
}) {
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
            <span class="option-title">{option.title}.</span> {option.sentence}
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
    if (props.origins.includes(origin)) return setProblem('That origin is in the list already.');
    if (props.origins.length >= MAX_ORIGINS) return setProblem(`There can be at most ${MAX_ORIGINS} origins.`);
    setProblem(undefined);
    setDraft('');
    setNews(`${origin} added. Save the settings to keep it.`);
    props.onChange([...props.origins, origin]);
  };
  return (
    <fieldset class="panel">
      <legend>Allowed origins</legend>
      <p class="muted">
        Web sites that may call this service from a browser, such as your shop’s own site. These sign-in pages are
        always allowed.
      </p>
      {props.origins.length === 0 ? (
        <p>No other site is allowed.</p>
      ) : (
        <ul class="origins" aria-label="Allowed origins">
          {props.origins.map((origin) => (
            <li key={origin}>
              <code>{origin}</code>
              <button
                type="button"
                class="button secondary small"
                aria-label={`Remove ${origin}`}
                onClick={() => {
                  setNews(`${origin} removed. Save the settings to keep this.`);
                  props.onChange(props.origins.filter((o) => o !== origin));
                  // Its button is gone with it: focus goes to the field that adds origins.
                  input.current?.focus();
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="row">
        <Field
          label="Add an origin"
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
            Add origin
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
