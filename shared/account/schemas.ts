import * as v from 'valibot';
import { NewPassword, PresentedPassword } from '../auth/password-policy.ts';
import { Email, Phone } from '../users/schemas.ts';

const Name = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.minLength(1, 'needs at least 1 character'),
  v.maxLength(256),
);
const SixDigits = v.pipe(v.string('must be a string'), v.trim(), v.regex(/^\d{6}$/, 'must be 6 digits'));

/** UpdateUserRequest: names 1+ characters, a phone number (null clears it); nothing else is accepted. */
export const UpdateUserRequest = v.strictObject({
  firstName: v.optional(Name),
  lastName: v.optional(Name),
  phone: v.optional(v.nullable(Phone)),
});

export const ChangePasswordRequest = v.strictObject({
  currentPassword: PresentedPassword,
  newPassword: NewPassword,
  /** A TOTP code or a backup code; required when TOTP is on. */
  totpCode: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.minLength(1), v.maxLength(32))),
});

export const EmailChangeRequest = v.strictObject({ newEmail: Email });

export const EmailChangeVerifyRequest = v.strictObject({
  challengeId: v.pipe(v.string('must be a string'), v.minLength(1, 'is required'), v.maxLength(64)),
  code: SixDigits,
});

export const EmailChangeVerifyResponse = v.object({
  challengeId: v.string(),
  type: v.literal('EMAIL'),
  status: v.literal('COMPLETED'),
});

/** TOTP verify and disable: a TOTP code (disable also takes a backup code). */
export const TotpCodeRequest = v.strictObject({
  code: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(32)),
});

export const TotpSetupResponse = v.object({ qrUri: v.string(), backupCodes: v.array(v.string()) });

export const SessionResponse = v.object({
  id: v.string(),
  current: v.boolean(),
  browser: v.nullable(v.string()),
  os: v.nullable(v.string()),
  ip: v.string(),
  lastActivityAt: v.string(),
  createdAt: v.string(),
  /** Ours: the OpenID Connect client this session was started for (its name then), or null. */
  clientName: v.nullable(v.string()),
});

/** Any string: an id that names no session of the caller is 404, never a validation error that tells ids apart. */
export const SessionIdParams = v.object({ sessionId: v.string() });
