import { useState } from 'preact/hooks';
import { fieldProblems } from '../messages.ts';
import { useReauthenticated } from '../reauth.tsx';
import { mayActOn } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Button, Field, Notice, onSubmit, Problem, ScrollingTable, TableHead, useAction } from '../ui.tsx';
import { Confirm } from './confirm.tsx';
import { ConsolePage } from './layout.tsx';
import { useAllUsers } from './users.tsx';
import { displayName, When } from './users-shared.tsx';

const INVITE_SENTENCES = {
  ALREADY_EXISTS: 'That address already has an account here.',
  CONFLICT: 'That address already has an account here.',
  UNAVAILABLE: 'The invitation mail could not be sent, so nothing was saved. Try again in a moment.',
};

/**
 * `/console/invitations`: invite someone by e-mail (the mail carries a link to finish signing up), and the
 * invitations still open: the users whose status is INVITED (there is no separate list).
 */
export function Invitations() {
  const { client, user: caller } = useSession();
  const { users, error: listError, reload } = useAllUsers();
  const [email, setEmail] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [withdrawn, setWithdrawn] = useState<string | null>(null);
  // Withdrawing deletes the invited user: a sign-in younger than 10 minutes, as every deletion.
  const reauth = useReauthenticated();
  const invite = useAction(async () => {
    setSent(null);
    await client.admin.users.invite({
      email: email.trim(),
      ...(firstName.trim() ? { firstName: firstName.trim() } : {}),
      ...(lastName.trim() ? { lastName: lastName.trim() } : {}),
    });
    setSent(email.trim());
    setEmail('');
    setFirstName('');
    setLastName('');
    reload();
  });
  const problems = fieldProblems(invite.error);
  const invited = (users ?? []).filter((user) => user.status === 'INVITED');

  return (
    <ConsolePage title="Invitations">
      <section class="panel" aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite someone</h2>
        <p class="muted">They get an e-mail with a link to choose a password and finish signing up.</p>
        <form onSubmit={onSubmit(invite.run)} noValidate>
          <Field
            label="E-mail address"
            name="email"
            type="email"
            autocomplete="off"
            required
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
          {sent && <Notice>An invitation was sent to {sent}.</Notice>}
          <Button busy={invite.busy}>Send invitation</Button>
        </form>
      </section>
      <section class="panel" aria-labelledby="open-heading">
        <h2 id="open-heading">Open invitations</h2>
        {withdrawn && <Notice>The invitation to {withdrawn} was withdrawn.</Notice>}
        <Problem error={listError} />
        {!listError && users === null && <p class="muted">Loading…</p>}
        {users && invited.length === 0 && <p class="muted">No invitation is waiting for an answer.</p>}
        {invited.length > 0 && (
          <ScrollingTable label="Open invitations">
            <table>
              <TableHead columns={['E-mail address', 'Name', 'Invited']} actions />
              <tbody>
                {invited.map((user) => (
                  <tr key={user.id}>
                    <td>
                      <a href={`/console/users/${encodeURIComponent(user.id)}`}>{user.email}</a>
                    </td>
                    <td>
                      {displayName(user) === user.email ? <span class="muted">None given</span> : displayName(user)}
                    </td>
                    <td>
                      <When at={user.registeredAt} />
                    </td>
                    <td>
                      {mayActOn(caller, user) && (
                        <Confirm
                          label="Withdraw"
                          fullLabel={`Withdraw the invitation to ${user.email}`}
                          question={`Withdraw the invitation to ${user.email}? Its link stops working.`}
                          confirmLabel="Withdraw"
                          danger
                          onConfirm={async () => {
                            await reauth.run(() => client.admin.users.delete(user.id));
                            setWithdrawn(user.email);
                            reload();
                          }}
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollingTable>
        )}
      </section>
      {reauth.prompt}
    </ConsolePage>
  );
}
