import { useState } from 'preact/hooks';
import { t, tx } from '../i18n/index.ts';
import { fieldSentences } from '../messages.ts';
import { useReauthenticated } from '../reauth.tsx';
import { useSession } from '../session.tsx';
import { Button, CodeField, Field, Notice, onSubmit, Problem, useAction, useAutoFocus } from '../ui.tsx';
import { Section } from './section.tsx';

const emailSentences = () => ({
  INVALID_CODE: t('account.email.wrongCode'),
  CONFLICT: t('account.email.conflict'),
});

/**
 * The e-mail address: a new address gets a code (POST /users/me/email-change,
 * which may ask the user to confirm it is them), and the code commits it.
 */
export function EmailSection(props: { onChanged(): void }) {
  const { client, user, setUser } = useSession();
  // The change goes on after the user confirmed it is them at a provider (the page loaded again on the way back).
  const reauth = useReauthenticated({
    'email.change': (email) => {
      setNewEmail(String(email));
      start.run(String(email));
    },
  });
  const [newEmail, setNewEmail] = useState('');
  const [challenge, setChallenge] = useState<{ id: string; email: string } | null>(null);
  const [changedTo, setChangedTo] = useState<string | null>(null);

  const start = useAction(async (typed: string) => {
    setChangedTo(null);
    const email = typed.trim();
    const { challengeId } = await reauth.run(() => client.me.startEmailChange({ newEmail: email }), {
      key: 'email.change',
      data: email,
    });
    setChallenge({ id: challengeId, email });
  });
  const problems = fieldSentences(start.error);

  return (
    <Section id="email" title={t('account.email.title')}>
      <p>{tx('account.email.yours', { email: <strong>{user?.email}</strong> })}</p>
      {changedTo && <Notice>{t('account.email.changed', { email: changedTo })}</Notice>}
      {challenge ? (
        <EmailCodeStep
          challenge={challenge}
          onDone={async (email) => {
            setUser(await client.me.get());
            setChallenge(null);
            setNewEmail('');
            setChangedTo(email);
            props.onChanged();
          }}
          onRestart={() => setChallenge(null)}
        />
      ) : (
        <form onSubmit={onSubmit(() => start.run(newEmail))} noValidate>
          <Field
            label={t('account.email.new')}
            name="newEmail"
            type="email"
            autocomplete="email"
            required
            hint={t('account.email.newHint')}
            value={newEmail}
            onInput={(e) => setNewEmail(e.currentTarget.value)}
            problem={problems.newEmail}
          />
          <Problem error={start.error} />
          <Button busy={start.busy}>{t('account.email.send')}</Button>
        </form>
      )}
      {reauth.prompt}
    </Section>
  );
}

function EmailCodeStep(props: {
  challenge: { id: string; email: string };
  onDone(email: string): Promise<void>;
  onRestart(): void;
}) {
  const { client } = useSession();
  const [code, setCode] = useState('');
  const focus = useAutoFocus<HTMLInputElement>();
  const verify = useAction(async () => {
    await client.me.verifyEmailChange({ challengeId: props.challenge.id, code: code.trim() });
    await props.onDone(props.challenge.email);
  });
  return (
    <form onSubmit={onSubmit(verify.run)} noValidate>
      <Notice>{t('account.email.sent', { email: props.challenge.email })}</Notice>
      <CodeField
        inputRef={focus}
        label={t('account.email.code')}
        value={code}
        onInput={(e) => setCode(e.currentTarget.value)}
        autoSubmit
      />
      <Problem error={verify.error} overrides={emailSentences()} />
      <div class="actions">
        <Button busy={verify.busy}>{t('account.email.confirm')}</Button>
        <button type="button" class="button secondary" onClick={props.onRestart}>
          {t('account.email.restart')}
        </button>
      </div>
    </form>
  );
}
