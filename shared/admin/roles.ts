import { activityItem } from '../activity/record.ts';
import type { Principal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { fail, failField } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { newId } from '../random.ts';
import {
  ADMIN_AUTHORITY,
  actorIdOf,
  assertMayActOnUser,
  assertMayHandleRole,
  grantOf,
  refusalOfActor,
  SUPER_ADMIN_AUTHORITY,
  superAdminActorCheck,
} from '../roles/authority.ts';
import type { RoleResponse } from '../roles/schemas.ts';
import { requireRecentSession } from '../sessions/recent-authentication.ts';
import type { TenantRef } from '../store/keys.ts';
import { roleRepo } from '../store/role-repo.ts';
import { transact } from '../store/transact.ts';
import { userAdminRepo } from '../store/user-admin-repo.ts';
import type { Merchant, Role } from '../tenancy/types.ts';
import { targetUser } from '../users/lookup.ts';

const ROLE_ID = /^rol_[0-9a-z]{20}$/;

/**
 * RoleResponse: SYSTEM roles are the same in every
 * tenant, so their `app` and `mid` are null; a MERCHANT role names its tenant.
 */
function toRoleResponse(tenant: TenantRef, role: Role): RoleResponse {
  const own = role.owner === 'MERCHANT';
  return {
    id: role.id,
    name: role.name,
    app: own ? tenant.app : null,
    mid: own ? tenant.mid : null,
    custom: role.custom,
    priority: role.priority,
    owner: role.owner,
    description: role.description,
    createdAt: role.createdAt,
  };
}

/** `app` and `mid` in role bodies, when given, must be the caller's tenant (403 TENANT_MISMATCH). */
export function assertNamesOwnTenant(tenant: TenantRef, body: { app?: string | undefined; mid?: string | undefined }) {
  if ((body.app !== undefined && body.app !== tenant.app) || (body.mid !== undefined && body.mid !== tenant.mid)) {
    throw fail('TENANT_MISMATCH');
  }
}

/** A role of the tenant; an id that is not a role id names nothing (404, never a 400 that tells ids apart). */
async function findRole(deps: Deps, tenant: TenantRef, roleId: string): Promise<Role | null> {
  return ROLE_ID.test(roleId) ? roleRepo(deps.store).get(tenant, roleId) : null;
}

/** GET /roles: SYSTEM and MERCHANT roles, by priority. */
export async function listRoles(deps: Deps, tenant: Merchant) {
  return (await roleRepo(deps.store).list(tenant))
    .map((role) => toRoleResponse(tenant, role))
    .sort((a, b) => a.priority - b.priority || a.name.localeCompare(b.name));
}

/** POST /roles: a MERCHANT role (priority ≥ 2), its name unique in the tenant (a claim item, in one transaction). */
export async function createRole(
  deps: Deps,
  tenant: Merchant,
  principal: Principal,
  body: {
    name: string;
    priority: number;
    custom?: boolean | undefined;
    description?: string | null | undefined;
    app?: string;
    mid?: string;
  },
): Promise<RoleResponse> {
  assertNamesOwnTenant(tenant, body);
  assertMayHandleRole(principal, body);
  const now = deps.clock.now().toISOString();
  const role: Role = {
    id: newId(deps.random, 'rol'),
    name: body.name,
    priority: body.priority,
    owner: 'MERCHANT',
    custom: body.custom ?? true,
    description: body.description ?? null,
    createdAt: now,
  };
  if ((await roleRepo(deps.store).create(tenant, role)) === 'NAME_TAKEN') {
    throw fail('ALREADY_EXISTS', `a role named ${role.name} exists`);
  }
  return toRoleResponse(tenant, role);
}

/** DELETE /roles/{id}: MERCHANT roles only; grants of it stay (listed with the name they were given under). */
export async function deleteRole(deps: Deps, tenant: Merchant, principal: Principal, roleId: string) {
  const role = await findRole(deps, tenant, roleId);
  if (!role) throw fail('NOT_FOUND');
  if (role.owner === 'SYSTEM') throw fail('FORBIDDEN', 'SYSTEM roles cannot be deleted');
  assertMayHandleRole(principal, role);
  // Deleted meanwhile by another admin: not found, as a moment later.
  if ((await roleRepo(deps.store).delete(tenant, role)) === 'GONE') throw fail('NOT_FOUND');
}

/**
 * Granting or revoking ADMIN or SUPER_ADMIN (priority ≤ 1) takes a recent sign-in (a stale
 * SUPER_ADMIN session granted SUPER_ADMIN to an account of the thief's, which outlived the owner's "sign out
 * everywhere"); an API key never grants them.
 */
function requireRecentForAdminRole(deps: Deps, principal: Principal, role: { priority: number }): void {
  if (role.priority > ADMIN_AUTHORITY) return;
  if (principal.kind === 'apiKey') throw fail('FORBIDDEN', 'API keys never grant or revoke ADMIN or SUPER_ADMIN');
  requireRecentSession(deps, principal);
}

/**
 * POST /roles/assign: gives a role (until `expiresAt`, if given) to a user of
 * strictly lower authority. The grant is one map entry on the profile, so
 * concurrent assigns and revokes leave the store consistent.
 */
export async function assignRole(
  deps: Deps,
  tenant: Merchant,
  principal: Principal,
  body: { userId: string; roleId: string; expiresAt?: string | null | undefined; app?: string; mid?: string },
  client: ClientInfo,
) {
  assertNamesOwnTenant(tenant, body);
  const now = deps.clock.now();
  if (body.expiresAt && Date.parse(body.expiresAt) <= now.getTime()) {
    throw failField('expiresAt', 'must be in the future');
  }
  const target = await targetUser(deps, tenant, body.userId);
  const role = await findRole(deps, tenant, body.roleId);
  if (!role) throw fail('NOT_FOUND');
  assertMayActOnUser(principal, target, now);
  assertMayHandleRole(principal, role);
  requireRecentForAdminRole(deps, principal, role);
  if (role.priority === SUPER_ADMIN_AUTHORITY && body.expiresAt) {
    // A SUPER_ADMIN whose grant lapses could remove the others first and leave the tenant with none.
    throw failField('expiresAt', 'SUPER_ADMIN is given without an end');
  }
  const expiresAt = body.expiresAt ? new Date(body.expiresAt).toISOString() : null;
  const actorId = actorIdOf(principal);
  // The grant and its ROLE_ASSIGNED record in one transaction: never a grant nobody can account for.
  const failed = await transact(deps.store, {
    grant: userAdminRepo(deps.store).grantRoleItem(
      tenant,
      target.id,
      grantOf(role, now.toISOString(), actorId, expiresAt),
    ),
    activity: activityItem(
      deps,
      tenant,
      target.id,
      'ROLE_ASSIGNED',
      { ...client, actorId },
      { detail: { role: role.name, expiresAt } },
    ),
  });
  // Deleted meanwhile.
  if (failed.has('grant')) throw fail('NOT_FOUND');
}

/**
 * POST /roles/revoke: takes a grant back (404 when the user does not hold it).
 * From a SUPER_ADMIN, the actor is checked in the same transaction
 * (superAdminActorCheck): of two SUPER_ADMINs revoking each other's role at
 * once, the second is refused.
 */
export async function revokeRole(
  deps: Deps,
  tenant: Merchant,
  principal: Principal,
  body: { userId: string; roleId: string; app?: string; mid?: string },
  client: ClientInfo,
) {
  assertNamesOwnTenant(tenant, body);
  const now = deps.clock.now();
  const target = await targetUser(deps, tenant, body.userId);
  const grant = Object.hasOwn(target.grants, body.roleId) ? target.grants[body.roleId] : undefined;
  if (!grant) throw fail('NOT_FOUND');
  assertMayActOnUser(principal, target, now);
  // The grant carries its role's priority: a deleted role's grant is judged the same way.
  assertMayHandleRole(principal, grant);
  requireRecentForAdminRole(deps, principal, grant);
  // The revocation and its ROLE_REVOKED record in one transaction; from a SUPER_ADMIN, with its own check.
  const failed = await transact(
    deps.store,
    {
      grant: userAdminRepo(deps.store).revokeRoleItem(tenant, target.id, body.roleId),
      activity: activityItem(
        deps,
        tenant,
        target.id,
        'ROLE_REVOKED',
        { ...client, actorId: actorIdOf(principal) },
        { detail: { role: grant.name } },
      ),
      actor: superAdminActorCheck(deps, tenant, principal, target, now),
    },
    { retryConflicts: true },
  );
  // The actor first: a moment later, its own standing would be judged before the grant is looked up.
  if (failed.has('actor')) throw await refusalOfActor(deps, tenant, principal);
  if (failed.has('grant')) throw fail('NOT_FOUND');
}
