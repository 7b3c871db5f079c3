/** Stored statuses. TIMED_OUT is shown, never stored: it is derived from an active lockout. */
export type StoredUserStatus = 'ACTIVE' | 'INACTIVE' | 'INVITED' | 'DISABLED' | 'COMPROMISED';
export type UserStatus = StoredUserStatus | 'TIMED_OUT';
/**
 * Whether the address is proven. Stored: VALIDATED, or VALIDATION_SENT with the instant
 * its code or invitation lapses (`emailValidationExpiresAt`), or UNVALIDATED
 * before anything was sent. Shown: VALIDATION_SENT past that instant is UNVALIDATED.
 */
export type EmailStatus = 'VALIDATED' | 'VALIDATION_SENT' | 'UNVALIDATED';

/** A role held, denormalised onto the profile with the role's name and priority at grant time. */
export interface Grant {
  roleId: string;
  name: string;
  priority: number;
  grantedAt: string;
  grantedBy: string;
  /** Past this instant the grant has no effect anywhere. */
  expiresAt: string | null;
}

/** The PROFILE item of a user. */
export interface User {
  id: string;
  email: string;
  emailStatus: EmailStatus;
  /** While VALIDATION_SENT: when the signup code or invitation that went out lapses; else null. */
  emailValidationExpiresAt: string | null;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  status: StoredUserStatus;
  /** argon2id PHC string; null for users who only sign in by e-mail code. */
  passwordHash: string | null;
  totpEnabled: boolean;
  /** The TOTP secret, encrypted by the key vault; null when TOTP is off. */
  totpSecret: string | null;
  /** The last TOTP time step accepted: a code is never accepted twice. */
  totpLastStep: number | null;
  /**
   * Hashes of the unused backup codes: `v2:` + SHA-256 salted with the user id
   * (shared/auth/totp.ts); without the prefix, a legacy code's unsalted hash.
   */
  backupCodes: string[];
  /** TOTP being set up (init), not yet confirmed by a code (verify): encrypted secret and backup code hashes. */
  totpPendingSecret: string | null;
  totpPendingBackupCodes: string[];
  grants: Record<string, Grant>;
  registeredAt: string;
  lastLoginAt: string | null;
  /** Set while a lockout holds (the user is shown TIMED_OUT). */
  lockedUntil: string | null;
  /**
   * The credential epoch (absent in the store = 0): a session stamped with another epoch is dead.
   * Moved on by password change and reset, DISABLED/COMPROMISED and revoke-all, so that ending
   * every session is one write, and a login that read the profile before it cannot commit after it.
   */
  credentialEpoch: number;
  /** Passkeys the user has (kept with each one added or removed; absent on profiles from before: 0). */
  passkeyCount: number;
  /**
   * The sessions started at this epoch and not known to be over: id → createdAt. Kept for the
   * 50-session limit (shared/store/session-cap.ts), never for liveness (the session item decides).
   * null on a profile stored before sessions were listed here.
   */
  liveSessions: Record<string, string> | null;
  /**
   * While INVITED: the SHA-256 of the token of the invitation last sent, the only one that signs up (a resend
   * names its new one). null once accepted, and on a profile stored before invitations were named (any of
   * its invitations then works).
   */
  invitationHash: string | null;
}

/**
 * A user as the tenant's user list reads it (the users index): what the public
 * view (UserResponse) shows or derives from, and no hash, secret or backup code
 * (the index does not carry them, shared/store/table.ts).
 */
export type ListedUser = Pick<
  User,
  | 'id'
  | 'email'
  | 'emailStatus'
  | 'emailValidationExpiresAt'
  | 'firstName'
  | 'lastName'
  | 'phone'
  | 'status'
  | 'totpEnabled'
  | 'grants'
  | 'registeredAt'
  | 'lastLoginAt'
  | 'lockedUntil'
>;
