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
] as const;

export type ActivityType = (typeof ACTIVITY_TYPES)[number];
