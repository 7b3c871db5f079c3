import * as v from 'valibot';
import { ACTIVITY_TYPES } from '../activity/types.ts';
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

export const ActivityQuery = v.object({
  // A string on the wire, parsed by toNumber: the OpenAPI document shows it as the integer it becomes.
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, 'must be a number from 1 to 100'),
      v.toNumber(),
      v.integer('must be a number from 1 to 100'),
      v.minValue(1, 'must be a number from 1 to 100'),
      v.maxValue(100, 'must be a number from 1 to 100'),
    ),
    '50',
  ),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(512))),
});

export const ActivityResponse = v.object({
  id: v.string(),
  type: v.picklist(ACTIVITY_TYPES),
  at: v.string(),
  ip: v.string(),
  userAgent: v.string(),
  actorId: v.string(),
});

export const ActivityPage = v.object({ items: v.array(ActivityResponse), nextCursor: v.nullable(v.string()) });
