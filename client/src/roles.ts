import type { User } from './types.js';

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
  const held = new Set(
    user.roles
      .filter((grant) => grant.expiresAt === null || Date.parse(grant.expiresAt) > now.getTime())
      .map((grant) => grant.name),
  );
  return required.every((role) => held.has(role));
}
