import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { t } from '../i18n/index.ts';
import { when } from '../messages.ts';
import type { Session } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Notice, Problem, ScrollingTable, TableHead, useAction, useResource } from '../ui.tsx';
import { Section } from './section.tsx';

/**
 * What a session is, as the table names it: the app it was started for (an OpenID Connect client: its
 * browser is the app's server, not the user's), or the browser and system of this service's own pages.
 */
const deviceOf = (s: Session) =>
  s.clientName
    ? t('account.sessions.app', { app: s.clientName })
    : t('agent.browserOn', {
        browser: s.browser ?? t('account.sessions.unknownBrowser'),
        system: s.os ?? t('account.sessions.unknownSystem'),
      });

/** "The session on Firefox on Linux was signed out.", "Your sign-in to Shop app was signed out." */
const signedOutSentence = (s: Session) =>
  s.clientName
    ? t('account.sessions.appSignedOut', { app: s.clientName })
    : t('account.sessions.deviceSignedOut', { device: deviceOf(s) });

/** After "Sign out", for screen readers: which session, and when it was last active. */
const whichSession = (s: Session) => {
  const last = when(s.lastActivityAt);
  return s.clientName
    ? t('account.sessions.signOutApp', { app: s.clientName, when: last })
    : t('account.sessions.signOutDevice', { device: deviceOf(s), when: last });
};

/**
 * The user's live sessions (GET /users/me/sessions): device, address, last
 * activity; this browser's is the one the service marks `current`. One can be
 * signed out, or all of them, this one too, which leads to sign-in.
 */
export function SessionsSection(props: { onChanged(): void }) {
  const { client, setUser } = useSession();
  const { route } = useLocation();
  /** The session just signed out, said in a notice. */
  const [signedOut, setSignedOut] = useState<Session | null>(null);
  const [confirming, setConfirming] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);

  const list = useResource(() => client.me.sessions.list());
  const sessions = list.data;
  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);

  const revoke = useAction(async (session: Session) => {
    await client.me.sessions.revoke(session.id);
    setSignedOut(session);
    await list.reload();
    props.onChanged();
    heading.current?.focus();
  });
  const revokeAll = useAction(async () => {
    await client.me.sessions.revokeAll();
    setUser(null);
    route('/sign-in?expired=1');
  });

  return (
    <Section id="sessions" title={t('account.sessions.title')} headingRef={heading}>
      {signedOut && <Notice>{signedOutSentence(signedOut)}</Notice>}
      <Problem error={list.error ?? revoke.error ?? revokeAll.error} />
      {sessions === null && !list.error && <p class="muted">{t('account.sessions.loading')}</p>}
      {sessions && (
        <ScrollingTable label={t('account.sessions.table')}>
          <table>
            <caption class="visually-hidden">{t('account.sessions.caption')}</caption>
            <TableHead
              columns={[
                t('account.sessions.device'),
                t('account.sessions.ip'),
                t('account.sessions.lastActive'),
                t('account.sessions.signedIn'),
              ]}
              actions
            />
            <tbody>
              {[...sessions]
                .sort(
                  (a, b) => Number(b.current) - Number(a.current) || b.lastActivityAt.localeCompare(a.lastActivityAt),
                )
                .map((session) => (
                  <tr key={session.id}>
                    <td>
                      {deviceOf(session)}{' '}
                      {session.current && <span class="badge current">{t('account.sessions.thisDevice')}</span>}
                    </td>
                    <td>{session.ip}</td>
                    <td>
                      <time dateTime={session.lastActivityAt}>{when(session.lastActivityAt)}</time>
                    </td>
                    <td>
                      <time dateTime={session.createdAt}>{when(session.createdAt)}</time>
                    </td>
                    <td>
                      {!session.current && (
                        <button
                          type="button"
                          class="button secondary small"
                          disabled={revoke.busy}
                          onClick={() => revoke.run(session)}
                        >
                          {t('account.sessions.signOut')}
                          <span class="visually-hidden"> {whichSession(session)}</span>
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </ScrollingTable>
      )}
      {confirming ? (
        <fieldset class="confirm">
          <legend>{t('account.sessions.everywhereQuestion')}</legend>
          <p>{t('account.sessions.everywhereText')}</p>
          <div class="actions">
            <button
              ref={confirmButton}
              type="button"
              class="button danger"
              disabled={revokeAll.busy}
              onClick={() => revokeAll.run()}
            >
              {t('account.sessions.everywhereYes')}
            </button>
            <button type="button" class="button secondary" onClick={() => setConfirming(false)}>
              {t('account.cancel')}
            </button>
          </div>
        </fieldset>
      ) : (
        <p>
          <button type="button" class="button secondary" onClick={() => setConfirming(true)}>
            {t('account.sessions.everywhere')}
          </button>
        </p>
      )}
    </Section>
  );
}
