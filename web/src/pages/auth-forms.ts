import { useEffect } from 'preact/hooks';
import { ApiError, type FieldError, formSchemas, validateForm } from '../sdk.ts';

/**
 * What the sign-up and recovery pages share: whether a failure is said at
 * the fields, the form's own check, and the password reset challenge that
 * the forgot page hands to the reset page.
 */

/** Whether every problem of `error` is said at a field of the form (so the alert need not repeat it). */
export function saidAtFields(error: unknown, labels: Record<string, string>): boolean {
  return (
    error instanceof ApiError &&
    (error.code === 'VALIDATION_FAILED' || error.code === 'PASSWORD_TOO_COMMON') &&
    error.errors.length > 0 &&
    error.errors.every((e) => e.path in labels)
  );
}

/**
 * The form's own check before anything is sent: required fields and the
 * password rules (the SDK's copy of the service's). Field errors in the
 * shape of a 400's, or none.
 */
export function checkForm(
  values: Record<string, string>,
  rules: { required?: string[]; newPassword?: string; email?: string },
): FieldError[] {
  const errors: FieldError[] = [];
  for (const path of rules.required ?? []) {
    if (!values[path]?.trim()) errors.push({ path, message: 'is required' });
  }
  const email = rules.email ? values[rules.email]?.trim() : undefined;
  if (rules.email && email) {
    const checked = validateForm(formSchemas.email, email);
    if (!checked.success) errors.push({ path: rules.email, message: checked.errors[0]?.message ?? 'is not valid' });
  }
  const password = rules.newPassword ? values[rules.newPassword] : undefined;
  if (rules.newPassword && password) {
    const checked = validateForm(formSchemas.newPassword, password);
    if (!checked.success)
      errors.push({ path: rules.newPassword, message: checked.errors[0]?.message ?? 'is not valid' });
  }
  return errors;
}

const RESET_KEY = 'identity:password-reset';
/** A reset code works for 10 minutes, as every e-mail code. */
const RESET_LIFETIME_MS = 10 * 60 * 1000;

/**
 * The reset challenge of an address, kept in this browser's local storage
 * (shared by its tabs, so the link in the mail opened in a new tab finds it).
 * Only the challenge id: useless without the code the mail carries.
 */
export function rememberReset(email: string, challengeId: string): void {
  try {
    localStorage.setItem(
      RESET_KEY,
      JSON.stringify({ email: email.trim().toLowerCase(), challengeId, until: Date.now() + RESET_LIFETIME_MS }),
    );
  } catch {
    // Storage refused (a private window): the reset page asks for a new code instead.
  }
}

export function recallReset(email: string): string | undefined {
  try {
    const kept = JSON.parse(localStorage.getItem(RESET_KEY) ?? 'null') as {
      email?: unknown;
      challengeId?: unknown;
      until?: unknown;
    } | null;
    if (
      kept &&
      kept.email === email.trim().toLowerCase() &&
      typeof kept.challengeId === 'string' &&
      typeof kept.until === 'number' &&
      kept.until > Date.now()
    ) {
      return kept.challengeId;
    }
  } catch {
    // Nothing usable kept.
  }
  return undefined;
}

export function forgetReset(): void {
  try {
    localStorage.removeItem(RESET_KEY);
  } catch {
    // Nothing to forget.
  }
}

/**
 * After a failure said at the fields, focus moves to the first field with a
 * problem, so keyboard and screen reader users land on what to fix (its
 * problem is read with it).
 */
export function useFocusFirstProblem(error: unknown): void {
  useEffect(() => {
    if (error) document.querySelector<HTMLInputElement>('main [aria-invalid="true"]')?.focus();
  }, [error]);
}
