import { AppLayout, RequireConsole } from '../shell.tsx';

// Being written (issue 17): users, a user, invitations, roles, settings, API keys.
export function Console() {
  return (
    <RequireConsole>
      <AppLayout title="Console">{null}</AppLayout>
    </RequireConsole>
  );
}
