import * as v from 'valibot';
import { Email } from './schemas.ts';

/** Ids in paths are any string: one that names nothing of the caller's tenant is 404, never a 400 that tells ids apart. */
export const IdParams = v.object({ id: v.string() });

export const UserStatusRequest = v.strictObject({
  status: v.picklist(['ACTIVE', 'DISABLED', 'COMPROMISED'], 'must be ACTIVE, DISABLED or COMPROMISED'),
});

const OptionalName = v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(256))));

export const InviteUserRequest = v.strictObject({ email: Email, firstName: OptionalName, lastName: OptionalName });
export const InviteUserResponse = v.object({ userId: v.string(), status: v.literal('INVITED') });

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
