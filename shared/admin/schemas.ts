import * as v from 'valibot';
import { ACTIVITY_TYPES } from '../activity/types.ts';
import { Email } from '../users/schemas.ts';

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

/** `app` and `mid` may be named in role bodies; when they are, they must be the caller's tenant. */
const TenantNamed = {
  app: v.optional(v.pipe(v.string(), v.maxLength(128))),
  mid: v.optional(v.pipe(v.string(), v.maxLength(128))),
};

/** RoleResponse (CONTRACT.md, Resources); `description` is ours. */
export const RoleResponse = v.object({
  id: v.string(),
  name: v.string(),
  /** null on SYSTEM roles (the same in every tenant); the tenant's own on MERCHANT roles. */
  app: v.nullable(v.string()),
  mid: v.nullable(v.string()),
  /** false on SYSTEM roles; on MERCHANT roles what creation said (default true). */
  custom: v.boolean(),
  priority: v.pipe(v.number(), v.integer()),
  owner: v.picklist(['SYSTEM', 'MERCHANT']),
  description: v.nullable(v.string()),
  createdAt: v.string(),
});
export type RoleResponse = v.InferOutput<typeof RoleResponse>;

export const CreateRoleRequest = v.strictObject({
  name: v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'must be 1-64 letters, digits, _ or -, starting with a letter'),
  ),
  priority: v.pipe(
    v.number('must be a number'),
    v.integer('must be an integer'),
    v.minValue(2, 'must be 2 or more (0 and 1 are SUPER_ADMIN and ADMIN)'),
    v.maxValue(1000, 'must be at most 1000'),
  ),
  custom: v.optional(v.boolean('must be true or false')),
  description: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(256)))),
  ...TenantNamed,
});

export const AssignRoleRequest = v.strictObject({
  userId: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(64)),
  roleId: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(64)),
  expiresAt: v.optional(v.nullable(v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 timestamp')))),
  ...TenantNamed,
});

export const RevokeRoleRequest = v.strictObject({
  userId: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(64)),
  roleId: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(64)),
  ...TenantNamed,
});
