import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { t } from '../i18n/index.ts';
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

const labels = () => ({ email: t('signIn.email'), code: t('code.fromMail'), newPassword: t('reset.newPassword') });

/** The page's own problem: a code with no request from this browser to answer. */
const NO_REQUEST = 'NO_RESET_REQUEST';

const resetSentences = () => ({ INVALID_CODE: t('code.wrongSendNew'), [NO_REQUEST]: t('reset.noRequest') });

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

  const fields = labels();
  const problems = { ...fieldSentences(resend.error, fields), ...fieldSentences(reset.error, fields) };
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
  const address = values.email.trim() || t('reset.theAddress');
  return (
    <AuthLayout title={t('reset.title')}>
      {query.sent && !resent && <Notice>{t('reset.sent', { email: query.email || t('reset.thatAddress') })}</Notice>}
      {resent && <Notice>{t('reset.resent', { email: address })}</Notice>}
      <form onSubmit={onSubmit(reset.run)} noValidate>
        <AccountEmailField label={fields.email} value={values.email} onInput={set('email')} problem={problems.email} />
        <CodeField label={fields.code} class="code" value={values.code} onInput={set('code')} problem={problems.code} />
        <NewPasswordField
          label={fields.newPassword}
          name="newPassword"
          required
          value={values.newPassword}
          onInput={set('newPassword')}
          problem={problems.newPassword}
        />
        {!saidAtFields(reset.error, fields) && <Problem error={reset.error} overrides={resetSentences()} />}
        <CodeExpiry sentAt={mailed.sentAt} />
        {!saidAtFields(resend.error, fields) && <Problem error={resend.error} />}
        <Button busy={reset.busy}>{t('reset.submit')}</Button>
      </form>
      <nav class="links" aria-label={t('signIn.otherOptions')}>
        <ResendButton sentAt={mailed.sentAt} busy={resend.busy} onResend={() => resend.run()} />
        <a href={withQuery('/forgot-password', { email: values.email.trim(), next: query.next })}>
          {t('signIn.startAgain')}
        </a>
        <a href={withQuery('/sign-in', { next: query.next })}>{t('forgot.backToSignIn')}</a>
      </nav>
    </AuthLayout>
  );
}
