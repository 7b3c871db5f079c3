import { useState } from 'preact/hooks';
import { fieldSentences, formProblem } from '../messages.ts';
import { type ChangePasswordRequest, formSchemas, validateForm } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Button, CodeField, NewPasswordField, Notice, onSubmit, PasswordField, Problem, useAction } from '../ui.tsx';
import { Section } from './section.tsx';

const PASSWORD_SENTENCES = {
  INVALID_CREDENTIALS: 'Your current password is not right.',
  INVALID_CODE: 'That authenticator code is not right, or it has expired.',
};

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
      <Section id="password" title="Password">
        <p>{tenant.name} signs you in with a code sent to your e-mail address: there is no password to change.</p>
      </Section>
    );
  }
  return (
    <Section id="password" title="Password">
      <form onSubmit={onSubmit(change.run)} noValidate>
        <input type="text" name="username" autocomplete="username" value={user?.email ?? ''} hidden readOnly />
        <PasswordField
          label="Current password"
          name="currentPassword"
          autocomplete="current-password"
          required
          value={currentPassword}
          onInput={(e) => setCurrentPassword(e.currentTarget.value)}
          problem={problems.currentPassword}
        />
        <NewPasswordField
          label="New password"
          name="newPassword"
          required
          value={newPassword}
          onInput={(e) => setNewPassword(e.currentTarget.value)}
          problem={problems.newPassword}
        />
        {totp && (
          <CodeField
            orBackupCode
            label="Authenticator code"
            name="totpCode"
            hint="The 6-digit code your authenticator app shows, or one of your backup codes."
            value={totpCode}
            onInput={(e) => setTotpCode(e.currentTarget.value)}
            problem={problems.totpCode}
          />
        )}
        <Problem error={change.error} overrides={PASSWORD_SENTENCES} />
        {changed && (
          <Notice>
            Your password was changed. Every other session of your account was signed out: sign in again there with the
            new password.
          </Notice>
        )}
        <Button busy={change.busy}>Change password</Button>
      </form>
    </Section>
  );
}
