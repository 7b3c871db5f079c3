import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { fieldSentences, formProblem } from '../messages.ts';
import type { LoginChallenge, LoginResult, User } from '../sdk.ts';
import { safeNext, useSession, withQuery } from '../session.tsx';
import {
  AccountEmailField,
  AuthLayout,
  Button,
  CodeField,
  Notice,
  onSubmit,
  PasswordField,
  Problem,
  useAction,
  useAutoFocus,
} from '../ui.tsx';
import { checkForm, saidAtFields, useFocusFirstProblem } from './auth-forms.ts';
import { CodeExpiry, ResendButton, useCodeSent } from './code-clock.tsx';
import './auth.css';

type Method = 'PASSWORD' | 'OTP_EMAIL';

const LABELS = { email: 'E-mail address', password: 'Password' };

/** What the sign-in form says for codes whose meaning is sharper here than in general. */
const SIGN_IN_SENTENCES = {
  INVALID_CREDENTIALS: 'The e-mail address or password is not right.',
  INVALID_CODE: 'That code is not right, or it has expired. Check it, or start again for a new one.',
  ACCOUNT_DISABLED: 'This account is disabled. Contact the administrator of this service.',
  ACCOUNT_INACTIVE:
    'This account is not active yet. Finish signing up with the code we e-mailed you, or sign up again.',
};

export interface SignInProps {
  /**
   * Called with the signed-in user instead of going to `?next=` (the OpenID Connect sign-in page carries on
   * with its request). The session's user is set first either way.
   */
  onSignedIn?: ((user: User) => void) | undefined;
  /** The address to fill in (a client's `login_hint`); else the page's `?email=`. */
  email?: string | undefined;
  /** The heading; `Sign in to <tenant>` by default. */
  title?: string | undefined;
  /**
   * Where "Create an account" comes back to once the account is made and signed in (the OpenID Connect
   * sign-in page's own address, so that a new user still reaches the app that sent them).
   */
  returnTo?: string | undefined;
}

/**
 * Sign-in in the tenant's login mode: a password, a code mailed to the
 * address, or the choice of both; then, when the account has an
 * authenticator app, its code or a backup code.
 */
export function SignIn(props: SignInProps) {
  const { client, tenant, user, setUser } = useSession();
  const { query, route } = useLocation();
  const methods: Method[] =
    tenant.loginMode === 'PASSWORD_OR_OTP_EMAIL' ? ['PASSWORD', 'OTP_EMAIL'] : [tenant.loginMode as Method];
  const [method, setMethod] = useState<Method>(methods[0] as Method);
  const [email, setEmail] = useState(props.email ?? query.email ?? '');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<LoginChallenge | null>(null);
  /** Back from the second step: focus returns to the form's first field. */
  const [restarted, setRestarted] = useState(false);
  /** A new code was asked for on the second step. */
  const [resent, setResent] = useState(false);
  const emailField = useRef<HTMLInputElement>(null);
  const next = safeNext(query.next);
  useEffect(() => {
    if (restarted && !challenge) emailField.current?.focus();
  }, [restarted, challenge]);

  const finish = (result: LoginResult) => {
    if ('user' in result) {
      setUser(result.user);
      if (props.onSignedIn) props.onSignedIn(result.user);
      else route(next);
    } else {
      setChallenge(result);
    }
  };

  /**
   * The last code mailed from this page. Asked again for the same address within its minute (after "start
   * again"), the page goes back to it: the service would hold a new mail back, and the code on its way is the one.
   */
  const lastCode = useRef<{ email: string; challenge: LoginChallenge; at: number } | null>(null);
  const sendCode = async (): Promise<LoginResult> => {
    const address = email.trim();
    const result = await client.login({ email: address, ...(methods.length > 1 ? { loginMode: 'OTP_EMAIL' } : {}) });
    if (!('user' in result)) lastCode.current = { email: address.toLowerCase(), challenge: result, at: Date.now() };
    return result;
  };
  const codeOnItsWay = (): LoginChallenge | undefined => {
    const last = lastCode.current;
    return last && last.email === email.trim().toLowerCase() && Date.now() - last.at < 60_000
      ? last.challenge
      : undefined;
  };
  const start = useAction(async () => {
    const local = checkForm(
      { email, password },
      { required: method === 'PASSWORD' ? ['email', 'password'] : ['email'], email: 'email' },
    );
    if (local.length > 0) throw formProblem(local);
    finish(
      method === 'PASSWORD'
        ? await client.login({
            email: email.trim(),
            password,
            ...(methods.length > 1 ? { loginMode: 'PASSWORD' } : {}),
          })
        : (codeOnItsWay() ?? (await sendCode())),
    );
  });

  if (challenge) {
    return (
      <ChallengeStep
        key={challenge.challengeId}
        challenge={challenge}
        email={email.trim()}
        resent={resent}
        onResult={finish}
        onResend={async () => {
          const result = await sendCode();
          setResent(true);
          finish(result);
        }}
        onRestart={() => {
          setChallenge(null);
          setPassword('');
          setRestarted(true);
          setResent(false);
        }}
      />
    );
  }

  const problems = fieldSentences(start.error, LABELS);
  useFocusFirstProblem(start.error);
  return (
    <AuthLayout title={props.title ?? `Sign in to ${tenant.name}`}>
      {query.expired && <Notice>Your session has ended. Sign in again to go on.</Notice>}
      {query.reset && <Notice>Your password was changed. Sign in with the new one.</Notice>}
      {query.registered && <Notice>Your account is ready. Sign in to go on.</Notice>}
      {user && !props.onSignedIn && (
        <Notice>
          You are signed in as {user.email}. <a href={next}>Continue</a>
        </Notice>
      )}
      {methods.length > 1 && (
        <fieldset class="choice">
          <legend>How do you want to sign in?</legend>
          <label>
            <input type="radio" name="method" checked={method === 'PASSWORD'} onChange={() => setMethod('PASSWORD')} />{' '}
            With my password
          </label>
          <label>
            <input
              type="radio"
              name="method"
              checked={method === 'OTP_EMAIL'}
              onChange={() => setMethod('OTP_EMAIL')}
            />{' '}
            With a code sent to my e-mail
          </label>
        </fieldset>
      )}
      <form onSubmit={onSubmit(start.run)} noValidate>
        <AccountEmailField
          inputRef={emailField}
          label={LABELS.email}
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
          problem={problems.email}
        />
        {method === 'PASSWORD' && (
          <PasswordField
            label={LABELS.password}
            name="password"
            autocomplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
            problem={problems.password}
          />
        )}
        {!saidAtFields(start.error, LABELS) && <Problem error={start.error} overrides={SIGN_IN_SENTENCES} />}
        <Button busy={start.busy}>{method === 'PASSWORD' ? 'Sign in' : 'E-mail me a code'}</Button>
      </form>
      <nav class="links" aria-label="Other options">
        {method === 'PASSWORD' && (
          <a href={withQuery('/forgot-password', { email: email.trim(), next: props.returnTo })}>
            Forgot your password?
          </a>
        )}
        <a href={withQuery('/sign-up', { next: props.returnTo })}>
          {tenant.signupMode === 'OPEN' ? 'Create an account' : 'Have an invitation? Sign up'}
        </a>
      </nav>
    </AuthLayout>
  );
}

