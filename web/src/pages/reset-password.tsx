import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { fieldSentences, formProblem } from '../messages.ts';
import { ApiError, type LoginChallenge, type LoginResult } from '../sdk.ts';
import { safeNext, useSession, withQuery } from '../session.tsx';
import {
  AccountEmailField,
  AuthLayout,
  Button,
  CodeField,
  NewPasswordField,
  Notice,
  onSubmit,
  Problem,
  useAction,
} from '../ui.tsx';
import {
  checkForm,
  forgetReset,
  recallReset,
  rememberReset,
  saidAtFields,
  useFocusFirstProblem,
} from './auth-forms.ts';
import { CodeExpiry, ResendButton, useCodeSent } from './code-clock.tsx';
import { ChallengeStep } from './sign-in.tsx';
import './auth.css';

const LABELS = { email: 'E-mail address', code: 'Code from the e-mail', newPassword: 'New password' };

/** The page's own problem: a code with no request from this browser to answer. */
const NO_REQUEST = 'NO_RESET_REQUEST';

const RESET_SENTENCES = {
  INVALID_CODE: 'That code is not right, or it has expired. Check it, or send a new code.',
  [NO_REQUEST]:
    'This browser has no code request for that address, or it has expired. Send a new code, then enter the code from the newest e-mail.',
};

/**
 * Reset password: the address, the mailed code and the new password. The
 * code answers the request the forgot page made in this browser (its
 * challenge is kept in local storage); without one, "Send a new code" makes it.
 */
export function ResetPassword() {
  const { client, tenant, setUser } = useSession();
  const { query, route } = useLocation();
  const [challenge, setChallenge] = useState<LoginChallenge | null>(null);
  const [values, setValues] = useState({ email: query.email ?? '', code: '', newPassword: '' });
  const [resent, setResent] = useState(false);
  const mailed = useCodeSent(Boolean(query.sent));
  // A reset an administrator had mailed links here with the challenge its code answers: this browser takes it as
  // its own request (a new code asked here replaces it).
  useEffect(() => {
    if (query.email && query.challenge) rememberReset(query.email, query.challenge);
  }, [query.email, query.challenge]);
  const set = (name: keyof typeof values) => (e: { currentTarget: HTMLInputElement }) =>
    setValues({ ...values, [name]: e.currentTarget.value });

  const reset = useAction(async () => {
    const local = checkForm(values, {
      required: ['email', 'code', 'newPassword'],
      email: 'email',
      newPassword: 'newPassword',
    });
    if (local.length > 0) throw formProblem(local);
    const email = values.email.trim();
    const challengeId = recallReset(email);
    if (!challengeId) throw new ApiError({ status: 400, code: NO_REQUEST });
    await client.resetPassword({ challengeId, code: values.code.trim(), newPassword: values.newPassword });
    forgetReset();
    // Signed in with the new password at once, as the user expects; a second step (an authenticator app) asks here.
    // Should that sign-in fail, the password is changed all the same: the sign-in page says so.
    const signedIn = await client
      .login({
        email,
        password: values.newPassword,
        ...(tenant.loginMode === 'PASSWORD_OR_OTP_EMAIL' ? { loginMode: 'PASSWORD' as const } : {}),
      })
      .catch(() => null);
    if (signedIn) finish(signedIn);
    else toSignIn();
  });

  const toSignIn = () => route(withQuery('/sign-in', { reset: '1', email: values.email.trim(), next: query.next }));
  const finish = (result: LoginResult) => {
    if ('user' in result) {
      setUser(result.user);
      route(safeNext(query.next));
    } else {
      setChallenge(result);
    }
  };

  const resend = useAction(async () => {
    setResent(false);
    const local = checkForm(values, { required: ['email'], email: 'email' });
    if (local.length > 0) throw formProblem(local);
    const email = values.email.trim();
    const { challengeId } = await client.forgotPassword({ email });
    mailed.sent();
    rememberReset(email, challengeId);
    setValues({ ...values, code: '' });
    setResent(true);
  });

  const problems = { ...fieldSentences(resend.error, LABELS), ...fieldSentences(reset.error, LABELS) };
  useFocusFirstProblem(reset.error ?? resend.error);
  if (challenge) {
    return (
      <ChallengeStep
        challenge={challenge}
        email={values.email.trim()}
        resent={false}
        onResult={finish}
        // Only an authenticator app's step follows a password; a code by mail is the sign-in page's.
        onResend={async () => toSignIn()}
        onRestart={toSignIn}
      />
    );
  }
  const address = values.email.trim() || 'the address';
  return (
    <AuthLayout title="Choose a new password">
      {query.sent && !resent && (
        <Notice>
          If {query.email || 'that address'} has an account, we have e-mailed it a 6-digit code. It works for 10
          minutes.
        </Notice>
      )}
      {resent && <Notice>If {address} has an account, we have e-mailed it a new code. Use the newest one.</Notice>}
      <form onSubmit={onSubmit(reset.run)} noValidate>
        <AccountEmailField label={LABELS.email} value={values.email} onInput={set('email')} problem={problems.email} />
        <CodeField label={LABELS.code} class="code" value={values.code} onInput={set('code')} problem={problems.code} />
        <NewPasswordField
          label={LABELS.newPassword}
          name="newPassword"
          required
          value={values.newPassword}
          onInput={set('newPassword')}
          problem={problems.newPassword}
        />
        {!saidAtFields(reset.error, LABELS) && <Problem error={reset.error} overrides={RESET_SENTENCES} />}
        <CodeExpiry sentAt={mailed.sentAt} />
        {!saidAtFields(resend.error, LABELS) && <Problem error={resend.error} />}
        <Button busy={reset.busy}>Set the new password</Button>
      </form>
      <nav class="links" aria-label="Other options">
        <ResendButton sentAt={mailed.sentAt} busy={resend.busy} onResend={() => resend.run()} />
        <a href={withQuery('/forgot-password', { email: values.email.trim(), next: query.next })}>Start again</a>
        <a href={withQuery('/sign-in', { next: query.next })}>Back to sign-in</a>
      </nav>
    </AuthLayout>
  );
}
