import type { HTMLAttributes, JSX } from 'preact';
import { browserAndSystem } from '../agent.ts';
import { type TextKey, t, tn } from '../i18n/index.ts';
import type { Activity, ActivityType } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Problem, ScrollingTable, TableHead, useCursorPages, useResource } from '../ui.tsx';
import { EmptyState, Loading, SkeletonRows } from './table-states.tsx';
import { When } from './users-shared.tsx';

const deviceColumns = () => [
  t('user.devices.browser'),
  t('user.devices.system'),
  t('user.devices.firstSeen'),
  t('user.devices.lastSeen'),
  t('user.devices.signIns'),
];

/** A user's devices (GET /users/{id}/devices), as a table; the service names browser and system, with versions. */
export function UserDevices(props: { userId: string }) {
  const { client } = useSession();
  const {
    data: devices,
    error,
    reload,
  } = useResource(() => client.admin.users.devices(props.userId), [client, props.userId]);
  return (
    <section class="panel" aria-labelledby="devices-heading">
      <h2 id="devices-heading">{t('user.devices.title')}</h2>
      {error ? (
        <>
          <Problem error={error} />
          <button type="button" class="button secondary" onClick={reload}>
            {t('boot.tryAgain')}
          </button>
        </>
      ) : devices?.length === 0 ? (
        <p class="muted">{t('user.devices.none')}</p>
      ) : (
        <ScrollingTable label={t('user.devices.title')} busy={devices === null}>
          {devices === null && <Loading>{t('user.devices.loading')}</Loading>}
          <table>
            <TableHead columns={deviceColumns()} />
            {devices === null && <SkeletonRows columns={5} rows={2} />}
            <tbody>
              {devices?.map((device) => (
                <tr key={device.fingerprint}>
                  <td>{device.browser ?? <span class="muted">{t('user.unknown')}</span>}</td>
                  <td>{device.os ?? <span class="muted">{t('user.unknown')}</span>}</td>
                  <td>
                    <When at={device.firstSeenAt} />
                  </td>
                  <td>
                    <When at={device.lastSeenAt} />
                  </td>
                  <td>{device.seenCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      )}
    </section>
  );
}

const ACTIVITY_WORDS: Record<ActivityType, TextKey> = {
  LOGIN: 'user.activity.LOGIN',
  LOGOUT: 'user.activity.LOGOUT',
  LOGIN_FAILED: 'user.activity.LOGIN_FAILED',
  PASSWORD_CHANGE: 'user.activity.PASSWORD_CHANGE',
  EMAIL_CHANGE: 'user.activity.EMAIL_CHANGE',
  TOTP_ENABLED: 'user.activity.TOTP_ENABLED',
  TOTP_DISABLED: 'user.activity.TOTP_DISABLED',
  SESSION_REVOKED: 'user.activity.SESSION_REVOKED',
  ROLE_ASSIGNED: 'user.activity.ROLE_ASSIGNED',
  ROLE_REVOKED: 'user.activity.ROLE_REVOKED',
  USER_DISABLED: 'user.activity.USER_DISABLED',
  USER_ENABLED: 'user.activity.USER_ENABLED',
  SIGNUP: 'user.activity.SIGNUP',
  PASSWORD_RESET: 'user.activity.PASSWORD_RESET',
  USER_COMPROMISED: 'user.activity.USER_COMPROMISED',
  ACCOUNT_LOCKED: 'user.activity.ACCOUNT_LOCKED',
  REFRESH_TOKEN_REUSED: 'user.activity.REFRESH_TOKEN_REUSED',
  REFRESH_TOKEN_GRACE: 'user.activity.REFRESH_TOKEN_GRACE',
  REAUTHENTICATED: 'user.activity.REAUTHENTICATED',
  PASSKEY_ADDED: 'user.activity.PASSKEY_ADDED',
  PASSKEY_REMOVED: 'user.activity.PASSKEY_REMOVED',
  PASSKEY_COUNTER_MISMATCH: 'user.activity.PASSKEY_COUNTER_MISMATCH',
  IDENTITY_LINKED: 'user.activity.IDENTITY_LINKED',
  IDENTITY_UNLINKED: 'user.activity.IDENTITY_UNLINKED',
  PROFILE_UPDATED: 'user.activity.PROFILE_UPDATED',
  INVITED: 'user.activity.INVITED',
};

/** How a sign-in was made, where the entry says (those recorded before the method was kept do not). */
const LOGIN_METHOD_WORDS: Record<NonNullable<Activity['method']>, TextKey> = {
  PASSWORD: 'user.activity.loginWith.PASSWORD',
  EMAIL_CODE: 'user.activity.loginWith.EMAIL_CODE',
  PASSKEY: 'user.activity.loginWith.PASSKEY',
  PROVIDER: 'user.activity.loginWith.PROVIDER',
};

function activityWords(entry: Activity): string {
  const method = entry.type === 'LOGIN' && entry.method ? LOGIN_METHOD_WORDS[entry.method] : undefined;
  if (method) return t(method);
  return ACTIVITY_WORDS[entry.type] ? t(ACTIVITY_WORDS[entry.type]) : entry.type;
}

const activityColumns = () => [
  t('user.activity.what'),
  t('user.activity.when'),
  t('user.devices.browser'),
  t('user.devices.system'),
  t('user.activity.ip'),
  t('user.activity.by'),
];

/** Entries asked for at a time. */
const ACTIVITY_PAGE = 20;

/** Who did it: the user, or an admin (whose browser and address the entry then shows). */
function actorOf(entry: Activity, userId: string): string {
  if (entry.actorId === userId) return t('user.activity.byUser');
  return t(entry.actorId.startsWith('apikey:') ? 'user.activity.byApiKey' : 'user.activity.byAdmin');
}

/** A User-Agent the patterns do not know, shortened: better than "Unknown" for a script or a tool. */
function rawAgent(userAgent: string): JSX.Element {
  const trimmed = userAgent.trim();
  if (!trimmed) return <span class="muted">{t('user.unknown')}</span>;
  return <span class="muted small">{trimmed.length > 40 ? `${trimmed.slice(0, 39)}…` : trimmed}</span>;
}

/**
 * A user's activity, newest first, as a compact table: what, when, the browser and system named from the entry's
 * User-Agent (as the account page names them: the entries keep the raw string), the IP address and who acted; 20 at
 * a time with "Load more" following the service's cursor.
 */
export function UserActivity(props: { userId: string }) {
  const { client } = useSession();
  const activity = useCursorPages(
    (cursor) => client.admin.users.activity(props.userId, { limit: ACTIVITY_PAGE, cursor }),
    [props.userId],
  );
  const items = activity.items;
  const loading = items === null && !activity.error;

  return (
    <section class="panel" aria-labelledby="activity-heading">
      <h2 id="activity-heading">{t('user.activity.title')}</h2>
      {items?.length === 0 && <EmptyState>{t('user.activity.none')}</EmptyState>}
      {(loading || (items && items.length > 0)) && (
        <ScrollingTable label={t('user.activity.table')} busy={loading}>
          {loading && <Loading>{t('user.activity.loading')}</Loading>}
          <table class="activity-table">
            <TableHead columns={activityColumns()} />
            {loading && <SkeletonRows columns={6} />}
            <tbody>
              {items?.map((entry, index) => {
                const { browser, system } = browserAndSystem(entry.userAgent);
                // The first entry of a page just loaded takes the focus (a row, by the table's rules).
                const focus = activity.focusTarget(index) as HTMLAttributes<HTMLTableRowElement>;
                return (
                  <tr key={entry.id} {...focus}>
                    <td class="what">{activityWords(entry)}</td>
                    <td class="nowrap">
                      <When at={entry.at} />
                    </td>
                    <td class="nowrap">{browser ?? rawAgent(entry.userAgent)}</td>
                    <td class="nowrap">{system ?? <span class="muted">{t('user.unknown')}</span>}</td>
                    <td class="nowrap">{entry.ip}</td>
                    <td>{actorOf(entry, props.userId)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollingTable>
      )}
      <p class="muted" role="status">
        {items &&
          items.length > 0 &&
          tn(activity.hasMore ? 'user.activity.shown' : 'user.activity.shownAll', items.length)}
      </p>
      <Problem error={activity.error} />
      {(activity.hasMore || activity.error) && (
        <button
          type="button"
          class="button secondary"
          aria-busy={activity.busy}
          disabled={activity.busy}
          onClick={activity.more}
        >
          {items === null ? t('boot.tryAgain') : t('user.activity.more')}
        </button>
      )}
    </section>
  );
}
