import type { UserResponse } from './schemas.ts';
import type { EmailStatus, ListedUser, User, UserStatus } from './types.ts';

export function displayedStatus(user: Pick<User, 'status' | 'lockedUntil'>, now: Date): UserStatus {
  if (user.status === 'ACTIVE' && user.lockedUntil && Date.parse(user.lockedUntil) > now.getTime()) return 'TIMED_OUT';
  return user.status;
}

/** "Ann Lee", or null when the user has no name (never the address: a name is what others are shown). */
export function personName(user: Pick<User, 'firstName' | 'lastName'>): string | null {
  return [user.firstName, user.lastName].filter(Boolean).join(' ').trim() || null;
}

/** VALIDATION_SENT only while the code or invitation that went out can still be answered. */
export function displayedEmailStatus(
  user: Pick<User, 'emailStatus' | 'emailValidationExpiresAt'>,
  now: Date,
): EmailStatus {
  if (user.emailStatus !== 'VALIDATION_SENT') return user.emailStatus;
  const lapses = user.emailValidationExpiresAt;
  return lapses !== null && Date.parse(lapses) > now.getTime() ? 'VALIDATION_SENT' : 'UNVALIDATED';
}

/** The public view of a user: never a hash, a secret or a backup code (it reads a ListedUser's fields only). */
export function toUserResponse(user: ListedUser, now: Date): UserResponse {
  return {
    id: user.id,
    email: user.email,
    emailStatus: displayedEmailStatus(user, now),
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone,
    status: displayedStatus(user, now),
    totpEnabled: user.totpEnabled,
    // Every grant is listed, expired ones too, with its expiry: clients check it (hasRoles does).
    roles: Object.values(user.grants ?? {})
      .sort((a, b) => a.priority - b.priority || a.name.localeCompare(b.name))
      .map((grant) => ({
        roleId: grant.roleId,
        name: grant.name,
        priority: grant.priority,
        expiresAt: grant.expiresAt,
      })),
    registeredAt: user.registeredAt,
    lastLoginAt: user.lastLoginAt,
  };
}
