import type { Principal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { type AppError, fail } from '../errors.ts';
import type { TenantRef } from '../store/keys.ts';
import type { TransactItem } from '../store/transact.ts';
import { userAdminRepo } from '../store/user-admin-repo.ts';
import { userRepo } from '../store/user-repo.ts';
import type { Role } from '../tenancy/types.ts';
import type { Grant, User } from '../users/types.ts';

/**
 * Authority and role grants (docs/security.md#roles-and-authority): a caller's authority is the
 * lowest priority of the roles it holds now; a lower number is more authority.
 */

/** SUPER_ADMIN's priority: it may act on anyone but itself. */
export const SUPER_ADMIN_AUTHORITY = 0;

/** ADMIN's priority: what the admin routes need, and what an API key acts with at most. */
export const ADMIN_AUTHORITY = 1;

export function isGrantActive(grant: Grant, now: Date): boolean {
  return grant.expiresAt === null || Date.parse(grant.expiresAt) > now.getTime();
}

/** Role names and authority that count now: expired grants have no effect. */
export function effectiveRoles(user: Pick<User, 'grants'>, now: Date): { names: string[]; authority: number } {
  const active = Object.values(user.grants ?? {}).filter((grant) => isGrantActive(grant, now));
  return {
    names: [...new Set(active.map((grant) => grant.name))].sort(),
    // No grant at all is no authority: a number above every real priority.
    authority: active.reduce((lowest, grant) => Math.min(lowest, grant.priority), Number.MAX_SAFE_INTEGER),
  };
}

/** A role held, kept on the user's profile with the role's name and priority (a deleted role's grant stays listed). */
export function grantOf(
  role: Pick<Role, 'id' | 'name' | 'priority'>,
  grantedAt: string,
  grantedBy = 'system',
  expiresAt: string | null = null,
) {
  return { roleId: role.id, name: role.name, priority: role.priority, grantedAt, grantedBy, expiresAt };
}

/** Who did it, as activity records say: a user id, or `apikey:<keyId>`. */
export function actorIdOf(principal: Principal): string {
  return principal.kind === 'user' ? principal.userId : `apikey:${principal.keyId}`;
}

/**
 * A caller may act only on users of strictly lower
 * authority (a higher lowest-priority number); SUPER_ADMIN may act on all;
 * nobody acts on themselves through admin endpoints.
 *
 * The last SUPER_ADMIN stays by construction: only a SUPER_ADMIN may act on
 * one, never on themselves, and SUPER_ADMIN is only given without an end
 * (roles.assignRole), so the acting one remains. That holds for requests one
 * after another; for two at once, the write that removes a SUPER_ADMIN also
 * checks the actor (superAdminActorCheck).
 */
export function assertMayActOnUser(principal: Principal, target: User, now: Date): void {
  if (principal.kind === 'user' && principal.userId === target.id) {
    throw fail('FORBIDDEN', 'no one may act on themselves through admin endpoints');
  }
  if (principal.authority === SUPER_ADMIN_AUTHORITY) return;
  if (effectiveRoles(target, now).authority <= principal.authority) {
    throw fail('FORBIDDEN', 'the user has as much authority as you, or more');
  }
}

/** A role may be given, taken or deleted only by a caller of strictly more authority (SUPER_ADMIN: any). */
export function assertMayHandleRole(principal: Principal, role: { priority: number }): void {
  if (principal.authority === SUPER_ADMIN_AUTHORITY) return;
  if (role.priority <= principal.authority) throw fail('FORBIDDEN', 'the role has as much authority as you, or more');
}

/** The target's SUPER_ADMIN grant in effect, if any (SUPER_ADMIN is the only priority-0 role). */
function superAdminGrantOf(target: Pick<User, 'grants'>, now: Date): Grant | undefined {
  return Object.values(target.grants ?? {}).find(
    (grant) => grant.priority === SUPER_ADMIN_AUTHORITY && isGrantActive(grant, now),
  );
}

/**
 * The last SUPER_ADMIN cannot be removed. The checks above
 * judge grants read before the write, so two SUPER_ADMINs revoking, disabling
 * or deleting each other at once would both pass them and leave none. When the
 * target holds SUPER_ADMIN, the write that acts on them goes in a transaction
 * with this check on the actor's profile: still holding that SUPER_ADMIN grant
 * (unexpired: SUPER_ADMIN is given without an end, but the rule is the
 * grant's), still ACTIVE. DynamoDB serialises the two transactions, so the
 * second fails this check and is refused (refusalOfActor) as it would be a
 * moment later. Null when no check is needed (an API key acts with ADMIN
 * authority only, so it never reaches a SUPER_ADMIN).
 */
export function superAdminActorCheck(
  deps: Pick<Deps, 'store'>,
  tenant: TenantRef,
  principal: Principal,
  target: Pick<User, 'grants'>,
  now: Date,
): TransactItem | null {
  if (principal.kind !== 'user') return null;
  const grant = superAdminGrantOf(target, now);
  return grant ? userAdminRepo(deps.store).stillHoldsCheck(tenant, principal.userId, grant.roleId, now) : null;
}

/**
 * The answer for an actor whose check (superAdminActorCheck) failed: what the
 * same request a moment later would get. Gone, or no longer ACTIVE: its session
 * is over (401 SESSION_REVOKED, as the bearer check answers). Still there: it
 * has lost SUPER_ADMIN, so it may not act on one (403 FORBIDDEN).
 */
export async function refusalOfActor(
  deps: Pick<Deps, 'store'>,
  tenant: TenantRef,
  principal: Principal,
): Promise<AppError> {
  if (principal.kind === 'user') {
    const actor = await userRepo(deps.store).get(tenant, principal.userId);
    if (actor?.status !== 'ACTIVE') {
      return fail('SESSION_REVOKED', { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } });
    }
  }
  return fail('FORBIDDEN', 'the user has as much authority as you, or more');
}
