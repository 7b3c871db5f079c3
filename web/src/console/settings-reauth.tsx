import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { fieldProblems } from '../messages.ts';
import { ApiError } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Button, Field, Notice, onSubmit, Problem, useAction } from '../ui.tsx';
import './settings.css';

/** Whether a failure asks the user to prove it is them again (then `client.reauthenticate`, then the same call). */
export function needsReauthentication(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'REAUTHENTICATION_REQUIRED';
}

const REAUTH_SENTENCES = {
  INVALID_CREDENTIALS: 'That password is not right.',
  INVALID_CODE: 'That code is not right, or it has expired.',
};

type Method = 'PASSWORD' | 'OTP_EMAIL';

/**
 * "Confirm it is you": a modal dialog asking for the password (or, where the
 * tenant's login mode takes e-mail codes, a mailed code), and the
 * authenticator code when the account has TOTP, for `client.reauthenticate`.
 * `onDone` runs once the session counts as freshly authenticated (10 minutes),
 * to retry what was refused; Cancel or Escape runs `onCancel`.
 *
 * The API keys page's own; the account page has its own too, until the lead makes them one.
 */
export function ReauthenticateDialog(props: { open: boolean; reason: string; onDone(): void; onCancel(): void }) {
  const { client, tenant, user } = useSession();
  const dialog = useRef<HTMLDialogElement>(null);
  const done = useRef(false);
  const titleId = useId();
  const methods: Method[] =
    tenant.loginMode === 'PASSWORD_OR_OTP_EMAIL' ? ['PASSWORD', 'OTP_EMAIL'] : [tenant.loginMode as Method];
  const [method, setMethod] = useState<Method>(methods[0] as Method);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [totpCode, setTotpCode] = useState('');
  const [challengeId, setChallengeId] = useState<string | null>(null);
  const totp = user?.totpEnabled === true;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (props.open && !element.open) {
      done.current = false;
      setPassword('');
      setCode('');
      setTotpCode('');
      setChallengeId(null);
      element.showModal();
    } else if (!props.open && element.open) {
      element.close();
    }
  }, [props.open]);

  const withTotp = () => (totp ? { totpCode: totpCode.trim() } : {});
  const prove = useAction(async () => {
    if (method === 'PASSWORD') {
      await client.reauthenticate({ password, ...withTotp() });
    } else if (!challengeId) {
      setChallengeId((await client.reauthenticate({ loginMode: 'OTP_EMAIL' })).challengeId);
      return;
    } else {
      await client.reauthenticate({ challengeId, code: code.trim(), ...withTotp() });
    }
    done.current = true;
    dialog.current?.close();
    props.onDone();
  });
  const problems = fieldProblems(prove.error);

  return (
    <dialog
      ref={dialog}
      class="settings-dialog"
      aria-labelledby={titleId}
      onClose={() => {
        if (!done.current) props.onCancel();
      }}
    >
      <h2 id={titleId}>Confirm it is you</h2>
      <p>{props.reason}</p>
      {methods.length > 1 && !challengeId && (
        <fieldset class="choice">
          <legend>How do you want to confirm?</legend>
          <label>
            <input
              type="radio"
              name="reauth-method"
              checked={method === 'PASSWORD'}
              onChange={() => setMethod('PASSWORD')}
            />{' '}
            With my password
          </label>
          <label>
            <input
              type="radio"
              name="reauth-method"
              checked={method === 'OTP_EMAIL'}
              onChange={() => setMethod('OTP_EMAIL')}
            />{' '}
            With a code sent to my e-mail
          </label>
        </fieldset>
      )}
      <form onSubmit={onSubmit(prove.run)} noValidate>
        {method === 'PASSWORD' && (
          <Field
            label="Your password"
            name="password"
            type="password"
            autocomplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
            problem={problems.password}
          />
        )}
        {method === 'OTP_EMAIL' && challengeId && (
          <>
            <Notice>We have sent a 6-digit code to {user?.email}. It works for 10 minutes.</Notice>
            <Field
              label="Code from the e-mail"
              name="code"
              inputMode="numeric"
              autocomplete="one-time-code"
              required
              value={code}
              onInput={(e) => setCode(e.currentTarget.value)}
              problem={problems.code}
            />
          </>
        )}
        {totp && (method === 'PASSWORD' || challengeId) && (
          <Field
            label="Authenticator code"
            name="totpCode"
            hint="The 6-digit code your authenticator app shows, or one of your backup codes."
            autocomplete="one-time-code"
            required
            value={totpCode}
            onInput={(e) => setTotpCode(e.currentTarget.value)}
            problem={problems.totpCode}
          />
        )}
        <Problem error={prove.error} overrides={REAUTH_SENTENCES} />
        <div class="dialog-actions">
          <Button busy={prove.busy}>{method === 'OTP_EMAIL' && !challengeId ? 'E-mail me a code' : 'Confirm'}</Button>
          <button type="button" class="button secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
