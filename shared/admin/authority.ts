import type { Principal } from '../auth/principal.ts';
import { fail } from '../http/errors.ts';
import type { User } from '../users/types.ts';
import { effectiveRoles } from '../users/view.ts';

/** SUPER_ADMIN's priority: it may act on anyone but itself. */
export const SUPER_ADMIN_AUTHORITY = 0;

/** Who did it, as activity records say: a user id, or `apikey:<keyId>`. */
export function actorIdOf(principal: Principal): string {
  return principal.kind === 'user' ? principal.userId : `apikey:${principal.keyId}`;
}

/**
 * CONTRACT.md, Rules: a caller may act only on users of strictly lower
 * authority (a higher lowest-priority number); SUPER_ADMIN may act on all;
 * nobody acts on themselves through admin endpoints.
 *
 * The last SUPER_ADMIN stays by construction: only a SUPER_ADMIN may act on
 * one, never on themselves, and SUPER_ADMIN is only given without an end
 * (roles.assignRole), so the acting one remains.
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