/**
 * The second step: the mailed code (with "send a new code"), or the
 * authenticator's code (or a backup code instead). Focus starts in the code
 * field, and returns there when the kind of code changes.
 */
export function ChallengeStep(props: {
  challenge: LoginChallenge;
  email: string;
  resent: boolean;
  onResult(result: LoginResult): void;
  onResend(): Promise<void>;
  onRestart(): void;
}) {
  const { client, tenant } = useSession();
  const [code, setCode] = useState('');
  const [backup, setBackup] = useState(false);
  const focus = useAutoFocus<HTMLInputElement>();
  const byMail = props.challenge.challengeType === 'OTP_EMAIL';
  const verify = useAction(async () => {
    props.onResult(await client.verifyLogin({ challengeId: props.challenge.challengeId, code: code.trim() }));
  });
  // Remounted for each challenge: its code was mailed when it appeared.
  const mailed = useCodeSent(byMail);
  const resend = useAction(async () => {
    await props.onResend();
  });
  const title = byMail ? 'Check your e-mail' : 'Two-step verification';
  const wrongCode = byMail
    ? SIGN_IN_SENTENCES.INVALID_CODE
    : backup
      ? 'That backup code is not right, or it was used already.'
      : 'That code is not right. Enter the code your authenticator app shows now, before it changes.';
  const codeLabel = byMail ? 'Code from the e-mail' : backup ? 'Backup code' : 'Authenticator code';
  return (
    <AuthLayout title={title}>
      {byMail ? (
        <Notice>
          {props.resent
            ? `If ${props.email} has an account at ${tenant.name}, we have sent it a new code. Use the newest one: it works for 10 minutes.`
            : `If ${props.email} has an account at ${tenant.name}, we have sent it a 6-digit code. It works for 10 minutes.`}
        </Notice>
      ) : (
        <p>
          {backup
            ? `Enter one of the backup codes you saved when you set up your authenticator app for ${props.email}. Each works once.`
            : `Enter the 6-digit code your authenticator app shows for ${props.email}.`}
        </p>
      )}
      <form onSubmit={onSubmit(verify.run)} noValidate>
        <CodeField
          inputRef={focus}
          label={codeLabel}
          inputMode={backup ? 'text' : 'numeric'}
          class={backup ? undefined : 'code'}
          value={code}
          onInput={(e) => setCode(e.currentTarget.value)}
          autoSubmit={!backup}
        />
        {byMail && <CodeExpiry sentAt={mailed.sentAt} />}
        <Problem error={verify.error} overrides={{ ...SIGN_IN_SENTENCES, INVALID_CODE: wrongCode }} />
        <Problem error={resend.error} overrides={SIGN_IN_SENTENCES} />
        <Button busy={verify.busy}>Verify</Button>
      </form>
      <nav class="links" aria-label="Other options">
        {byMail ? (
          <ResendButton sentAt={mailed.sentAt} busy={resend.busy} onResend={() => resend.run()} />
        ) : (
          <button
            type="button"
            class="link"
            onClick={() => {
              setBackup(!backup);
              setCode('');
              verify.setError(null);
              focus.current?.focus();
            }}
          >
            {backup ? 'Use my authenticator app instead' : 'Use a backup code instead'}
          </button>
        )}
        <button type="button" class="link" onClick={props.onRestart}>
          Start again
        </button>
      </nav>
    </AuthLayout>
  );
}
