import { useState } from 'preact/hooks';
import { t } from '../i18n/index.ts';
import { fieldSentences, formProblem } from '../messages.ts';
import { type ChangePasswordRequest, formSchemas, validateForm } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Button, CodeField, NewPasswordField, Notice, onSubmit, PasswordField, Problem, useAction } from '../ui.tsx';
import { Section } from './section.tsx';

const passwordSentences = () => ({
  INVALID_CREDENTIALS: t('account.password.wrongCurrent'),
  INVALID_CODE: t('account.password.wrongCode'),
});

/**
 * POST /users/me/password: the current password, the new one and, with TOTP
 * on, a code. The other sessions end; this one goes on.
 */
export function PasswordSection(props: { onChanged(): void }) {
  const { client, tenant, user } = useSession();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [totpCode, setTotpCode] = useState('');
  const [changed, setChanged] = useState(false);
  const totp = Boolean(user?.totpEnabled);

  const change = useAction(async () => {
    setChanged(false);
    const body: ChangePasswordRequest = { currentPassword, newPassword, ...(totp ? { totpCode } : {}) };
    const checked = validateForm(formSchemas.changePassword, body);
    if (!checked.success) throw formProblem(checked.errors);
    await client.me.changePassword(checked.output);
    setCurrentPassword('');
    setNewPassword('');
    setTotpCode('');
    setChanged(true);
    props.onChanged();
  });
  const problems = fieldSentences(change.error);

  if (tenant.loginMode === 'OTP_EMAIL') {
    return (
      <Section id="password" title={t('account.password.title')}>
        <p>{t('account.password.none', { name: tenant.name })}</p>
      </Section>
    );
  }
  return (
    <Section id="password" title={t('account.password.title')}>
      <form onSubmit={onSubmit(change.run)} noValidate>
        <input type="text" name="username" autocomplete="username" value={user?.email ?? ''} hidden readOnly />
        <PasswordField
          label={t('account.password.current')}
          name="currentPassword"
          autocomplete="current-password"
          required
          value={currentPassword}
          onInput={(e) => setCurrentPassword(e.currentTarget.value)}
          problem={problems.currentPassword}
        />
        <NewPasswordField
          label={t('account.password.new')}
          name="newPassword"
          required
          value={newPassword}
          onInput={(e) => setNewPassword(e.currentTarget.value)}
          problem={problems.newPassword}
        />
        {totp && (
          <CodeField
            orBackupCode
            label={t('account.password.code')}
            name="totpCode"
            hint={t('account.password.codeHint')}
            value={totpCode}
            onInput={(e) => setTotpCode(e.currentTarget.value)}
            problem={problems.totpCode}
          />
        )}
        <Problem error={change.error} overrides={passwordSentences()} />
        {changed && <Notice>{t('account.password.changed')}</Notice>}
        <Button busy={change.busy}>{t('account.password.change')}</Button>
      </form>
    </Section>
  );
}
