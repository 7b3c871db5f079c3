import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { fieldSentences, formProblem, waitFor } from '../messages.ts';
import { safeNext, useSession } from '../session.tsx';
import {
  AuthLayout,
  Button,
  CodeField,
  Field,
  NewPasswordField,
  Notice,
  onSubmit,
  Problem,
  useAction,
  useAutoFocus,
} from '../ui.tsx';
import { checkForm, resendSentences, saidAtFields, useFocusFirstProblem, useResendClock } from './auth-forms.ts';
import './auth.css';

const LABELS = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'E-mail address',
  password: 'Password',
};

/** What the sign-up forms say for codes whose meaning is sharper here. */
/**
 * What POST /auth/signup's limits mean on this page (the form and "send a new code"): the tenant's signup mail of
 * the day spent (503 until midnight UTC), or this network's signups of the hour. A wait of a minute or less is
 * the service being busy, or the per-minute limit: the usual sentence.
 */
const SIGN_UP_LIMIT_SENTENCES = {
  UNAVAILABLE: (seconds: number | undefined) =>
    seconds !== undefined && seconds > 60
      ? `New sign-ups are paused for today. Try again in ${waitFor(seconds)}.`
      : undefined,
  RATE_LIMITED: (seconds: number | undefined) =>
    seconds !== undefined && seconds > 60
      ? `Too many sign-ups from your network. Try again in ${waitFor(seconds)}.`
      : undefined,
};

const SIGN_UP_SENTENCES = {
  SIGNUP_NOT_ALLOWED:
    'This invitation cannot be used: it may have expired, been used already, or be meant for another e-mail address. Ask for a new invitation.',
  INVALID_CODE: 'That code is not right, or it has expired. Check it, or send a new code.',
};

/**
 * Sign-up: in OPEN tenants names, e-mail and password, then the mailed code
 * (verifying it signs in); with an invitation (the link in the invitation
 * mail carries `invitationToken`), the same form, then sign-in. Whether the
 * address already has an account is never told: the next step is the same.
 */
/** The way back to sign-in, keeping where the user was going. */
function HaveAnAccount(props: { next: string | undefined }) {
  return (
    <nav class="links" aria-label="Other options">
      <a href={props.next ? `/sign-in?next=${encodeURIComponent(props.next)}` : '/sign-in'}>
        I already have an account: sign in
      </a>
    </nav>
  );
}

export function SignUp() {
  const { tenant } = useSession();
  const { query } = useLocation();
  const invitationToken = query.invitationToken?.trim() || undefined;
  if (!invitationToken && tenant.signupMode !== 'OPEN') {
    return (
      <AuthLayout title="Sign-up is by invitation">
        <p>
          Accounts at {tenant.name} are created by invitation only. If you were invited, open the link in your
          invitation e-mail to create your account.
        </p>
        <HaveAnAccount next={query.next} />
      </AuthLayout>
    );
  }
  return <SignUpForm invitationToken={invitationToken} />;
}

