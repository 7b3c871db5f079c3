import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { t } from '../i18n/index.ts';
import { fieldSentences, formProblem, waitFor, when } from '../messages.ts';
import { ApiError, type Invitation, type User } from '../sdk.ts';
import { safeNext, useSession, withQuery } from '../session.tsx';
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
import { PasskeyOffer, shouldOfferPasskey } from './passkeys.tsx';
import { ProviderButtons } from './providers.tsx';
import './auth.css';

const labels = () => ({
  firstName: t('signUp.firstName'),
  lastName: t('signUp.lastName'),
  email: t('signIn.email'),
  password: t('signIn.password'),
});

/**
 * What POST /auth/signup's limits mean on this page (the form and "send a new code"): the tenant's signup mail of
 * the day spent (503 until midnight UTC), or this network's signups of the hour. A wait of a minute or less is
 * the service being busy, or the per-minute limit: the usual sentence.
 */
const SIGN_UP_LIMIT_SENTENCES = {
  UNAVAILABLE: (seconds: number | undefined) =>
    seconds !== undefined && seconds > 60 ? t('signUp.pausedToday', { wait: waitFor(seconds) }) : undefined,
  RATE_LIMITED: (seconds: number | undefined) =>
    seconds !== undefined && seconds > 60 ? t('signUp.tooMany', { wait: waitFor(seconds) }) : undefined,
};

/** What the sign-up forms say for codes whose meaning is sharper here. */
const signUpSentences = () => ({
  SIGNUP_NOT_ALLOWED: t('signUp.invitationUnusable'),
  INVALID_CODE: t('code.wrongSendNew'),
});

/**
 * An invitation link that opens nothing (signUp.deadLink, said before any form): the service answers one 404 for a
 * token that is unknown, used, expired or withdrawn (and a 400 for one that cannot be a token), so the page says the
 * same of each.
 */
const isDeadLink = (error: unknown) =>
  error instanceof ApiError && (error.code === 'NOT_FOUND' || error.code === 'VALIDATION_FAILED');

/** The way back to sign-in, keeping where the user was going. */
function HaveAnAccount(props: { next: string | undefined }) {
  return (
    <nav class="links" aria-label={t('signIn.otherOptions')}>
      <a href={props.next ? `/sign-in?next=${encodeURIComponent(props.next)}` : '/sign-in'}>
        {t('signUp.haveAccount')}
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
      <AuthLayout title={t('signUp.byInvitation')}>
        <p>{t('signUp.byInvitationText', { name: tenant.name })}</p>
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
      <AuthLayout title={t('signUp.deadLinkTitle')}>
        <p class="alert" role="alert">
          {t('signUp.deadLink')}
        </p>
        <p>{t('signUp.acceptedAlready')}</p>
        <HaveAnAccount next={query.next} />
      </AuthLayout>
    );
  }
  if (invitation.error) {
    return (
      <AuthLayout title={t('signUp.checkFailed')}>
        <Problem error={invitation.error} />
        <Button type="button" busy={invitation.loading} onClick={() => invitation.reload()}>
          {t('boot.tryAgain')}
        </Button>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={t('signUp.acceptTitle', { name: tenant.name })} pageTitle={t('signUp.acceptPageTitle')}>
      <p role="status">{t('signUp.checking')}</p>
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

  const fields = labels();
  const problems = fieldSentences(submit.error, fields);
  useFocusFirstProblem(submit.error);
  return (
    <AuthLayout
      title={invitation ? t('signUp.acceptTitle', { name: tenant.name }) : t('signUp.title', { name: tenant.name })}
      pageTitle={invitation ? t('signUp.acceptPageTitle') : t('signUp.pageTitle')}
    >
      {invitation && (
        <p>
          {invitation.inviterName
            ? t('signUp.invitedBy', { inviter: invitation.inviterName, name: invitation.tenantName })
            : t('signUp.invited', { name: invitation.tenantName })}{' '}
          {t('signUp.invitationUntil', { date: when(invitation.expiresAt) })}
        </p>
      )}
      <form onSubmit={onSubmit(submit.run)} noValidate>
        <div class="name-row">
          <Field
            label={fields.firstName}
            name="firstName"
            autocomplete="given-name"
            required
            value={values.firstName}
            onInput={set('firstName')}
            problem={problems.firstName}
          />
          <Field
            label={fields.lastName}
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
            label={fields.email}
            name="email"
            type="email"
            // The account's user name, for a password manager to save with the new password.
            autocomplete="username"
            readOnly
            value={invitation.email}
            hint={t('signUp.invitedAddress')}
            problem={problems.email}
          />
        ) : (
          <Field
            label={fields.email}
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
            label={passwordRequired ? fields.password : t('signUp.passwordOptional')}
            name="password"
            required={passwordRequired}
            note={passwordRequired ? undefined : t('signUp.passwordNote')}
            value={values.password}
            onInput={set('password')}
            problem={problems.password}
          />
        )}
        {!saidAtFields(submit.error, fields) && (
          <Problem error={submit.error} overrides={{ ...signUpSentences(), ...SIGN_UP_LIMIT_SENTENCES }} />
        )}
        <Button busy={submit.busy}>{t('signUp.submit')}</Button>
      </form>
      {(tenant.signInProviders ?? []).length > 0 && (
        <>
          <p class="or" aria-hidden="true">
            {t('passkey.or')}
          </p>
          {/* The sign-in page finishes (a new account, an invitation accepted), then goes where sign-up was going. */}
          <ProviderButtons
            verb="signUp"
            returnTo={`${location.origin}${withQuery('/sign-in', { next: query.next })}`}
            loginHint={invitation?.email}
          />
        </>
      )}
      <HaveAnAccount next={query.next} />
    </AuthLayout>
  );
}

