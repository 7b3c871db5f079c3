import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { fieldSentences, formProblem, waitFor, when } from '../messages.ts';
import { ApiError, type Invitation } from '../sdk.ts';
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
  useResource,
} from '../ui.tsx';
import { checkForm, saidAtFields, useFocusFirstProblem } from './auth-forms.ts';
import { CodeExpiry, ResendButton, useCodeSent } from './code-clock.tsx';
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
    'This invitation cannot be used any more: it may have expired, been used already, or been withdrawn. Ask an administrator for a new invitation.',
  INVALID_CODE: 'That code is not right, or it has expired. Check it, or send a new code.',
};

/**
 * What an invitation link that opens nothing says, before any form: the service answers one 404 for a token that
 * is unknown, used, expired or withdrawn (and a 400 for one that cannot be a token), so the page says the same.
 */
const INVITATION_LINK_SENTENCE =
  'This invitation link does not work any more: it has expired, was already used, or was withdrawn. Ask an administrator for a new invitation.';
const isDeadLink = (error: unknown) =>
  error instanceof ApiError && (error.code === 'NOT_FOUND' || error.code === 'VALIDATION_FAILED');

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

/**
 * Sign-up: in OPEN tenants names, e-mail and password, then the mailed code
 * (verifying it signs in). With an invitation (the link in the invitation
 * mail carries `invitationToken`), the invitation is looked up first: a link
 * that opens nothing says so and shows no form; a good one opens the form
 * with the invited address locked and the names the admin typed, and
 * accepting it signs in. Whether an address already has an account is never
 * told: the next step is the same.
 */
export function SignUp() {
  const { tenant } = useSession();
  const { query } = useLocation();
  const invitationToken = query.invitationToken?.trim() || undefined;
  if (invitationToken) return <InvitationSignUp token={invitationToken} />;
  if (tenant.signupMode !== 'OPEN') {
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
  return <SignUpForm />;
}

/** The invitation link: its invitation looked up when the page opens, then the form, or why there is none. */
function InvitationSignUp(props: { token: string }) {
  const { client, tenant } = useSession();
  const { query } = useLocation();
  const invitation = useResource(() => client.lookupInvitation(props.token), [props.token]);
  if (invitation.data) return <SignUpForm invitation={{ ...invitation.data, token: props.token }} />;
  if (isDeadLink(invitation.error)) {
    return (
      <AuthLayout title="This invitation link cannot be used">
        <p class="alert" role="alert">
          {INVITATION_LINK_SENTENCE}
        </p>
        <p>If you already accepted it, your account is ready: sign in instead.</p>
        <HaveAnAccount next={query.next} />
      </AuthLayout>
    );
  }
  if (invitation.error) {
    return (
      <AuthLayout title="Your invitation could not be checked">
        <Problem error={invitation.error} />
        <Button type="button" busy={invitation.loading} onClick={() => invitation.reload()}>
          Try again
        </Button>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={`Accept your invitation to ${tenant.name}`}>
      <p role="status">Checking your invitation…</p>
    </AuthLayout>
  );
}

function SignUpForm(props: { invitation?: Invitation & { token: string } }) {
  const { client, tenant, setUser } = useSession();
  const { query, route } = useLocation();
  const { invitation } = props;
  // An invitation is made out to one address, and signup takes no other: it is shown, not asked for.
  const [values, setValues] = useState({
    firstName: invitation?.firstName ?? '',
    lastName: invitation?.lastName ?? '',
    email: invitation?.email ?? query.email ?? '',
    password: '',
  });
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
      ...(invitation ? { invitationToken: invitation.token } : {}),
    });

  /** An invitation accepted: signed in with the password just chosen, else (codes only, or a refusal) at sign-in. */
  const signInAfterInvitation = async (email: string) => {
    if (passwordShown && values.password) {
      const result = await client.login({ email, password: values.password }).catch(() => null);
      if (result && 'user' in result) {
        setUser(result.user);
        route(safeNext(query.next));
        return;
      }
    }
    route(`/sign-in?registered=1&email=${encodeURIComponent(email)}${nextParam(query.next)}`);
  };

  const submit = useAction(async () => {
    const local = checkForm(values, {
      required: ['firstName', 'lastName', 'email', ...(passwordRequired ? ['password'] : [])],
      email: 'email',
      ...(passwordShown ? { newPassword: 'password' } : {}),
    });
    if (local.length > 0) throw formProblem(local);
    const answer = await request();
    if (answer === null) {
      await signInAfterInvitation(values.email.trim());
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
  const title = invitation ? `Accept your invitation to ${tenant.name}` : `Create your ${tenant.name} account`;
  return (
    <AuthLayout title={title}>
      {invitation && (
        <p>
          {invitation.inviterName
            ? `${invitation.inviterName} invited you to join ${invitation.tenantName}.`
            : `You were invited to join ${invitation.tenantName}.`}{' '}
          The invitation works until {when(invitation.expiresAt)}.
        </p>
      )}
      <form onSubmit={onSubmit(submit.run)} noValidate>
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
        {invitation ? (
          <Field
            label={LABELS.email}
            name="email"
            type="email"
            // The account's user name, for a password manager to save with the new password.
            autocomplete="username"
            readOnly
            value={invitation.email}
            hint="The invitation was sent to this address, so your account uses it. For another address, ask for an invitation to that one."
            problem={problems.email}
          />
        ) : (
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
        )}
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
  const mailed = useCodeSent();
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
    setResent(false);
    await props.onResend();
    mailed.sent();
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
          autoSubmit
        />
        <CodeExpiry sentAt={mailed.sentAt} />
        {!saidAtFields(verify.error, { code: '' }) && <Problem error={verify.error} overrides={SIGN_UP_SENTENCES} />}
        <Problem error={resend.error} overrides={SIGN_UP_LIMIT_SENTENCES} />
        <Button busy={verify.busy}>Verify and sign in</Button>
      </form>
      <nav class="links" aria-label="Other options">
        <ResendButton sentAt={mailed.sentAt} busy={resend.busy} onResend={() => resend.run()} />
        <button type="button" class="link" onClick={props.onRestart}>
          Change the e-mail address
        </button>
      </nav>
    </AuthLayout>
  );
}
