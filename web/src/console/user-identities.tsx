import { t } from '../i18n/index.ts';
import { useSession } from '../session.tsx';
import { Problem, ScrollingTable, TableHead, useResource } from '../ui.tsx';
import { Loading, SkeletonRows } from './table-states.tsx';
import { adminSentences, When } from './users-shared.tsx';

const identityColumns = () => [
  t('user.identities.provider'),
  t('user.identities.email'),
  t('user.identities.linked'),
  t('user.identities.lastUsed'),
];

/**
 * The provider accounts a user has linked (GET /users/{id}/identities): which provider, the address it gave, when
 * linked and last used. Read only: the user links and unlinks them from their account.
 */
export function UserIdentities(props: { userId: string }) {
  const { client } = useSession();
  const {
    data: identities,
    error,
    reload,
  } = useResource(() => client.admin.users.identities(props.userId), [client, props.userId]);
  return (
    <section class="panel" aria-labelledby="identities-heading">
      <h2 id="identities-heading">{t('user.identities.title')}</h2>
      {error ? (
        <>
          <Problem error={error} overrides={adminSentences()} />
          <button type="button" class="button secondary" onClick={reload}>
            {t('boot.tryAgain')}
          </button>
        </>
      ) : identities?.length === 0 ? (
        <p class="muted">{t('user.identities.none')}</p>
      ) : (
        <ScrollingTable label={t('user.identities.table')} busy={identities === null}>
          {identities === null && <Loading>{t('user.identities.loading')}</Loading>}
          <table>
            <TableHead columns={identityColumns()} />
            {identities === null && <SkeletonRows columns={4} rows={1} />}
            <tbody>
              {identities?.map((identity) => (
                <tr key={identity.providerId}>
                  <td>{identity.displayName ?? <span class="muted">{t('user.identities.deletedProvider')}</span>}</td>
                  <td>{identity.email ?? <span class="muted">{t('consoleCommon.noneGiven')}</span>}</td>
                  <td>
                    <When at={identity.linkedAt} />
                  </td>
                  <td>
                    <When at={identity.lastUsedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      )}
    </section>
  );
}