/** `&next=…` for a sign-in link when the sign-up was on its way somewhere (safeNext judges it there). */
const nextParam = (next: string | undefined) => (next ? `&next=${encodeURIComponent(next)}` : '');

/** The second step of an OPEN sign-up: the mailed code, which activates the account and signs in. */
function VerifySignUp(props: { email: string; challengeId: string; onResend(): Promise<void>; onRestart(): void }) {
  const { client, tenant, setUser } = useSession();
  const { route, query } = useLocation();
  const [code, setCode] = useState('');
  /** Signed up and in: a passkey is offered for next time before going on. */
  const [offerTo, setOfferTo] = useState<User | null>(null);
  const [resent, setResent] = useState(false);
  const focus = useAutoFocus<HTMLInputElement>();
  const mailed = useCodeSent();
  const verify = useAction(async () => {
    if (!code.trim()) throw formProblem([{ path: 'code', message: 'is required' }]);
    const result = await client.verifySignup({ challengeId: props.challengeId, code: code.trim() });
    if ('user' in result) {
      setUser(result.user);
      // Signed up from an app's sign-in (OpenID Connect): back to it; else the account page.
      if (await shouldOfferPasskey(client, tenant.passkeysAllowed, result.user)) setOfferTo(result.user);
      else route(safeNext(query.next));
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
  const problems = fieldSentences(verify.error, { code: t('code.fromMail') });
  if (offerTo) return <PasskeyOffer user={offerTo} onDone={() => route(safeNext(query.next))} />;
  return (
    <AuthLayout title={t('code.checkMail')}>
      <Notice>
        {resent ? t('signUp.codeResent', { email: props.email }) : t('signUp.codeSent', { email: props.email })}
      </Notice>
      <p class="muted">{t('signUp.existing')}</p>
      <form onSubmit={onSubmit(verify.run)} noValidate>
        <CodeField
          inputRef={focus}
          label={t('code.fromMail')}
          class="code"
          value={code}
          onInput={(e) => setCode(e.currentTarget.value)}
          problem={problems.code}
          autoSubmit
        />
        <CodeExpiry sentAt={mailed.sentAt} />
        {!saidAtFields(verify.error, { code: '' }) && <Problem error={verify.error} overrides={signUpSentences()} />}
        <Problem error={resend.error} overrides={SIGN_UP_LIMIT_SENTENCES} />
        <Button busy={verify.busy}>{t('signUp.verify')}</Button>
      </form>
      <nav class="links" aria-label={t('signIn.otherOptions')}>
        <ResendButton sentAt={mailed.sentAt} busy={resend.busy} onResend={() => resend.run()} />
        <button type="button" class="link" onClick={props.onRestart}>
          {t('signUp.changeEmail')}
        </button>
      </nav>
    </AuthLayout>
  );
}
