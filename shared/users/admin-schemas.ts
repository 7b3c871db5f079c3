import * as v from 'valibot';
import { Email, UserResponse } from './schemas.ts';

/** Ids in paths are any string: one that names nothing of the caller's tenant is 404, never a 400 that tells ids apart. */
export const IdParams = v.object({ id: v.string() });

export const UserStatusRequest = v.strictObject({
  status: v.picklist(['ACTIVE', 'DISABLED', 'COMPROMISED'], 'must be ACTIVE, DISABLED or COMPROMISED'),
});

const OptionalName = v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(256))));

export const InviteUserRequest = v.strictObject({ email: Email, firstName: OptionalName, lastName: OptionalName });
export const InviteUserResponse = v.object({ userId: v.string(), status: v.literal('INVITED') });
/** POST /users/{id}/invitation: the invitation sent again; its new link works until `expiresAt` (ISO 8601). */
export const ResendInvitationResponse = v.object({ userId: v.string(), expiresAt: v.string() });

/**
 * Mail to the user's address is suppressed: SES reported a hard bounce (BOUNCE) or the recipient marked
 * a mail as spam (COMPLAINT), at `at`; no mail goes there until an admin clears it.
 */
export const MailSuppression = v.object({ reason: v.picklist(['BOUNCE', 'COMPLAINT']), at: v.string() });

/** GET /users/{id}: the UserResponse, and (ours) the suppression of mail to the user's address, or null. */
export const AdminUserResponse = v.object({
  ...UserResponse.entries,
  mailSuppression: v.nullable(MailSuppression),
  /** How many passkeys the user has (GET /users/{id}/passkeys lists them). */
  passkeyCount: v.pipe(v.number(), v.integer()),
});
export type AdminUserResponse = v.InferOutput<typeof AdminUserResponse>;

export const DeviceResponse = v.object({
  fingerprint: v.string(),
  os: v.nullable(v.string()),
  browser: v.nullable(v.string()),
  firstSeenAt: v.string(),
  lastSeenAt: v.string(),
  seenCount: v.pipe(v.number(), v.integer()),
});

// The activity schemas serve GET /users/me/activity too: they live beside the activity types, kept small for the
// bundles of the /users/me routes, which carry them.
export { ActivityPage, ActivityQuery, ActivityResponse } from '../activity/schemas.ts';
