import { useSession } from '../session.tsx';
import { AppLayout, RequireSignedIn } from '../shell.tsx';

// Being written (issue 17): profile, password, e-mail, TOTP, sessions, activity.
export function Account() {
  const { user } = useSession();
  return (
    <RequireSignedIn>
      <AppLayout title="Your account">
        <p>Signed in as {user?.email}</p>
      </AppLayout>
    </RequireSignedIn>
  );
}
