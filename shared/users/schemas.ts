import * as v from 'valibot';

/** E-mail addresses are trimmed and compared case-insensitively: stored lower-cased. */
export const Email = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(256, 'must be at most 256 characters'),
  v.email('must be an e-mail address'),
);

/** Proven (by a code or an accepted invitation), a code or invitation out and awaiting an answer, or neither. */
export const EmailStatus = v.picklist(['VALIDATED', 'VALIDATION_SENT', 'UNVALIDATED']);

export const UserStatus = v.picklist(['ACTIVE', 'INACTIVE', 'INVITED', 'DISABLED', 'COMPROMISED', 'TIMED_OUT']);

export const UserRoleResponse = v.object({
  roleId: v.string(),
  name: v.string(),
  priority: v.pipe(v.number(), v.integer()),
  expiresAt: v.nullable(v.string()),
});

/** UserResponse: a user as every route answers it; every field present, `null` when it has no value. */
export const UserResponse = v.object({
  id: v.string(),
  email: v.string(),
  emailStatus: EmailStatus,
  firstName: v.nullable(v.string()),
  lastName: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  status: UserStatus,
  totpEnabled: v.boolean(),
  roles: v.array(UserRoleResponse),
  registeredAt: v.string(),
  lastLoginAt: v.nullable(v.string()),
});
export type UserResponse = v.InferOutput<typeof UserResponse>;
