import { useState } from 'preact/hooks';
import { type TextKey, t } from '../i18n/index.ts';
import { useReauthenticated } from '../reauth.tsx';
import type { AdminUser, Passkey } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Notice, Problem, ScrollingTable, TableHead, useResource } from '../ui.tsx';
import { Confirm } from './confirm.tsx';
import { Loading, SkeletonRows } from './table-states.tsx';
import { adminSentences, displayName, useSectionHeading, When } from './users-shared.tsx';

/** Where a passkey lives: synced by its provider to the user's other devices, or bound to one authenticator. */
const KIND_WORDS: Record<Passkey['deviceType'], TextKey> = {
  multiDevice: 'user.passkeys.synced',
  singleDevice: 'user.passkeys.oneDevice',
};

const passkeyColumns = () => [
  t('user.passkeys.name'),
  t('user.passkeys.added'),
  t('user.passkeys.lastUsed'),
  t('user.passkeys.kind'),
];

/**
 * A user's passkeys (GET /users/{id}/passkeys), and "Remove" for each to whoever may act on the user: a lost phone's
 * passkey stops signing in at once. Removing needs a recent sign-in, as the page's other guarded changes do.
 */
export function UserPasskeys(props: { user: AdminUser; mayAct: boolean; onChange(user: AdminUser): void }) {
  const { client, tenant } = useSession();
  const { user } = props;
  const {
    data: passkeys,
    error,
    reload,
    setData: setPasskeys,
  } = useResource(() => client.admin.users.passkeys(user.id), [client, user.id]);
  const [done, setDone] = useState<string | null>(null);
  const heading = useSectionHeading();
  const reauth = useReauthenticated();
  const actions = props.mayAct;

  return (
    <section class="panel" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading" tabIndex={-1} ref={heading.ref}>
        {t('user.passkeys.title')}
      </h2>
      {done && <Notice>{done}</Notice>}
      {/* Kept while the tenant has them off (they come back when turned on), but none of them signs in meanwhile. */}
      {!tenant.passkeysAllowed && (
        <p class="warning" role="note">
          {t('user.passkeys.off')}
        </p>
      )}
      {error ? (
        <>
          <Problem error={error} overrides={adminSentences()} />
          <button type="button" class="button secondary" onClick={reload}>
            {t('boot.tryAgain')}
          </button>
        </>
      ) : passkeys?.length === 0 ? (
        <p class="muted">{t('user.passkeys.none')}</p>
      ) : (
        <ScrollingTable label={t('user.passkeys.table')} busy={passkeys === null}>
          {passkeys === null && <Loading>{t('user.passkeys.loading')}</Loading>}
          <table>
            <TableHead columns={passkeyColumns()} actions={actions} />
            {passkeys === null && <SkeletonRows columns={actions ? 5 : 4} rows={1} />}
            <tbody>
              {passkeys?.map((passkey) => (
                <tr key={passkey.id}>
                  <td>{passkey.name}</td>
                  <td>
                    <When at={passkey.createdAt} />
                  </td>
                  <td>
                    <When at={passkey.lastUsedAt} />
                  </td>
                  <td>{t(KIND_WORDS[passkey.deviceType])}</td>
                  {actions && (
                    <td>
                      <Confirm
                        label={t('user.passkeys.remove')}
                        fullLabel={t('user.passkeys.removeFull', { passkey: passkey.name })}
                        question={t('user.passkeys.question', { passkey: passkey.name, name: displayName(user) })}
                        confirmLabel={t('user.passkeys.remove')}
                        danger
                        overrides={{ ...adminSentences(), NOT_FOUND: t('user.passkeys.gone') }}
                        onConfirm={async () => {
                          await reauth.run(() => client.admin.users.removePasskey(user.id, passkey.id));
                          setPasskeys((current) => (current ?? []).filter((p) => p.id !== passkey.id));
                          // The count in the profile and the activity follow.
                          props.onChange(await client.admin.users.get(user.id));
                          setDone(t('user.passkeys.removed', { passkey: passkey.name }));
                          heading.focus();
                        }}
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      )}
      {reauth.prompt}
    </section>
  );
}
