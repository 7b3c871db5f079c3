import { AuthLayout } from '../ui.tsx';

// Being written (issue 17): the form of this page.
export function SignUp() {
  return <AuthLayout title="Create an account">{null}</AuthLayout>;
}
