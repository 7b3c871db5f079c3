import { AuthLayout } from '../ui.tsx';

// Being written (issue 17): the form of this page.
export function ResetPassword() {
  return <AuthLayout title="Choose a new password">{null}</AuthLayout>;
}
