/** The brief's twelve kinds of activity, then ours: the values of ActivityResponse.type. */
export const ACTIVITY_TYPES = [
  'LOGIN',
  'LOGOUT',
  'LOGIN_FAILED',
  'PASSWORD_CHANGE',
  'EMAIL_CHANGE',
  'TOTP_ENABLED',
  'TOTP_DISABLED',
  'SESSION_REVOKED',
  'ROLE_ASSIGNED',
  'ROLE_REVOKED',
  'USER_DISABLED',
  'USER_ENABLED',
  'SIGNUP',
  'PASSWORD_RESET',
  'USER_COMPROMISED',
  'ACCOUNT_LOCKED',
  'REFRESH_TOKEN_REUSED',
  /** A refresh token used again within 10 s of its rotation was answered its successor (shared/auth/refresh.ts). */
  'REFRESH_TOKEN_GRACE',
  /** The session's first factor proven again (POST /auth/reauthenticate): what a guarded change then relied on. */
  'REAUTHENTICATED',
  'PASSKEY_ADDED',
  'PASSKEY_REMOVED',
  /**
   * A passkey kept on one device answered with a signature counter that did not move forward: a copy of its key
   * may exist. The sign-in was refused.
   */
  'PASSKEY_COUNTER_MISMATCH',
  /** A sign-in provider's account linked to the user (shared/sign-in-providers/), and one unlinked. */
  'IDENTITY_LINKED',
  'IDENTITY_UNLINKED',
  /** The user's names or phone changed (PATCH /users/me). */
  'PROFILE_UPDATED',
  /** An admin (or API key) invited the user: an INVITED account and its invitation mail (POST /users/invitations). */
  'INVITED',
] as const;

export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** How a LOGIN proved who the user is: a password, an e-mail code (signup's too), a passkey, or a sign-in provider. */
export const LOGIN_METHODS = ['PASSWORD', 'EMAIL_CODE', 'PASSKEY', 'PROVIDER'] as const;
export type LoginMethod = (typeof LOGIN_METHODS)[number];

/**
 * A session's RFC 8176 `amr` read as the LOGIN's method: its first factor (`pwd`, `otp`, a key, or `fed`: ours, not
 * in RFC 8176's registry, for a sign-in another identity provider vouched for).
 */
export function loginMethodOf(amr: readonly string[] | undefined): LoginMethod | undefined {
  const first = amr?.[0];
  if (first === 'pwd') return 'PASSWORD';
  if (first === 'otp') return 'EMAIL_CODE';
  if (first === 'hwk' || first === 'swk') return 'PASSKEY';
  if (first === 'fed') return 'PROVIDER';
  return undefined;
}