function SignUpForm(props: { invitationToken: string | undefined }) {
  const { client, tenant } = useSession();
  const { query, route } = useLocation();
  const [values, setValues] = useState({ firstName: '', lastName: '', email: query.email ?? '', password: '' });
  const [challengeId, setChallengeId] = useState<string | null>(null);
  // OTP_EMAIL tenants sign in with mailed codes only: a password would never be asked for.
  const passwordShown = tenant.loginMode !== 'OTP_EMAIL';
  const passwordRequired = tenant.loginMode === 'PASSWORD';
  const set = (name: keyof typeof values) => (e: { currentTarget: HTMLInputElement }) =>
    setValues({ ...values, [name]: e.currentTarget.value });

  const request = () =>
    client.signup({
      email: values.email.trim(),
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      ...(passwordShown && values.password ? { password: values.password } : {}),
      ...(props.invitationToken ? { invitationToken: props.invitationToken } : {}),
    });

  const submit = useAction(async () => {
    const local = checkForm(values, {
      required: ['firstName', 'lastName', 'email', ...(passwordRequired ? ['password'] : [])],
      email: 'email',
      ...(passwordShown ? { newPassword: 'password' } : {}),
    });
    if (local.length > 0) throw formProblem(local);
    const answer = await request();
    if (answer === null) {
      // An invitation accepted: the account is ready, and signing in is the next step (then where it was going).
      route(`/sign-in?registered=1&email=${encodeURIComponent(values.email.trim())}${nextParam(query.next)}`);
    } else {
      setChallengeId(answer.challengeId);
    }
  });

  if (challengeId) {
    return (
      <VerifySignUp
        email={values.email.trim()}
        challengeId={challengeId}
        onResend={async () => {
          const answer = await request();
          if (answer) setChallengeId(answer.challengeId);
        }}
        onRestart={() => setChallengeId(null)}
      />
    );
  }

  const problems = fieldSentences(submit.error, LABELS);
  useFocusFirstProblem(submit.error);
  const title = props.invitationToken
    ? `Accept your invitation to ${tenant.name}`
    : `Create your ${tenant.name} account`;
  return (
    <AuthLayout title={title}>
      {props.invitationToken && (
        <p>You were invited to {tenant.name}. Use the e-mail address the invitation was sent to.</p>
      )}
      <form onSubmit={onSubmit(submit.run)} noValidate>
        {props.invitationToken && (
          <Field label="Invitation" name="invitationToken" readOnly value={props.invitationToken} class="token" />
        )}
        <div class="name-row">
          <Field
            label={LABELS.firstName}
            name="firstName"
            autocomplete="given-name"
            required
            value={values.firstName}
            onInput={set('firstName')}
            problem={problems.firstName}
          />
          <Field
            label={LABELS.lastName}
            name="lastName"
            autocomplete="family-name"
            required
            value={values.lastName}
            onInput={set('lastName')}
            problem={problems.lastName}
          />
        </div>
        <Field
          label={LABELS.email}
          name="email"
          type="email"
          autocomplete="email"
          required
          value={values.email}
          onInput={set('email')}
          problem={problems.email}
        />
        {passwordShown && (
          <NewPasswordField
            label={passwordRequired ? LABELS.password : `${LABELS.password} (optional)`}
            name="password"
            required={passwordRequired}
            note={passwordRequired ? undefined : 'Without one, you sign in with a code we e-mail you.'}
            value={values.password}
            onInput={set('password')}
            problem={problems.password}
          />
        )}
        {!saidAtFields(submit.error, LABELS) && (
          <Problem error={submit.error} overrides={{ ...SIGN_UP_SENTENCES, ...SIGN_UP_LIMIT_SENTENCES }} />
        )}
        <Button busy={submit.busy}>Create account</Button>
      </form>
      <HaveAnAccount next={query.next} />
    </AuthLayout>
  );
}

/** `&next=…` for a sign-in link when the sign-up was on its way somewhere (safeNext judges it there). */
const nextParam = (next: string | undefined) => (next ? `&next=${encodeURIComponent(next)}` : '');

/** The second step of an OPEN sign-up: the mailed code, which activates the account and signs in. */
function VerifySignUp(props: { email: string; challengeId: string; onResend(): Promise<void>; onRestart(): void }) {
  const { client, setUser } = useSession();
  const { route, query } = useLocation();
  const [code, setCode] = useState('');
  const [resent, setResent] = useState(false);
  const focus = useAutoFocus<HTMLInputElement>();
  const clock = useResendClock();
  const verify = useAction(async () => {
    if (!code.trim()) throw formProblem([{ path: 'code', message: 'is required' }]);
    const result = await client.verifySignup({ challengeId: props.challengeId, code: code.trim() });
    if ('user' in result) {
      setUser(result.user);
      // Signed up from an app's sign-in (OpenID Connect): back to it; else the account page.
      route(safeNext(query.next));
    } else {
      // Not expected of a new account; sign-in knows every further step.
      route(`/sign-in?registered=1&email=${encodeURIComponent(props.email)}${nextParam(query.next)}`);
    }
  });
  const resend = useAction(async () => {
    clock.check();
    setResent(false);
    await props.onResend();
    clock.sent();
    setCode('');
    setResent(true);
    focus.current?.focus();
  });
  const problems = fieldSentences(verify.error, { code: 'The code' });
  return (
    <AuthLayout title="Check your e-mail">
      <Notice>
        {resent
          ? `We sent a new code to ${props.email}. Use the newest one: it works for 10 minutes.`
          : `We sent a 6-digit code to ${props.email}. Enter it below to finish creating your account. It works for 10 minutes.`}
      </Notice>
      <p class="muted">
        If the address already has an account, the e-mail says so instead: then sign in, or reset your password.
      </p>
      <form onSubmit={onSubmit(verify.run)} noValidate>
        <CodeField
          inputRef={focus}
          label="Code from the e-mail"
          class="code"
          value={code}
          onInput={(e) => setCode(e.currentTarget.value)}
          problem={problems.code}
        />
        {!saidAtFields(verify.error, { code: '' }) && <Problem error={verify.error} overrides={SIGN_UP_SENTENCES} />}
        <Problem error={resend.error} overrides={{ ...SIGN_UP_LIMIT_SENTENCES, ...resendSentences(resend.error) }} />
        <Button busy={verify.busy}>Verify and sign in</Button>
      </form>
      <nav class="links" aria-label="Other options">
        <button type="button" class="link" onClick={() => resend.run()} disabled={resend.busy}>
          Send a new code
        </button>
        <button type="button" class="link" onClick={props.onRestart}>
          Change the e-mail address
        </button>
      </nav>
    </AuthLayout>
  );
}
