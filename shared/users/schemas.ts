import * as v from 'valibot';

/** E-mail addresses are trimmed and compared case-insensitively: stored lower-cased. */
export const Email = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(256, 'must be at most 256 characters'),
  v.email('must be an e-mail address'),
);

/**
 * A phone number as a person writes it: E.164 (`+442079460000`) or a national format with spaces, dashes and
 * parentheses (`+44 (0)20 7946 0000`, `(202) 555-0143`, `020-7946-0000`): 5 to 15 digits (E.164's most), a `+`
 * only in front, one separator at most between two digits or groups, parentheses around digits only. Letters and
 * other signs are refused: the number is given to OpenID clients as `phone_number`, and a person's "call me" note
 * is no number. Trimmed; stored as written (numbers stored before this rule are shown as they are).
 */
const PHONE_PATTERN =
  /^(?=(?:[^0-9]*[0-9]){5,15}[^0-9]*$)\+?(?:[0-9]|\([0-9]{1,6}\))(?:[ -]?(?:[0-9]|\([0-9]{1,6}\)))*$/u;
const PHONE_MESSAGE = 'must be 5 to 15 digits, with spaces, dashes or parentheses if you like, and + only in front';
export const Phone = v.pipe(
  v.string('must be a string'),
  v.maxLength(64, 'must be at most 64 characters'),
  v.trim(),
  v.regex(PHONE_PATTERN, PHONE_MESSAGE),
  v.description(
    'A phone number: E.164, or a national format with spaces, dashes and parentheses; 5 to 15 digits, + only in front (trimmed)',
  ),
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
