import type { ButtonHTMLAttributes, ComponentChildren, InputHTMLAttributes, Ref } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import * as v from 'valibot';
import { documentTitle, initialOf } from './brand.ts';
import { t } from './i18n/index.ts';
import { problemSentence, type SentenceOverrides } from './messages.ts';
import { formSchemas } from './sdk.ts';
import { useSession } from './session.tsx';

type FieldProps = {
  label: string;
  name: string;
  problem?: string | undefined;
  /** Read out with the field: a sentence, or more (a password's rules). */
  hint?: ComponentChildren;
  inputRef?: Ref<HTMLInputElement>;
  /** Beside the input, inside its frame (a password's Show button). */
  addon?: ComponentChildren;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'ref'>;

/** A labelled input; its problem (a 400's field message, or the form's own check) is read out with it. */
export function Field(props: FieldProps) {
  const { label, problem: given, hint, inputRef, addon, onInput, ...input } = props;
  const id = useId();
  // A problem is about what was sent: once the field is typed in again it no longer holds, so it is put away until
  // the form is sent again (or another problem arrives).
  const [edited, setEdited] = useState(false);
  useEffect(() => setEdited(false), [given]);
  useEffect(() => {
    const form = (document.getElementById(id) as HTMLInputElement | null)?.form;
    const sent = () => setEdited(false);
    form?.addEventListener('submit', sent);
    return () => form?.removeEventListener('submit', sent);
  }, [id]);
  const problem = edited ? undefined : given;
  const described = [problem ? `${id}-problem` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  const field = (
    <input
      ref={inputRef}
      id={id}
      aria-invalid={problem ? 'true' : undefined}
      aria-describedby={described || undefined}
      onInput={(event) => {
        if (given) setEdited(true);
        onInput?.(event);
      }}
      // The attribute type is a union per input type, which a spread of its Omit no longer matches.
      {...(input as Record<string, unknown>)}
    />
  );
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {addon ? (
        <div class="with-addon">
          {field}
          {addon}
        </div>
      ) : (
        field
      )}
      {hint && (
        <div class="hint" id={`${id}-hint`}>
          {hint}
        </div>
      )}
      {problem && (
        <p class="problem" id={`${id}-problem`}>
          {problem}
        </p>
      )}
    </div>
  );
}

/**
 * A password, hidden as typed, with a button that shows it (and hides it again): a long password is easier to get
 * right when it can be read. Shown, it is still offered to password managers by its `autocomplete`.
 */
export function PasswordField(props: Omit<FieldProps, 'type' | 'addon'>) {
  const [shown, setShown] = useState(false);
  return (
    <Field
      {...props}
      type={shown ? 'text' : 'password'}
      spellcheck={false}
      autoCapitalize="off"
      addon={
        <button type="button" class="reveal" onClick={() => setShown(!shown)}>
          {shown ? t('password.hide') : t('password.show')}
          <span class="visually-hidden"> {t('password.showWhat')}</span>
        </button>
      }
    />
  );
}

/**
 * The rules of a new password as the SDK's form schema states them ("needs a digit"), each met by `value` or not:
 * the page's checklist follows the SDK, which follows the service. The upper bound is listed only to one past it.
 */
export function passwordRules(value: string): { rule: string; met: boolean }[] {
  return formSchemas.newPassword.pipe.flatMap((action) => {
    if (action.kind !== 'validation' || typeof action.message !== 'string') return [];
    const met = v.safeParse(v.pipe(v.string(), action as v.GenericValidation<string>), value).success;
    if (action.type === 'max_code_points' && met) return [];
    return [{ rule: ruleText(action), met }];
  });
}

/** A rule of the SDK's schema in the pages' language: its kind and bound, or its own words for one not known here. */
function ruleText(action: { type: string; message?: unknown; requirement?: unknown }): string {
  const count = typeof action.requirement === 'number' ? action.requirement : 0;
  if (action.type === 'min_code_points') return t('password.rule.atLeast', { count });
  if (action.type === 'max_code_points') return t('password.rule.atMost', { count });
  if (action.message === 'needs a letter') return t('password.rule.letter');
  if (action.message === 'needs a digit') return t('password.rule.digit');
  const rule = String(action.message).replace(/^needs /, '');
  return `${rule.charAt(0).toUpperCase()}${rule.slice(1)}`;
}

/** A new password: the Show button, and its rules as a checklist that ticks off as it is typed. */
export function NewPasswordField(
  props: Omit<FieldProps, 'type' | 'addon' | 'hint'> & { value: string; note?: string },
) {
  const { note, ...field } = props;
  const rules = passwordRules(props.value);
  return (
    <PasswordField
      autocomplete="new-password"
      {...field}
      hint={
        <>
          <p>{t('password.needs')}</p>
          <ul class="rules">
            {rules.map(({ rule, met }) => (
              <li key={rule} class={met ? 'met' : undefined}>
                <span aria-hidden="true">{met ? '✓' : '·'}</span> {rule}
                {met && <span class="visually-hidden"> {t('password.rule.done')}</span>}
              </li>
            ))}
          </ul>
          <p>
            {t('password.advice')}
            {note ? ` ${note}` : ''}
          </p>
        </>
      }
    />
  );
}

/** The e-mail address an account signs in with: required, and offered to password managers as the user name. */
export function AccountEmailField(props: Omit<Parameters<typeof Field>[0], 'name'>) {
  return <Field name="email" type="email" autocomplete="username" required {...props} />;
}

/**
 * A field for a code that was mailed or that an authenticator app shows: required, offered the browser's
 * one-time-code fill, and the digit keyboard unless a backup code may be typed instead (`orBackupCode`). A pasted
 * "123 456" or "123-456" keeps its digits. With `autoSubmit` (a form whose last field it is), the sixth digit sends
 * the form, once per code: a code typed or pasted needs no further key.
 */
export function CodeField(
  props: Omit<FieldProps, 'name'> & { name?: string; orBackupCode?: boolean; autoSubmit?: boolean },
) {
  const { orBackupCode, autoSubmit, onInput, ...field } = props;
  const sent = useRef('');
  return (
    <Field
      name="code"
      inputMode={orBackupCode ? undefined : 'numeric'}
      autocomplete="one-time-code"
      required
      {...field}
      onInput={(event) => {
        const input = event.currentTarget;
        if (/^[\d\s-]+$/.test(input.value) && /[\s-]/.test(input.value))
          input.value = input.value.replace(/[\s-]/g, '');
        onInput?.(event);
        if (autoSubmit && !orBackupCode && /^\d{6}$/.test(input.value) && sent.current !== input.value) {
          sent.current = input.value;
          // After the page has taken the value in (its state renders first), as if the user had pressed Enter.
          setTimeout(() => input.form?.requestSubmit());
        }
      }}
    />
  );
}

/** A table's head row: its columns' names, and a last column for the rows' buttons, named for screen readers only. */
export function TableHead(props: { columns: string[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {props.columns.map((column) => (
          <th key={column} scope="col">
            {column}
          </th>
        ))}
        {props.actions && (
          <th scope="col">
            <span class="visually-hidden">{t('table.actions')}</span>
          </th>
        )}
      </tr>
    </thead>
  );
}

/**
 * A table that scrolls sideways inside its panel when the screen is narrower than its columns (a phone): a region
 * named by `label`, focusable, so that a keyboard can scroll it too. The page itself never gets wider than the screen.
 * `busy` while its rows are being read (they are placeholders meanwhile): the same region, so nothing moves after.
 */
export function ScrollingTable(props: { label: string; busy?: boolean; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keyboard
    <section class="table-wrap" aria-label={props.label} aria-busy={props.busy ? 'true' : undefined} tabIndex={0}>
      {props.children}
    </section>
  );
}

/** A form's failure as a sentence, announced by screen readers when it appears. */
export function Problem(props: { error: unknown; overrides?: SentenceOverrides }) {
  if (!props.error) return null;
  return (
    <p class="alert" role="alert">
      {problemSentence(props.error, props.overrides)}
    </p>
  );
}

/** Good news (a code sent, a change saved), announced politely. */
export function Notice(props: { children: ComponentChildren }) {
  return (
    <p class="notice" role="status">
      {props.children}
    </p>
  );
}

export function Button(props: ButtonHTMLAttributes<HTMLButtonElement> & { busy?: boolean; kind?: string }) {
  const { busy, kind = 'primary', children, ...rest } = props;
  return (
    <button type="submit" class={`button ${kind}`} disabled={busy || rest.disabled} aria-busy={busy} {...rest}>
      {children}
    </button>
  );
}

/**
 * A form whose submit runs `action` once at a time, keeping its failure to show.
 * `action` throwing an ApiError is the usual way to report a problem.
 */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (...args: A) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await action(...args);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

/** What `useResource` gives a page: the last answer, the last failure, whether a read runs, and a new read. */
export interface Resource<T> {
  /** The last answer; null until the first arrives, and again while a different thing (new `deps`) is read. */
  data: T | null;
  /** The last read's failure, cleared when the next read starts. */
  error: unknown;
  loading: boolean;
  /** Reads again, keeping the answer shown meanwhile; resolves once the new one (or its failure) is in. */
  reload(): Promise<void>;
  /** Puts in an answer the page already has (what a change answered), without reading; as useState's setter. */
  setData(data: T | ((current: T | null) => T)): void;
}

/**
 * A read a page shows: `load` runs when the component appears and whenever `deps` change, and again on
 * `reload()`. An answer that arrives after a newer read started is dropped, so a slow first answer never
 * overwrites a later one.
 */
export function useResource<T>(load: () => Promise<T>, deps: readonly unknown[] = []): Resource<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const latest = useRef({ attempt: 0, load });
  latest.current.load = load;
  const read = useCallback(async () => {
    const attempt = ++latest.current.attempt;
    const current = () => attempt === latest.current.attempt;
    setLoading(true);
    setError(null);
    try {
      const answer = await latest.current.load();
      if (current()) setData(answer);
    } catch (failure) {
      if (current()) setError(failure);
    } finally {
      if (current()) setLoading(false);
    }
  }, []);
  useEffect(() => {
    setData(null);
    read();
  }, deps);
  return { data, error, loading, reload: read, setData: setData as Resource<T>['setData'] };
}

/**
 * A list read a page at a time along the service's cursor: the first page when the component appears and
 * whenever `deps` change, the next on `more()` (or the first again, after the first failed). After `more()`,
 * focus goes to the first record just shown, where reading goes on (the button used may be gone): spread
 * `focusTarget(index)` on each record.
 */
export function useCursorPages<T>(
  readPage: (cursor: string | null) => Promise<{ items: T[]; nextCursor: string | null }>,
  deps: readonly unknown[],
) {
  const [items, setItems] = useState<T[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [focusFrom, setFocusFrom] = useState<number | null>(null);
  const firstNew = useRef<HTMLLIElement>(null);
  const read = useAction(async (from: string | null) => {
    const page = await readPage(from);
    const before = from ? (items ?? []) : [];
    setItems([...before, ...page.items]);
    setFocusFrom(from ? before.length : null);
    setCursor(page.nextCursor);
  });
  useEffect(() => {
    read.run(null);
  }, deps);
  useEffect(() => {
    if (focusFrom !== null) firstNew.current?.focus();
  }, [focusFrom]);
  return {
    items,
    /** Whether the service has older records. */
    hasMore: cursor !== null,
    error: read.error,
    busy: read.busy,
    more: () => read.run(cursor),
    focusTarget: (index: number) => (index === focusFrom ? { ref: firstNew, tabIndex: -1 } : {}),
  };
}

/** Calls `handler` with the form's submit event prevented. */
export function onSubmit(handler: () => void) {
  return (event: Event) => {
    event.preventDefault();
    handler();
  };
}

/**
 * The tenant's name and logo, as every page shows them. The logo sits on a light tile of its own (styles.css), so
 * that a logo drawn in the brand colour stays visible on the brand-coloured top bar and on a dark page.
 */
export function BrandMark(props: { name: string; logoUrl: string | null }) {
  return (
    <span class="brand-mark">
      {props.logoUrl ? (
        <span class="logo-tile">
          <img src={props.logoUrl} alt="" class="logo" />
        </span>
      ) : (
        <span class="logo-letter">{initialOf(props.name)}</span>
      )}
      <span class="brand-name">{props.name}</span>
    </span>
  );
}

/**
 * The frame of the sign-in pages: the tenant's brand above one card. A heading that names the tenant ("Sign in to
 * Fernhouse") comes with `pageTitle`, the same without it ("Sign in"), for the document title, which names it after.
 */
export function AuthLayout(props: { title: string; pageTitle?: string | undefined; children: ComponentChildren }) {
  const { tenant } = useSession();
  useTitle(props.pageTitle ?? props.title);
  return (
    <main class="auth">
      <div class="card">
        <BrandMark name={tenant.name} logoUrl={tenant.logoUrl} />
        <h1>{props.title}</h1>
        {props.children}
      </div>
    </main>
  );
}

/** Sets the document title: the page's, then the tenant's name once ("Sign in · Acme"; `documentTitle`). */
export function useTitle(title: string) {
  const { tenant } = useSession();
  useEffect(() => {
    document.title = documentTitle(title, tenant.name);
  }, [title, tenant.name]);
}

/** Focus the element when it appears (the next step of a flow), so keyboard and screen reader users land on it. */
export function useAutoFocus<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}
