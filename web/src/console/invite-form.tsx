import type { ComponentChildren, Ref } from 'preact';
import { useState } from 'preact/hooks';
import { t } from '../i18n/index.ts';
import { fieldSentences } from '../messages.ts';
import { useSession } from '../session.tsx';
import { Button, Field, onSubmit, Problem, useAction } from '../ui.tsx';

const inviteSentences = () => ({
  ALREADY_EXISTS: t('invitations.exists'),
  CONFLICT: t('invitations.exists'),
  UNAVAILABLE: t('invitations.notSent'),
});

/**
 * The invitation form (the address, and optional names): the invitations page shows it, and the users page in a
 * dialog. `onInvited` hears the address once the invitation went out; the form is then empty for the next one.
 */
export function InviteForm(props: {
  /** A new attempt starts: the news of the last one is no longer news. */
  onSending?(): void;
  onInvited(email: string): unknown;
  /** The address field, for a dialog that puts the focus there when it opens. */
  emailRef?: Ref<HTMLInputElement>;
  /** Above the button: the news of the last invitation, say. */
  children?: ComponentChildren;
  /** Beside the button (a dialog's Cancel). */
  actions?: ComponentChildren;
}) {
  const { client } = useSession();
  const [email, setEmail] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const invite = useAction(async () => {
    props.onSending?.();
    const address = email.trim();
    await client.admin.users.invite({
      email: address,
      ...(firstName.trim() ? { firstName: firstName.trim() } : {}),
      ...(lastName.trim() ? { lastName: lastName.trim() } : {}),
    });
    setEmail('');
    setFirstName('');
    setLastName('');
    await props.onInvited(address);
  });
  const problems = fieldSentences(invite.error, {
    email: t('invitations.email'),
    firstName: t('user.firstName'),
    lastName: t('user.lastName'),
  });
  return (
    <form onSubmit={onSubmit(invite.run)} noValidate>
      <Field
        label={t('invitations.email')}
        name="email"
        type="email"
        autocomplete="off"
        required
        inputRef={props.emailRef}
        value={email}
        onInput={(e) => setEmail(e.currentTarget.value)}
        problem={problems.email}
      />
      <div class="row">
        <Field
          label={t('invitations.firstName')}
          name="firstName"
          autocomplete="off"
          value={firstName}
          onInput={(e) => setFirstName(e.currentTarget.value)}
          problem={problems.firstName}
        />
        <Field
          label={t('invitations.lastName')}
          name="lastName"
          autocomplete="off"
          value={lastName}
          onInput={(e) => setLastName(e.currentTarget.value)}
          problem={problems.lastName}
        />
      </div>
      <Problem error={invite.error} overrides={inviteSentences()} />
      {props.children}
      <div class="actions">
        <Button busy={invite.busy}>{t('invitations.send')}</Button>
        {props.actions}
      </div>
    </form>
  );
}
