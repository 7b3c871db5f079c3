import { agentOf } from '../agent.ts';
import { type TextKey, t } from '../i18n/index.ts';
import { when } from '../messages.ts';
import type { Activity, ActivityType } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Problem, useCursorPages } from '../ui.tsx';
import { Section } from './section.tsx';

const PAGE = 10;

/** Each kind of activity as the user would say it. */
const ACTIVITY_SENTENCES: Record<ActivityType, TextKey> = {
  LOGIN: 'account.activity.LOGIN',
  LOGOUT: 'account.activity.LOGOUT',
  LOGIN_FAILED: 'account.activity.LOGIN_FAILED',
  PASSWORD_CHANGE: 'account.activity.PASSWORD_CHANGE',
  EMAIL_CHANGE: 'account.activity.EMAIL_CHANGE',
  TOTP_ENABLED: 'account.activity.TOTP_ENABLED',
  TOTP_DISABLED: 'account.activity.TOTP_DISABLED',
  SESSION_REVOKED: 'account.activity.SESSION_REVOKED',
  ROLE_ASSIGNED: 'account.activity.ROLE_ASSIGNED',
  ROLE_REVOKED: 'account.activity.ROLE_REVOKED',
  USER_DISABLED: 'account.activity.USER_DISABLED',
  USER_ENABLED: 'account.activity.USER_ENABLED',
  SIGNUP: 'account.activity.SIGNUP',
  PASSWORD_RESET: 'account.activity.PASSWORD_RESET',
  USER_COMPROMISED: 'account.activity.USER_COMPROMISED',
  ACCOUNT_LOCKED: 'account.activity.ACCOUNT_LOCKED',
  REFRESH_TOKEN_REUSED: 'account.activity.REFRESH_TOKEN_REUSED',
  REFRESH_TOKEN_GRACE: 'account.activity.REFRESH_TOKEN_GRACE',
  REAUTHENTICATED: 'account.activity.REAUTHENTICATED',
  PASSKEY_ADDED: 'account.activity.PASSKEY_ADDED',
  PASSKEY_REMOVED: 'account.activity.PASSKEY_REMOVED',
  PASSKEY_COUNTER_MISMATCH: 'account.activity.PASSKEY_COUNTER_MISMATCH',
  IDENTITY_LINKED: 'account.activity.IDENTITY_LINKED',
  IDENTITY_UNLINKED: 'account.activity.IDENTITY_UNLINKED',
  PROFILE_UPDATED: 'account.activity.PROFILE_UPDATED',
  INVITED: 'account.activity.INVITED',
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

  /** What happened, and who did it when it was not the user. */
  const said = (a: Activity) => {
    // A sign-in with a passkey or a provider says so (a password or code sign-in is the plain "Signed in").
    const what =
      a.type === 'LOGIN' && a.method === 'PASSKEY'
        ? t('account.activity.LOGIN_PASSKEY')
        : a.type === 'LOGIN' && a.method === 'PROVIDER'
          ? t('account.activity.LOGIN_PROVIDER')
          : ACTIVITY_SENTENCES[a.type]
            ? t(ACTIVITY_SENTENCES[a.type])
            : a.type;
    if (a.actorId === user?.id) return what;
    return t(a.actorId.startsWith('apikey:') ? 'account.activity.byApiKey' : 'account.activity.byAdmin', { what });
  };

  return (
    <Section id="activity" title={t('account.activity.title')}>
      <Problem error={activity.error} />
      {items === null && !activity.error && <p class="muted">{t('account.activity.loading')}</p>}
      {items && items.length === 0 && <p>{t('account.activity.none')}</p>}
      {items && items.length > 0 && (
        <ol class="activity" aria-label={t('account.activity.list')}>
          {items.map((a, i) => (
            <li key={a.id} {...activity.focusTarget(i)}>
              <span class="what">{said(a)}</span>
              <span class="muted">
                <time dateTime={a.at}>{when(a.at)}</time> · {agentOf(a.userAgent)} · {a.ip}
              </span>
            </li>
          ))}
        </ol>
      )}
      {activity.hasMore && (
        <button type="button" class="button secondary" disabled={activity.busy} onClick={activity.more}>
          {t('account.activity.more')}
        </button>
      )}
    </Section>
  );
}
