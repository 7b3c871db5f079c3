import type { ComponentChildren, Ref } from 'preact';
import { useState } from 'preact/hooks';
import { fieldProblems } from '../messages.ts';
import { useSession } from '../session.tsx';
import { Button, Field, onSubmit, Problem, useAction } from '../ui.tsx';

const INVITE_SENTENCES = {
  ALREADY_EXISTS: 'That address already has an account here.',
  CONFLICT: 'That address already has an account here.',
  UNAVAILABLE: 'The invitation mail could not be sent, so nothing was saved. Try again in a moment.',
};

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
  const problems = fieldProblems(invite.error);
  return (
    <form onSubmit={onSubmit(invite.run)} noValidate>
      <Field
        label="E-mail address"
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
          label="First name (optional)"
          name="firstName"
          autocomplete="off"
          value={firstName}
          onInput={(e) => setFirstName(e.currentTarget.value)}
          problem={problems.firstName}
        />
        <Field
          label="Last name (optional)"
          name="lastName"
          autocomplete="off"
          value={lastName}
          onInput={(e) => setLastName(e.currentTarget.value)}
          problem={problems.lastName}
        />
      </div>
      <Problem error={invite.error} overrides={INVITE_SENTENCES} />
      {props.children}
      <div class="actions">
        <Button busy={invite.busy}>Send invitation</Button>
        {props.actions}
      </div>
    </form>
  );
}
