import type { HTMLAttributes, JSX } from 'preact';
import { browserAndSystem } from '../agent.ts';
import type { Activity, ActivityType } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Problem, ScrollingTable, TableHead, useCursorPages, useResource } from '../ui.tsx';
import { EmptyState, Loading, SkeletonRows } from './table-states.tsx';
import { When } from './users-shared.tsx';

const DEVICE_COLUMNS = ['Browser', 'System', 'First seen', 'Last seen', 'Sign-ins'];

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
      <h2 id="devices-heading">Devices</h2>
      {error ? (
        <>
          <Problem error={error} />
          <button type="button" class="button secondary" onClick={reload}>
            Try again
          </button>
        </>
      ) : devices?.length === 0 ? (
        <p class="muted">No device has signed in yet.</p>
      ) : (
        <ScrollingTable label="Devices" busy={devices === null}>
          {devices === null && <Loading>Loading the devices…</Loading>}
          <table>
            <TableHead columns={DEVICE_COLUMNS} />
            {devices === null && <SkeletonRows columns={DEVICE_COLUMNS.length} rows={2} />}
            <tbody>
              {devices?.map((device) => (
                <tr key={device.fingerprint}>
                  <td>{device.browser ?? <span class="muted">Unknown</span>}</td>
                  <td>{device.os ?? <span class="muted">Unknown</span>}</td>
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

const ACTIVITY_WORDS: Record<ActivityType, string> = {
  LOGIN: 'Signed in',
  LOGOUT: 'Signed out',
  LOGIN_FAILED: 'Failed sign-in',
  PASSWORD_CHANGE: 'Password changed',
  EMAIL_CHANGE: 'E-mail address changed',
  TOTP_ENABLED: 'Authenticator app set up',
  TOTP_DISABLED: 'Authenticator app removed',
  SESSION_REVOKED: 'Session ended',
  ROLE_ASSIGNED: 'Role assigned',
  ROLE_REVOKED: 'Role revoked',
  USER_DISABLED: 'Account disabled',
  USER_ENABLED: 'Account activated',
  SIGNUP: 'Signed up',
  PASSWORD_RESET: 'Password reset',
  USER_COMPROMISED: 'Marked as compromised',
  ACCOUNT_LOCKED: 'Locked after failed sign-ins',
  REFRESH_TOKEN_REUSED: 'Session ended: a token was used twice',
  REFRESH_TOKEN_GRACE: 'Session continued in another tab',
  REAUTHENTICATED: 'Confirmed it was them',
};

const ACTIVITY_COLUMNS = ['Activity', 'When', 'Browser', 'System', 'IP address', 'By'];

/** Entries asked for at a time. */
const ACTIVITY_PAGE = 20;

/** Who did it: the user, or an admin (whose browser and address the entry then shows). */
function actorOf(entry: Activity, userId: string): string {
  if (entry.actorId === userId) return 'The user';
  return entry.actorId.startsWith('apikey:') ? 'An API key' : 'An administrator';
}

/** A User-Agent the patterns do not know, shortened: better than "Unknown" for a script or a tool. */
function rawAgent(userAgent: string): JSX.Element {
  const trimmed = userAgent.trim();
  if (!trimmed) return <span class="muted">Unknown</span>;
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
      <h2 id="activity-heading">Activity</h2>
      {items?.length === 0 && (
        <EmptyState>No activity yet: signing in, changes of password or roles and the like show here.</EmptyState>
      )}
      {(loading || (items && items.length > 0)) && (
        <ScrollingTable label="Activity, newest first" busy={loading}>
          {loading && <Loading>Loading the activity…</Loading>}
          <table class="activity-table">
            <TableHead columns={ACTIVITY_COLUMNS} />
            {loading && <SkeletonRows columns={ACTIVITY_COLUMNS.length} />}
            <tbody>
              {items?.map((entry, index) => {
                const { browser, system } = browserAndSystem(entry.userAgent);
                // The first entry of a page just loaded takes the focus (a row, by the table's rules).
                const focus = activity.focusTarget(index) as HTMLAttributes<HTMLTableRowElement>;
                return (
                  <tr key={entry.id} {...focus}>
                    <td class="what">{ACTIVITY_WORDS[entry.type] ?? entry.type}</td>
                    <td class="nowrap">
                      <When at={entry.at} />
                    </td>
                    <td class="nowrap">{browser ?? rawAgent(entry.userAgent)}</td>
                    <td class="nowrap">{system ?? <span class="muted">Unknown</span>}</td>
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
          `${items.length} ${items.length === 1 ? 'entry' : 'entries'} shown${activity.hasMore ? '' : ', the whole history'}.`}
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
          {items === null ? 'Try again' : 'Load more'}
        </button>
      )}
    </section>
  );
}
