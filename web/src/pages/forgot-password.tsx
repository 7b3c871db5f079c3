import { AuthLayout } from '../ui.tsx';

// Being written (issue 17): the form of this page.
export function ForgotPassword() {
  return <AuthLayout title="Forgot your password">{null}</AuthLayout>;
}
