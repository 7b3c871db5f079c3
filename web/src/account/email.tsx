import { useState } from 'preact/hooks';
import { fieldSentences } from '../messages.ts';
import { useReauthenticated } from '../reauth.tsx';
import { useSession } from '../session.tsx';
import { Button, CodeField, Field, Notice, onSubmit, Problem, useAction, useAutoFocus } from '../ui.tsx';
import { Section } from './section.tsx';

const EMAIL_SENTENCES = {
  INVALID_CODE: 'That code is not right, or it has expired. Check it, or start again for a new one.',
  CONFLICT: 'That address cannot be used for this account. Choose another one.',
};

/**
 * The e-mail address: a new address gets a code (POST /users/me/email-change,
 * which may ask the user to confirm it is them), and the code commits it.
 */
export function EmailSection(props: { onChanged(): void }) {
  const { client, user, setUser } = useSession();
  const reauth = useReauthenticated();
  const [newEmail, setNewEmail] = useState('');
  const [challenge, setChallenge] = useState<{ id: string; email: string } | null>(null);
  const [changedTo, setChangedTo] = useState<string | null>(null);

  const start = useAction(async () => {
    setChangedTo(null);
    const email = newEmail.trim();
    const { challengeId } = await reauth.run(() => client.me.startEmailChange({ newEmail: email }));
    setChallenge({ id: challengeId, email });
  });
  const problems = fieldSentences(start.error);

  return (
    <Section id="email" title="E-mail address">
      <p>
        Your address is <strong>{user?.email}</strong>.
      </p>
      {changedTo && <Notice>Your e-mail address is now {changedTo}. Sign in with it from now on.</Notice>}
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
        <form onSubmit={onSubmit(start.run)} noValidate>
          <Field
            label="New e-mail address"
            name="newEmail"
            type="email"
            autocomplete="email"
            required
            hint="We will send a code to the new address, to check that it is yours."
            value={newEmail}
            onInput={(e) => setNewEmail(e.currentTarget.value)}
            problem={problems.newEmail}
          />
          <Problem error={start.error} />
          <Button busy={start.busy}>Send a code</Button>
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
      <Notice>
        We have sent a 6-digit code to {props.challenge.email}. It works for 10 minutes. Your address changes once you
        enter it.
      </Notice>
      <CodeField
        inputRef={focus}
        label="Code from the e-mail"
        value={code}
        onInput={(e) => setCode(e.currentTarget.value)}
        autoSubmit
      />
      <Problem error={verify.error} overrides={EMAIL_SENTENCES} />
      <div class="actions">
        <Button busy={verify.busy}>Change my address</Button>
        <button type="button" class="button secondary" onClick={props.onRestart}>
          Start again
        </button>
      </div>
    </form>
  );
}
