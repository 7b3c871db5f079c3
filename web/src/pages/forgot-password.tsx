import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { t } from '../i18n/index.ts';
import { fieldSentences, formProblem } from '../messages.ts';
import { useSession, withQuery } from '../session.tsx';
import { AccountEmailField, AuthLayout, Button, onSubmit, Problem, useAction } from '../ui.tsx';
import { checkForm, rememberReset, useFocusFirstProblem } from './auth-forms.ts';
import './auth.css';

/**
 * Forgot password: the address gets a reset code if it has an account (the
 * answer is the same either way), and the reset page takes it from there.
 */
export function ForgotPassword() {
  const { client, tenant } = useSession();
  const { query, route } = useLocation();
  const [email, setEmail] = useState(query.email ?? '');
  const send = useAction(async () => {
    const local = checkForm({ email }, { required: ['email'], email: 'email' });
    if (local.length > 0) throw formProblem(local);
    const address = email.trim();
    const { challengeId } = await client.forgotPassword({ email: address });
    rememberReset(address, challengeId);
    // On its way to an app's sign-in (OpenID Connect), the reset goes back there after signing in.
    route(withQuery('/reset-password', { email: address, sent: '1', next: query.next }));
  });
  const problems = fieldSentences(send.error, { email: t('signIn.email') });
  useFocusFirstProblem(send.error);
  const resetLink = withQuery('/reset-password', { email: email.trim(), next: query.next });
  return (
    <AuthLayout title={t('forgot.title')}>
      <p>{t('forgot.intro', { name: tenant.name })}</p>
      <form onSubmit={onSubmit(send.run)} noValidate>
        <AccountEmailField
          label={t('signIn.email')}
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
          problem={problems.email}
        />
        {!problems.email && <Problem error={send.error} />}
        <Button busy={send.busy}>{t('signIn.sendCode')}</Button>
      </form>
      <nav class="links" aria-label={t('signIn.otherOptions')}>
        <a href={withQuery('/sign-in', { next: query.next })}>{t('forgot.backToSignIn')}</a>
        <a href={resetLink}>{t('forgot.haveCode')}</a>
      </nav>
    </AuthLayout>
  );
}
