import type { ActivityType } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Problem, ScrollingTable, TableHead, useCursorPages, useResource } from '../ui.tsx';
import { When } from './users-shared.tsx';

/** A user's devices (GET /users/{id}/devices), as a table. */
export function UserDevices(props: { userId: string }) {
  const { client } = useSession();
  const { data: devices, error } = useResource(() => client.admin.users.devices(props.userId), [client, props.userId]);
  return (
    <section class="panel" aria-labelledby="devices-heading">
      <h2 id="devices-heading">Devices</h2>
      <Problem error={error} />
      {!error && devices === null && <p class="muted">Loading…</p>}
      {devices?.length === 0 && <p class="muted">No device has signed in yet.</p>}
      {devices && devices.length > 0 && (
        <ScrollingTable label="Devices">
          <table>
            <TableHead columns={['Browser', 'System', 'First seen', 'Last seen', 'Sign-ins']} />
            <tbody>
              {devices.map((device) => (
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

/** Entries asked for at a time. */
const ACTIVITY_PAGE = 20;

/** A user's activity, newest first, 20 at a time with "Load more" following the service's cursor. */
export function UserActivity(props: { userId: string }) {
  const { client } = useSession();
  const activity = useCursorPages(
    (cursor) => client.admin.users.activity(props.userId, { limit: ACTIVITY_PAGE, cursor }),
    [props.userId],
  );
  const items = activity.items;

  return (
    <section class="panel" aria-labelledby="activity-heading">
      <h2 id="activity-heading">Activity</h2>
      {items?.length === 0 && <p class="muted">No activity yet.</p>}
      {items && items.length > 0 && (
        <ol class="timeline" aria-label="Activity, newest first">
          {items.map((entry, index) => (
            <li key={entry.id} {...activity.focusTarget(index)}>
              <span class="what">{ACTIVITY_WORDS[entry.type] ?? entry.type}</span> <When at={entry.at} />
              <br />
              <span class="muted small">
                {entry.ip}
                {entry.userAgent ? ` · ${entry.userAgent}` : ''}
                {entry.actorId !== props.userId &&
                  ` · by ${entry.actorId.startsWith('apikey:') ? 'an API key' : 'an administrator'}`}
              </span>
            </li>
          ))}
        </ol>
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
