import type { User } from './types.js';

/** Grants that count now: a grant past its `expiresAt` has no effect. */
const inForce = (user: Pick<User, 'roles'>, now: Date) =>
  user.roles.filter((grant) => grant.expiresAt === null || Date.parse(grant.expiresAt) > now.getTime());

/**
 * Whether `user` holds every role in `required` (AND), for route guards.
 * Only grants that have not expired count: a grant past its `expiresAt` has
 * no effect. No user holds nothing; no requirement is
 * met by any user.
 *
 * A guard in the browser is for showing the right screens only: the service
 * checks authority itself on every request.
 */
export function hasRoles(
  user: Pick<User, 'roles'> | null | undefined,
  required: readonly string[],
  now: Date = new Date(),
): boolean {
  if (!user) return false;
  const held = new Set(inForce(user, now).map((grant) => grant.name));
  return required.every((role) => held.has(role));
}

/**
 * A user's authority: the lowest priority number among their grants in force (SUPER_ADMIN is 0, ADMIN 1); a user
 * with none is weaker than every role (Infinity). The service's own rule, for showing only the controls a caller
 * may use: the service judges every call again.
 */
export function authorityOf(user: Pick<User, 'roles'>, now: Date = new Date()): number {
  return Math.min(Number.POSITIVE_INFINITY, ...inForce(user, now).map((grant) => grant.priority));
}

/**
 * Whether `caller` may act on `target` as an admin (status, roles, TOTP reset, deletion): never on themselves;
 * a SUPER_ADMIN on anyone else; others only on users of strictly less authority.
 */
export function mayActOn(
  caller: Pick<User, 'id' | 'roles'> | null | undefined,
  target: Pick<User, 'id' | 'roles'>,
  now: Date = new Date(),
): boolean {
  if (!caller || caller.id === target.id) return false;
  const authority = authorityOf(caller, now);
  return authority === 0 || authority < authorityOf(target, now);
}

/** Whether `caller` may give, take or delete a role of this priority: a SUPER_ADMIN any, others strictly weaker ones. */
export function mayGrant(
  caller: Pick<User, 'roles'> | null | undefined,
  role: { priority: number },
  now: Date = new Date(),
): boolean {
  if (!caller) return false;
  const authority = authorityOf(caller, now);
  return authority === 0 || authority < role.priority;
}
