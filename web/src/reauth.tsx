import type { JSX } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { t } from './i18n/index.ts';
import { cancelledPasskey, passkeySentences, usePasskeySupport } from './pages/passkeys.tsx';
import { ProviderMark } from './pages/providers.tsx';
import { ApiError, type SignInProviderButton } from './sdk.ts';
import { useSession } from './session.tsx';
import { Button, CodeField, Notice, onSubmit, PasswordField, Problem, useAction } from './ui.tsx';
import './reauth.css';

/** The 403 that asks the signed-in user to prove it is them again (sign-in older than 10 minutes). */
export function needsReauthentication(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'REAUTHENTICATION_REQUIRED';
}

type Method = 'PASSWORD' | 'OTP_EMAIL';

/**
 * A guarded change that can go on after the user confirmed it is them at a provider: the browser leaves the page for
 * the provider and comes back to it, loaded afresh, so what the change needs is kept in this tab meanwhile. `key`
 * names the change among the page's (the `useReauthenticated` that lists it goes on with it); `data` is what it needs
 * (JSON; never a secret). A key no hook lists is for a page that opens the prompt again by itself (the sign-in of
 * an app, /authorize).
 */
export interface Resume {
  key: string;
  data?: unknown;
}

/** What the change was, kept while the browser is at the provider; null: one that cannot go on by itself. */
interface KeptResume {
  key: string | null;
  data?: unknown;
  at: number;
}

const RESUME = 'reauth:resume';
/** The provider's result lasts 10 minutes: a change kept longer than that will not go on. */
const RESUME_LIFETIME_MS = 30 * 60 * 1000;

/** Storage may be refused (a private window, a policy): the change then does not go on by itself. */
function keepResume(resume: Resume | null): void {
  try {
    sessionStorage.setItem(RESUME, JSON.stringify({ key: resume?.key ?? null, data: resume?.data, at: Date.now() }));
  } catch {
    // Said nowhere: the prompt still confirms it is them, and the change is made again by hand.
  }
}

/** The kept change, taken when `wanted` says it is this caller's (it goes on once, in one place). */
function takeResume(wanted: (key: string | null) => boolean): KeptResume | null {
  try {
    const kept = JSON.parse(sessionStorage.getItem(RESUME) ?? 'null') as KeptResume | null;
    if (!kept || typeof kept !== 'object' || !(Date.now() - kept.at < RESUME_LIFETIME_MS)) {
      sessionStorage.removeItem(RESUME);
      return null;
    }
    if (!wanted(kept.key)) return null;
    sessionStorage.removeItem(RESUME);
    return kept;
  } catch {
    return null;
  }
}

function dropResume(): void {
  try {
    sessionStorage.removeItem(RESUME);
  } catch {
    // Nothing was kept.
  }
}

/** This page's address without its fragment (the provider sends the browser back to it, with a query of its own). */
function thisPage(): string {
  return `${location.origin}${location.pathname}${location.search}`;
}

/** The provider's parameters out of the address bar, when the way back from it is not taken up (the prompt closed). */
function forgetProviderReturn(): void {
  const url = new URL(location.href);
  for (const name of ['provider_result', 'provider_error', 'provider_flow']) url.searchParams.delete(name);
  if (url.href !== location.href) history.replaceState(history.state, '', url.href);
}

interface Waiting {
  /** What goes on after a trip to a provider. */
  resume: Resume | null;
  /** The user proved it is them: run the action again. */
  proven(): void;
  /** The user closed the prompt: the action fails with its first refusal. */
  dismissed(): void;
}

/** The changes a `useReauthenticated` goes on with after a trip to a provider, by key, given the kept `data`. */
export type Resumes = Record<string, (data: unknown) => unknown>;

export interface Reauthenticated {
  /**
   * Runs `action`; when the service answers 403 REAUTHENTICATION_REQUIRED, opens the prompt and,
   * once the user has proved it is them, runs `action` once more and resolves with its result.
   * Closing the prompt rejects with the REAUTHENTICATION_REQUIRED error (a sentence for `<Problem>`).
   * `resume`: how the change goes on when the user confirms at a provider (the page is left, and loaded again);
   * without it, the user is told to make the change again.
   */
  run<T>(action: () => Promise<T>, resume?: Resume): Promise<T>;
  /** The prompt, while it is open (else null): render it anywhere in the component. */
  prompt: JSX.Element | null;
  /** The page is back from a provider for one of this hook's changes: the prompt finishes, then the change goes on. */
  resuming: boolean;
}

