import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { t, tx } from '../i18n/index.ts';
import { ApiError } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { AuthLayout, Problem } from '../ui.tsx';

/**
 * `/sign-out?logout=<id>`: the end of an OpenID Connect client's logout (shared/oidc/README.md, Logout).
 * This browser signs out of the hosted pages too, then goes back to the client's post-logout address when it
 * gave one; otherwise (or when the logout is unknown or used) the page says the user is signed out.
 */
export function SignOut() {
  const { client, user, setUser } = useSession();
  const { query } = useLocation();
  const [stage, setStage] = useState<{ kind: 'working' } | { kind: 'returning'; to: string } | { kind: 'done' }>({
    kind: 'working',
  });
  const [error, setError] = useState<unknown>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    (async () => {
      // Never rejects: the local session ends whatever the service answers.
      if (user) {
        await client.logout();
        setUser(null);
      }
      const logoutId = query.logout;
      if (logoutId) {
        try {
          const { redirectTo } = await client.oidc.completeLogout(logoutId);
          if (redirectTo) {
            setStage({ kind: 'returning', to: redirectTo });
            location.assign(redirectTo);
            return;
          }
        } catch (failure) {
          // An unknown, used or malformed logout: nowhere to go back to, and the user is signed out all the same.
          const gone = failure instanceof ApiError && (failure.status === 404 || failure.code === 'VALIDATION_FAILED');
          if (!gone) setError(failure);
        }
      }
      setStage({ kind: 'done' });
    })();
  }, []);

  if (stage.kind === 'working') {
    return (
      <AuthLayout title={t('signOut.working')}>
        <p role="status">{t('authorize.oneMoment')}</p>
      </AuthLayout>
    );
  }
  if (stage.kind === 'returning') {
    return (
      <AuthLayout title={t('signOut.returningTitle')}>
        <p role="status">{tx('signOut.returning', { link: <a href={stage.to}>{t('signOut.continue')}</a> })}</p>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={t('signOut.title')}>
      <p role="status">{t('signOut.done')}</p>
      <Problem error={error} />
      <p>
        <a href="/sign-in">{t('signOut.signInAgain')}</a>
      </p>
    </AuthLayout>
  );
}
