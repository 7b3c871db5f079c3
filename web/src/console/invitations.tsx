import { useRef, useState } from 'preact/hooks';
import { useReauthenticated } from '../reauth.tsx';
import { mayActOn } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Notice, Problem, ScrollingTable, TableHead } from '../ui.tsx';
import { Confirm } from './confirm.tsx';
import { InviteForm } from './invite-form.tsx';
import { ConsolePage } from './layout.tsx';
import { EmptyState, Loading, SkeletonRows } from './table-states.tsx';
import { useAllUsers } from './users.tsx';
import { displayName, When } from './users-shared.tsx';

/**
 * `/console/invitations`: invite someone by e-mail (the mail carries a link to finish signing up), and the
 * invitations still open: the users whose status is INVITED (there is no separate list).
 */
export function Invitations() {
  const { client, user: caller } = useSession();
  const { users, error: listError, reload } = useAllUsers();
  const [sent, setSent] = useState<string | null>(null);
  const [withdrawn, setWithdrawn] = useState<string | null>(null);
  // Withdrawing deletes the invited user: a sign-in younger than 10 minutes, as every deletion.
  const reauth = useReauthenticated();
  const invited = (users ?? []).filter((user) => user.status === 'INVITED');
  const emailField = useRef<HTMLInputElement>(null);

  return (
    <ConsolePage title="Invitations">
      <section class="panel" aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite someone</h2>
        <p class="muted">They get an e-mail with a link to choose a password and finish signing up.</p>
        <InviteForm
          emailRef={emailField}
          onSending={() => setSent(null)}
          onInvited={(email) => {
            setSent(email);
            reload();
          }}
        >
          {sent && <Notice>An invitation was sent to {sent}.</Notice>}
        </InviteForm>
      </section>
      <section class="panel" aria-labelledby="open-heading">
        <h2 id="open-heading">Open invitations</h2>
        {withdrawn && <Notice>The invitation to {withdrawn} was withdrawn.</Notice>}
        <Problem error={listError} />
        {users && invited.length === 0 && (
          <EmptyState
            action={
              <button type="button" class="button secondary" onClick={() => emailField.current?.focus()}>
                Invite someone
              </button>
            }
          >
            No invitation is waiting for an answer.
          </EmptyState>
        )}
        {!listError && users === null && <Loading>Loading the invitations…</Loading>}
        {(users === null ? !listError : invited.length > 0) && (
          <ScrollingTable label="Open invitations" busy={users === null}>
            <table>
              <TableHead columns={['E-mail address', 'Name', 'Invited']} actions />
              {users === null && <SkeletonRows columns={4} rows={3} />}
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
