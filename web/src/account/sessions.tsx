import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
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
    ? `${s.clientName} (an app you signed in to with this account)`
    : `${s.browser ?? 'Unknown browser'} on ${s.os ?? 'an unknown system'}`;

/** "the session on Firefox on Linux", "your sign-in to Shop app": what was signed out. */
const whichSession = (s: Session) =>
  s.clientName ? `your sign-in to ${s.clientName}` : `the session on ${deviceOf(s)}`;

/**
 * The user's live sessions (GET /users/me/sessions): device, address, last
 * activity; this browser's is the one the service marks `current`. One can be
 * signed out, or all of them, this one too, which leads to sign-in.
 */
export function SessionsSection(props: { onChanged(): void }) {
  const { client, setUser } = useSession();
  const { route } = useLocation();
  /** The sentence saying which session was just signed out. */
  const [signedOut, setSignedOut] = useState<string | null>(null);
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
    setSignedOut(whichSession(session));
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
    <Section id="sessions" title="Where you are signed in" headingRef={heading}>
      {signedOut && <Notice>{`${signedOut.charAt(0).toUpperCase()}${signedOut.slice(1)} was signed out.`}</Notice>}
      <Problem error={list.error ?? revoke.error ?? revokeAll.error} />
      {sessions === null && !list.error && <p class="muted">Loading your sessions…</p>}
      {sessions && (
        <ScrollingTable label="Your sessions">
          <table>
            <caption class="visually-hidden">Your signed-in sessions, the most recently active first</caption>
            <TableHead columns={['Device', 'IP address', 'Last active', 'Signed in']} actions />
            <tbody>
              {[...sessions]
                .sort(
                  (a, b) => Number(b.current) - Number(a.current) || b.lastActivityAt.localeCompare(a.lastActivityAt),
                )
                .map((session) => (
                  <tr key={session.id}>
                    <td>
                      {deviceOf(session)} {session.current && <span class="badge current">This device</span>}
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
                          Sign out
                          <span class="visually-hidden">
                            {' '}
                            {whichSession(session)}, last active {when(session.lastActivityAt)}
                          </span>
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
          <legend>Sign out everywhere?</legend>
          <p>Every session of your account ends, this one too: you will sign in again here.</p>
          <div class="actions">
            <button
              ref={confirmButton}
              type="button"
              class="button danger"
              disabled={revokeAll.busy}
              onClick={() => revokeAll.run()}
            >
              Yes, sign out everywhere
            </button>
            <button type="button" class="button secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </fieldset>
      ) : (
        <p>
          <button type="button" class="button secondary" onClick={() => setConfirming(true)}>
            Sign out everywhere…
          </button>
        </p>
      )}
    </Section>
  );
}
