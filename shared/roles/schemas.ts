import * as v from 'valibot';

/** `app` and `mid` may be named in role bodies; when they are, they must be the caller's tenant. */
const TenantNamed = {
  app: v.optional(v.pipe(v.string(), v.maxLength(128))),
  mid: v.optional(v.pipe(v.string(), v.maxLength(128))),
};

/** RoleResponse: a role as every route answers it. */
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
