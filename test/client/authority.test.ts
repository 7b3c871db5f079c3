import { describe, expect, it } from 'vitest';
import type { Principal } from '#shared/auth/principal.ts';
import { isAppError } from '#shared/errors.ts';
import { assertMayActOnUser, assertMayHandleRole, effectiveRoles } from '#shared/roles/authority.ts';
import type { Grant, User } from '#shared/users/types.ts';
import { toUserResponse } from '#shared/users/view.ts';
import { aUserRecord } from '#test/support/builders.ts';
import { authorityOf, mayActOn, mayGrant } from '../../client/src/index.ts';

/**
 * The SDK's authority rule (which controls the console shows) is a copy of the service's (which calls it allows):
 * for every pair of callers and targets below, and every role priority, both must answer alike.
 */

const NOW = new Date('2026-06-01T12:00:00.000Z');
const PAST = '2026-05-01T00:00:00.000Z';
const FUTURE = '2026-07-01T00:00:00.000Z';

const grant = (name: string, priority: number, expiresAt: string | null = null): Grant => ({
  roleId: `rol_${name.toLowerCase()}`,
  name,
  priority,
  grantedAt: PAST,
  grantedBy: 'usr_seed',
  expiresAt,
});

/** Users holding: SUPER_ADMIN, ADMIN, a merchant role or two, one that expired or will, nothing. */
const people: Record<string, Grant[]> = {
  superAdmin: [grant('SUPER_ADMIN', 0)],
  admin: [grant('ADMIN', 1)],
  admin2: [grant('ADMIN', 1)],
  manager: [grant('MANAGER', 5)],
  managerUntilJuly: [grant('MANAGER', 5, FUTURE)],
  formerAdmin: [grant('ADMIN', 1, PAST), grant('DEFAULT', 99)],
  clerkAndManager: [grant('DEFAULT', 99), grant('MANAGER', 5)],
  member: [grant('DEFAULT', 99)],
  nobody: [],
};

const serverUser = (id: string, grants: Grant[]): User =>
  aUserRecord({
    id,
    grants: Object.fromEntries(grants.map((g) => [g.roleId, g])),
    registeredAt: PAST,
    liveSessions: null,
  });

const users = Object.entries(people).map(([id, grants]) => serverUser(id, grants));

function principalOf(user: User): Principal {
  const { names, authority } = effectiveRoles(user, NOW);
  return { kind: 'user', userId: user.id, sessionId: 'ses_x', roles: names, authority, authenticatedAt: null };
}

const allowed = (check: () => void) => {
  try {
    check();
    return true;
  } catch (error) {
    if (isAppError(error) && error.code === 'FORBIDDEN') return false;
    throw error;
  }
};

describe("the SDK's authority rule, held to the service's", () => {
  it('orders users as the service does: SUPER_ADMIN 0, ADMIN 1, expired grants not counted, nothing weakest', () => {
    const view = (id: string) => toUserResponse(users.find((u) => u.id === id) as User, NOW);
    expect(authorityOf(view('superAdmin'), NOW)).toBe(0);
    expect(authorityOf(view('formerAdmin'), NOW)).toBe(99);
    expect(authorityOf(view('clerkAndManager'), NOW)).toBe(5);
    expect(authorityOf(view('nobody'), NOW)).toBe(Number.POSITIVE_INFINITY);
  });

  it.each(users.map((caller) => [caller.id, caller] as const))(
    'lets %s act on exactly whom the service lets',
    (_, caller) => {
      for (const target of users) {
        const service = allowed(() => assertMayActOnUser(principalOf(caller), target, NOW));
        const sdk = mayActOn(toUserResponse(caller, NOW), toUserResponse(target, NOW), NOW);
        expect(sdk, `${caller.id} on ${target.id}`).toBe(service);
      }
    },
  );

  it.each(users.map((caller) => [caller.id, caller] as const))(
    'lets %s grant exactly the roles the service lets',
    (_, caller) => {
      for (const priority of [0, 1, 2, 4, 5, 6, 99, 1000]) {
        const service = allowed(() => assertMayHandleRole(principalOf(caller), { priority }));
        expect(mayGrant(toUserResponse(caller, NOW), { priority }, NOW), `${caller.id}, priority ${priority}`).toBe(
          service,
        );
      }
    },
  );

  it('answers no for no caller', () => {
    const target = toUserResponse(users[0] as User, NOW);
    expect(mayActOn(null, target, NOW)).toBe(false);
    expect(mayGrant(undefined, { priority: 1000 }, NOW)).toBe(false);
  });
});