/**
 * Guarded changes (e-mail change, TOTP init/verify/disable, API key creation,
 * sign-in clients' secrets and addresses, granting or revoking ADMIN and
 * SUPER_ADMIN, a user's status, TOTP reset and deletion) need a sign-in
 * younger than 10 minutes. This hook wraps such a call: the user is asked, in a modal
 * dialog, for their password, or an e-mail code where the tenant signs in by
 * code, plus their authenticator code when TOTP is on
 * (`client.reauthenticate`), or to use a passkey or a provider linked to their account, and the call then goes on by
 * itself. A provider sends the browser away and back: the changes listed in `resumes` go on after that too.
 *
 * @example
 * const reauth = useReauthenticated({ 'keys.create': (label) => create.run(String(label)) });
 * const create = useAction(async (label: string) => {
 *   const key = await reauth.run(() => client.admin.merchant.apiKeys.create(id, { label }), {
 *     key: 'keys.create',
 *     data: label,
 *   });
 *   setKey(key);
 * });
 * return <form onSubmit={onSubmit(create.run)}>… <Problem error={create.error} />{reauth.prompt}</form>;
 */
export function useReauthenticated(resumes?: Resumes): Reauthenticated {
  const { client, user } = useSession();
  const [waiting, setWaiting] = useState<Waiting | null>(null);
  const handlers = useRef(resumes);
  handlers.current = resumes;
  // Back from a provider for one of this hook's changes: taken here, before the page's own effects look at the address.
  const [claimed] = useState(() => {
    const keys = resumes ?? {};
    if (!user || Object.keys(keys).length === 0 || !client.pendingProviderReauthentication()) return null;
    return takeResume((key) => key !== null && Object.hasOwn(keys, key));
  });
  useEffect(() => {
    if (!claimed?.key) return;
    const key = claimed.key;
    setWaiting({
      resume: { key, data: claimed.data },
      proven: () => {
        setWaiting(null);
        handlers.current?.[key]?.(claimed.data);
      },
      dismissed: () => setWaiting(null),
    });
  }, []);

  const run = async <T,>(action: () => Promise<T>, resume?: Resume): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      if (!needsReauthentication(error)) throw error;
      await new Promise<void>((resolve, reject) =>
        setWaiting({
          resume: resume ?? null,
          proven: () => {
            setWaiting(null);
            resolve();
          },
          dismissed: () => {
            setWaiting(null);
            reject(error);
          },
        }),
      );
      return action();
    }
  };
  const prompt = waiting ? (
    <ReauthPrompt onProven={waiting.proven} onDismiss={waiting.dismissed} resume={waiting.resume} />
  ) : null;
  return { run, prompt, resuming: claimed !== null };
}

/**
 * Back from a provider for a change that does not go on by itself (none was said, or storage was refused): the
 * prompt finishes, then says the change can be made again now. Rendered once, beside the pages.
 */
export function ProviderReauthReturn() {
  const { client, user } = useSession();
  const [stage, setStage] = useState<'prompt' | 'proven' | null>(() =>
    user && client.pendingProviderReauthentication() && takeResume((key) => key === null) ? 'prompt' : null,
  );
  if (stage === 'prompt') return <ReauthPrompt onProven={() => setStage('proven')} onDismiss={() => setStage(null)} />;
  if (stage === 'proven') return <Confirmed onClose={() => setStage(null)} />;
  return null;
}

/** A modal `<dialog>` of the prompt's look: open while mounted, Escape closes it, focus returns to where it was. */
function useModal(onEscape: () => void) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    return () => {
      if (element.open) element.close();
    };
  }, []);
  const onCancel = (event: Event) => {
    event.preventDefault();
    onEscape();
  };
  return { dialog, onCancel };
}

function Confirmed(props: { onClose(): void }) {
  const titleId = useId();
  const close = useRef<HTMLButtonElement>(null);
  const modal = useModal(() => props.onClose());
  useEffect(() => close.current?.focus(), []);
  return (
    <dialog ref={modal.dialog} class="reauth" aria-labelledby={titleId} onCancel={modal.onCancel}>
      <h2 id={titleId}>{t('reauth.confirmedTitle')}</h2>
      <p>{t('reauth.confirmedText')}</p>
      <div class="actions">
        <button ref={close} type="button" class="button primary" onClick={props.onClose}>
          {t('reauth.close')}
        </button>
      </div>
    </dialog>
  );
}

const promptSentences = () => ({
  INVALID_CREDENTIALS: t('reauth.wrongPassword'),
  INVALID_CODE: t('reauth.wrongCode'),
});

/** What a provider's answer means in the prompt: the provider account is not one linked to this user, say. */
const providerSentences = (name: string) => ({
  PROVIDER_SIGN_IN_FAILED: t('reauth.providerNotLinked', { name }),
  INVALID_CODE: t('reauth.providerWrongCode', { name }),
});

