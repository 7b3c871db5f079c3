import { agentOf } from '../agent.ts';
import { when } from '../messages.ts';
import type { Activity, ActivityType } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Problem, useCursorPages } from '../ui.tsx';
import { Section } from './section.tsx';

const PAGE = 10;

/** Each kind of activity as the user would say it. */
const ACTIVITY_SENTENCES: Record<ActivityType, string> = {
  LOGIN: 'Signed in',
  LOGOUT: 'Signed out',
  LOGIN_FAILED: 'A sign-in failed',
  PASSWORD_CHANGE: 'Password changed',
  EMAIL_CHANGE: 'E-mail address changed',
  TOTP_ENABLED: 'Two-step verification turned on',
  TOTP_DISABLED: 'Two-step verification turned off',
  SESSION_REVOKED: 'A session was signed out',
  ROLE_ASSIGNED: 'A role was given',
  ROLE_REVOKED: 'A role was taken away',
  USER_DISABLED: 'Account disabled',
  USER_ENABLED: 'Account enabled',
  SIGNUP: 'Account created',
  PASSWORD_RESET: 'Password reset',
  USER_COMPROMISED: 'Account marked as compromised',
  ACCOUNT_LOCKED: 'Signing in locked after too many attempts',
  REFRESH_TOKEN_REUSED: 'A session was ended: it was used from two places',
  REFRESH_TOKEN_GRACE: 'A session was renewed twice at once',
  REAUTHENTICATED: 'Confirmed it was you',
};

/**
 * The user's own recent activity (GET /users/me/activity), newest first, ten
 * at a time with "Load more". `version` changes when the page made a change,
 * and the list is read again from the top.
 */
export function ActivitySection(props: { version: number }) {
  const { client, user } = useSession();
  const activity = useCursorPages((cursor) => client.me.activity({ limit: PAGE, cursor }), [props.version]);
  const items = activity.items;

  const by = (a: Activity) =>
    a.actorId === user?.id ? '' : a.actorId.startsWith('apikey:') ? ' (by an API key)' : ' (by an administrator)';

  return (
    <Section id="activity" title="Recent activity">
      <Problem error={activity.error} />
      {items === null && !activity.error && <p class="muted">Loading your activity…</p>}
      {items && items.length === 0 && <p>Nothing yet.</p>}
      {items && items.length > 0 && (
        <ol class="activity" aria-label="Your activity, newest first">
          {items.map((a, i) => (
            <li key={a.id} {...activity.focusTarget(i)}>
              <span class="what">
                {ACTIVITY_SENTENCES[a.type] ?? a.type}
                {by(a)}
              </span>
              <span class="muted">
                <time dateTime={a.at}>{when(a.at)}</time> · {agentOf(a.userAgent)} · {a.ip}
              </span>
            </li>
          ))}
        </ol>
      )}
      {activity.hasMore && (
        <button type="button" class="button secondary" disabled={activity.busy} onClick={activity.more}>
          Load more
        </button>
      )}
    </Section>
  );
}
