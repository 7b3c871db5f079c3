import type { JSX } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { t } from './i18n/index.ts';
import { cancelledPasskey, passkeySentences, usePasskeySupport } from './pages/passkeys.tsx';
import { ApiError } from './sdk.ts';
import { useSession } from './session.tsx';
import { Button, CodeField, Notice, onSubmit, PasswordField, Problem, useAction } from './ui.tsx';
import './reauth.css';

/** The 403 that asks the signed-in user to prove it is them again (sign-in older than 10 minutes). */
export function needsReauthentication(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'REAUTHENTICATION_REQUIRED';
}

type Method = 'PASSWORD' | 'OTP_EMAIL';

interface Waiting {
  /** The user proved it is them: run the action again. */
  proven(): void;
  /** The user closed the prompt: the action fails with its first refusal. */
  dismissed(): void;
}

export interface Reauthenticated {
  /**
   * Runs `action`; when the service answers 403 REAUTHENTICATION_REQUIRED, opens the prompt and,
   * once the user has proved it is them, runs `action` once more and resolves with its result.
   * Closing the prompt rejects with the REAUTHENTICATION_REQUIRED error (a sentence for `<Problem>`).
   */
  run<T>(action: () => Promise<T>): Promise<T>;
  /** The prompt, while it is open (else null): render it anywhere in the component. */
  prompt: JSX.Element | null;
}

/**
 * Guarded changes (e-mail change, TOTP init/verify/disable, API key creation,
 * sign-in clients' secrets and addresses, granting or revoking ADMIN and
 * SUPER_ADMIN, a user's status, TOTP reset and deletion) need a sign-in
 * younger than 10 minutes. This hook wraps such a call: the user is asked, in a modal
 * dialog, for their password, or an e-mail code where the tenant signs in by
 * code, plus their authenticator code when TOTP is on
 * (`client.reauthenticate`), and the call then goes on by itself.
 *
 * @example
 * const reauth = useReauthenticated();
 * const create = useAction(async () => {
 *   const key = await reauth.run(() => client.admin.merchant.apiKeys.create(id, { label }));
 *   setKey(key);
 * });
 * return <form onSubmit={onSubmit(create.run)}>… <Problem error={create.error} />{reauth.prompt}</form>;
 */
export function useReauthenticated(): Reauthenticated {
  const [waiting, setWaiting] = useState<Waiting | null>(null);
  const run = async <T,>(action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      if (!needsReauthentication(error)) throw error;
      await new Promise<void>((resolve, reject) =>
        setWaiting({
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
  const prompt = waiting ? <ReauthPrompt onProven={waiting.proven} onDismiss={waiting.dismissed} /> : null;
  return { run, prompt };
}

const promptSentences = () => ({
  INVALID_CREDENTIALS: t('reauth.wrongPassword'),
  INVALID_CODE: t('reauth.wrongCode'),
});

/**
 * The prompt itself: a modal `<dialog>` (focus is kept inside, Escape closes it, focus returns to where it was),
 * labelled by its heading, its first field focused.
 */
export function ReauthPrompt(props: { onProven(): void; onDismiss(): void; reason?: string }) {
  const { client, tenant, user } = useSession();
  const dialog = useRef<HTMLDialogElement>(null);
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

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    first.current?.focus();
    return () => {
      if (element.open) element.close();
    };
  }, []);
  // The next step's first field (the mailed code) takes focus when it appears.
  useEffect(() => {
    if (challengeId) first.current?.focus();
  }, [challengeId]);

  const close = (then: () => void) => {
    dialog.current?.close();
    then();
  };

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
  const askingForCode = method === 'OTP_EMAIL' && !challengeId;
  const address = { email: user?.email ?? '' };

  return (
    <dialog
      ref={dialog}
      class="reauth"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        close(props.onDismiss);
      }}
    >
      <h2 id={titleId}>{t('reauth.title')}</h2>
      <p>{props.reason ?? t('reauth.why')}</p>
      {hasPasskey && (
        <div class="passkey-reauth">
          <Problem error={withPasskey.error} overrides={passkeySentences()} />
          <Button type="button" kind="secondary" busy={withPasskey.busy} onClick={() => withPasskey.run()}>
            {t('reauth.withPasskey')}
          </Button>
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