/** The providers the tenant still offers that are linked to the signed-in user: each can confirm it is them. */
function useLinkedProviders(): SignInProviderButton[] {
  const { client, tenant } = useSession();
  const offered = tenant.signInProviders ?? [];
  const [linked, setLinked] = useState<SignInProviderButton[]>([]);
  useEffect(() => {
    if (offered.length === 0) return;
    let live = true;
    client.me.identities.list().then(
      (identities) => live && setLinked(offered.filter((p) => identities.some((i) => i.providerId === p.id))),
      // Without the list, the other ways remain.
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  return linked;
}

/**
 * The prompt itself: a modal `<dialog>` (focus is kept inside, Escape closes it, focus returns to where it was),
 * labelled by its heading, its first field focused. Back from a provider that was to confirm it (this tab's
 * `reauthenticateWithProvider`), it finishes that: the authenticator code asked first when TOTP is on.
 */
export function ReauthPrompt(props: { onProven(): void; onDismiss(): void; reason?: string; resume?: Resume | null }) {
  const { client, tenant, user } = useSession();
  const first = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const methods: Method[] =
    tenant.loginMode === 'PASSWORD_OR_OTP_EMAIL' ? ['PASSWORD', 'OTP_EMAIL'] : [tenant.loginMode as Method];
  const [method, setMethod] = useState<Method>(methods[0] as Method);
  const [password, setPassword] = useState('');
  const [challengeId, setChallengeId] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [totpCode, setTotpCode] = useState('');
  const totp = Boolean(user?.totpEnabled);
  // A passkey proves it too (no authenticator code then: it is two factors), where the account has one.
  const support = usePasskeySupport();
  const [hasPasskey, setHasPasskey] = useState(false);
  useEffect(() => {
    if (!support?.passkeys) return;
    let live = true;
    client.passkeys.list().then(
      (passkeys) => live && setHasPasskey(passkeys.length > 0),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [support?.passkeys]);
  // So does a sign-in at a provider linked to the account: the browser goes there and comes back to this page.
  const linked = useLinkedProviders();
  const [returning, setReturning] = useState(() => client.pendingProviderReauthentication());
  // Its name stays in what is said after its answer was refused, when the other ways show again.
  const [cameBackFrom] = useState(returning?.providerId);
  const returningName =
    tenant.signInProviders?.find((p) => p.id === cameBackFrom)?.displayName ?? t('reauth.theProvider');
  const [leavingFor, setLeavingFor] = useState<string | null>(null);

  const modal = useModal(() => close(props.onDismiss));
  const close = (then: () => void) => {
    modal.dialog.current?.close();
    if (returning) forgetProviderReturn();
    then();
  };

  useEffect(() => {
    first.current?.focus();
  }, [returning === null]);
  // The next step's first field (the mailed code) takes focus when it appears.
  useEffect(() => {
    if (challengeId) first.current?.focus();
  }, [challengeId]);

  const sendCode = useAction(async () => {
    const { challengeId } = await client.reauthenticate({ loginMode: 'OTP_EMAIL' });
    setChallengeId(challengeId);
  });
  const confirm = useAction(async () => {
    const second = totp ? { totpCode: totpCode.trim() } : {};
    if (method === 'PASSWORD') await client.reauthenticate({ password, ...second });
    else await client.reauthenticate({ challengeId: challengeId ?? '', code: code.trim(), ...second });
    close(props.onProven);
  });
  const withPasskey = useAction(async () => {
    try {
      await client.reauthenticateWithPasskey();
    } catch (error) {
      if (cancelledPasskey(error)) return;
      throw error;
    }
    close(props.onProven);
  });
  const withProvider = useAction(async (provider: SignInProviderButton) => {
    setLeavingFor(provider.id);
    keepResume(props.resume ?? null);
    try {
      await client.reauthenticateWithProvider(provider.id, { returnTo: thisPage() });
    } catch (error) {
      dropResume();
      setLeavingFor(null);
      throw error;
    }
  });
  // Back from the provider: its result presented (with the authenticator code when TOTP is on). A wrong code is typed
  // again (the service keeps the result until the code is right); a result it refused leaves the other ways, and the
  // provider again, to confirm it.
  const finish = useAction(async () => {
    try {
      const proven = await client.completeProviderReauthentication(totp ? { totpCode: totpCode.trim() } : {});
      if (!proven) {
        setReturning(null);
        return;
      }
    } catch (error) {
      if (!client.pendingProviderReauthentication()) {
        // The code went with the used result: the next way to confirm asks its own.
        setTotpCode('');
        setReturning(null);
      }
      throw error;
    }
    dropResume();
    close(props.onProven);
  });
  useEffect(() => {
    if (returning && !totp) finish.run();
  }, []);

  const askingForCode = method === 'OTP_EMAIL' && !challengeId;
  const address = { email: user?.email ?? '' };

  if (returning) {
    return (
      <dialog ref={modal.dialog} class="reauth" aria-labelledby={titleId} onCancel={modal.onCancel}>
        <h2 id={titleId}>{t('reauth.title')}</h2>
        <form onSubmit={onSubmit(finish.run)} noValidate>
          {totp ? (
            <>
              <p>{t('reauth.backFrom', { name: returningName })}</p>
              <CodeField
                inputRef={first}
                orBackupCode
                label={t('code.authenticator')}
                name="totpCode"
                hint={t('reauth.totpHint')}
                value={totpCode}
                onInput={(e) => setTotpCode(e.currentTarget.value)}
              />
            </>
          ) : (
            <p role="status">{finish.busy ? t('reauth.confirming', { name: returningName }) : null}</p>
          )}
          <Problem error={finish.error} overrides={providerSentences(returningName)} />
          <div class="actions">
            <Button busy={finish.busy}>{t('reauth.confirm')}</Button>
            <button type="button" class="button secondary" onClick={() => close(props.onDismiss)}>
              {t('reauth.cancel')}
            </button>
          </div>
        </form>
      </dialog>
    );
  }

  const leaving = leavingFor !== null;
  return (
    <dialog ref={modal.dialog} class="reauth" aria-labelledby={titleId} onCancel={modal.onCancel}>
      <h2 id={titleId}>{t('reauth.title')}</h2>
      <p>{props.reason ?? t('reauth.why')}</p>
      <Problem error={finish.error} overrides={providerSentences(returningName)} />
      {(hasPasskey || linked.length > 0) && (
        <div class="other-ways">
          <Problem error={withPasskey.error} overrides={passkeySentences()} />
          <Problem error={withProvider.error} />
          {hasPasskey && (
            <Button
              type="button"
              kind="secondary"
              busy={withPasskey.busy}
              disabled={leaving}
              onClick={() => withPasskey.run()}
            >
              {t('reauth.withPasskey')}
            </Button>
          )}
          {linked.map((provider) => (
            <Button
              key={provider.id}
              type="button"
              kind="secondary provider"
              // The browser is on its way to the provider: no second press meanwhile.
              disabled={leaving}
              busy={leavingFor === provider.id}
              onClick={() => withProvider.run(provider)}
            >
              <ProviderMark kind={provider.kind} />
              <span>{t('reauth.withProvider', { name: provider.displayName })}</span>
            </Button>
          ))}
          <p class="or" aria-hidden="true">
            {t('passkey.or')}
          </p>
        </div>
      )}
      {methods.length > 1 && (
        <fieldset class="choice">
          <legend>{t('reauth.how')}</legend>
          {methods.map((m) => (
            <label key={m}>
              <input
                type="radio"
                name="reauth-method"
                checked={method === m}
                onChange={() => {
                  setMethod(m);
                  confirm.setError(null);
                }}
              />{' '}
              {m === 'PASSWORD' ? t('signIn.withPassword') : t('signIn.withCode')}
            </label>
          ))}
        </fieldset>
      )}
      <form onSubmit={onSubmit(askingForCode ? sendCode.run : confirm.run)} noValidate>
        {method === 'PASSWORD' && (
          <PasswordField
            inputRef={first}
            label={t('signIn.password')}
            name="password"
            autocomplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        )}
        {method === 'OTP_EMAIL' && challengeId && (
          <>
            <Notice>{t('reauth.codeSent', address)}</Notice>
            <CodeField
              inputRef={first}
              label={t('code.fromMail')}
              value={code}
              onInput={(e) => setCode(e.currentTarget.value)}
              autoSubmit={!totp}
            />
          </>
        )}
        {method === 'OTP_EMAIL' && !challengeId && <p>{t('reauth.willSend', address)}</p>}
        {totp && !askingForCode && (
          <CodeField
            orBackupCode
            label={t('code.authenticator')}
            name="totpCode"
            hint={t('reauth.totpHint')}
            value={totpCode}
            onInput={(e) => setTotpCode(e.currentTarget.value)}
          />
        )}
        <Problem error={askingForCode ? sendCode.error : confirm.error} overrides={promptSentences()} />
        <div class="actions">
          {askingForCode ? (
            <Button busy={sendCode.busy}>{t('signIn.sendCode')}</Button>
          ) : (
            <Button busy={confirm.busy}>{t('reauth.confirm')}</Button>
          )}
          <button type="button" class="button secondary" onClick={() => close(props.onDismiss)}>
            {t('reauth.cancel')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
