import { useRef, useState } from 'preact/hooks';
import { t } from '../i18n/index.ts';
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
    <ConsolePage title={t('invitations.title')}>
      <section class="panel" aria-labelledby="invite-heading">
        <h2 id="invite-heading">{t('invitations.inviteSomeone')}</h2>
        <p class="muted">{t('invitations.what')}</p>
        <InviteForm
          emailRef={emailField}
          onSending={() => setSent(null)}
          onInvited={(email) => {
            setSent(email);
            reload();
          }}
        >
          {sent && <Notice>{t('invitations.sent', { email: sent })}</Notice>}
        </InviteForm>
      </section>
      <section class="panel" aria-labelledby="open-heading">
        <h2 id="open-heading">{t('invitations.open')}</h2>
        {withdrawn && <Notice>{t('invitations.withdrawn', { email: withdrawn })}</Notice>}
        <Problem error={listError} />
        {users && invited.length === 0 && (
          <EmptyState
            action={
              <button type="button" class="button secondary" onClick={() => emailField.current?.focus()}>
                {t('invitations.inviteSomeone')}
              </button>
            }
          >
            {t('invitations.none')}
          </EmptyState>
        )}
        {!listError && users === null && <Loading>{t('invitations.loading')}</Loading>}
        {(users === null ? !listError : invited.length > 0) && (
          <ScrollingTable label={t('invitations.open')} busy={users === null}>
            <table>
              <TableHead
                columns={[t('invitations.email'), t('invitations.column.name'), t('invitations.column.invited')]}
                actions
              />
              {users === null && <SkeletonRows columns={4} rows={3} />}
              <tbody>
                {invited.map((user) => (
                  <tr key={user.id}>
                    <td>
                      <a href={`/console/users/${encodeURIComponent(user.id)}`}>{user.email}</a>
                    </td>
                    <td>
                      {displayName(user) === user.email ? (
                        <span class="muted">{t('consoleCommon.noneGiven')}</span>
                      ) : (
                        displayName(user)
                      )}
                    </td>
                    <td>
                      <When at={user.registeredAt} />
                    </td>
                    <td>
                      {mayActOn(caller, user) && (
                        <Confirm
                          label={t('invitations.withdraw')}
                          fullLabel={t('invitations.withdrawFull', { email: user.email })}
                          question={t('invitations.withdrawQuestion', { email: user.email })}
                          confirmLabel={t('invitations.withdraw')}
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
