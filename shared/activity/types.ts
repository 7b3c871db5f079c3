/** The brief's twelve kinds of activity, then ours (CONTRACT.md, Details): the values of ActivityResponse.type. */
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
] as const;

export type ActivityType = (typeof ACTIVITY_TYPES)[number];
