import { beforeAll, describe, expect, it } from 'vitest';
import { assignRole, createRole, listRoles, revokeRole } from '#shared/admin/roles.ts';
import { deleteUser, setUserStatus } from '#shared/admin/users.ts';
import type { Principal } from '#shared/auth/principal.ts';
import type { Deps } from '#shared/deps.ts';
import { AppError } from '#shared/errors.ts';
import {
  actorIdOf,
  assertMayActOnUser,
  assertMayHandleRole,
  effectiveRoles,
  grantOf,
} from '#shared/roles/authority.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import type { Merchant, Role } from '#shared/tenancy/types.ts';
import type { User } from '#shared/users/types.ts';
import { aRoleName, aStoredUser, aUserRecord, putUsers } from '#test/support/admin.ts';
import { aTenantWith } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';

const client = { ip: '203.0.113.9', userAgent: 'vitest', language: 'en' as const };
const HOUR = 3_600_000;

/** Deps whose clock the test moves. */
function movableDeps() {
  let now = Date.now();
  const deps = makeTestDeps({ clock: { now: () => new Date(now) } });
  return { deps, advance: (ms: number) => (now += ms), now: () => new Date(now) };
}

/** The principal a bearer check makes of a stored user: authority from the grants in effect now. */
function principalOf(user: User, now: Date): Principal {
  const { names, authority } = effectiveRoles(user, now);
  // Signed in just now: the admin powers need a recent sign-in (recent-authentication.ts).
  return {
    kind: 'user',
    userId: user.id,
    sessionId: 'ses_test',
    roles: names,
    authority,
    authenticatedAt: now.toISOString(),
  };
}

const apiKey: Principal = { kind: 'apiKey', keyId: 'key_00000000000000000000', authority: 1 };

/** FORBIDDEN, or 'allowed' when the function returns. */
function outcome(check: () => void): string {
  try {
    check();
    return 'allowed';
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

type Who =
  | 'superAdmin'
  | 'otherSuperAdmin'
  | 'admin'
  | 'otherAdmin'
  | 'lead2'
  | 'otherLead2'
  | 'staff5'
  | 'plain'
  | 'expiredAdmin'
  | 'expiredSuperWithAdmin';

const deps = makeTestDeps();
let tenant: Merchant;
let roles: Record<string, Role>;
const users = {} as Record<Who, User>;
let now: Date;

beforeAll(async () => {
  const created = await aTenantWith({}, deps);
  tenant = (await merchantRepo(deps.store).get(created)) as Merchant;
  now = new Date();
  const system = await listRoles(deps, tenant);
  roles = Object.fromEntries(system.map((r) => [r.name, r as Role]));
  const superAdmin: Principal = {
    kind: 'user',
    userId: created.adminUserId,
    sessionId: 's',
    roles: [],
    authority: 0,
    authenticatedAt: new Date().toISOString(),
  };
  for (const [name, priority] of [
    ['LEAD', 2],
    ['STAFF', 5],
  ] as const) {
    roles[name] = (await createRole(deps, tenant, superAdmin, { name: aRoleName(name), priority })) as Role;
  }
  const at = now.toISOString();
  const past = new Date(now.getTime() - HOUR).toISOString();
  const grantsOf = (...held: [string, string | null][]) =>
    Object.fromEntries(
      held.map(([name, expiresAt]) => {
        const role = roles[name] as Role;
        return [role.id, grantOf(role, at, 'system', expiresAt)];
      }),
    );
  const specs: Record<Who, [string, string | null][]> = {
    superAdmin: [['SUPER_ADMIN', null]],
    otherSuperAdmin: [['SUPER_ADMIN', null]],
    admin: [['ADMIN', null]],
    otherAdmin: [['ADMIN', null]],
    lead2: [['LEAD', null]],
    otherLead2: [['LEAD', null]],
    staff5: [['STAFF', null]],
    plain: [],
    expiredAdmin: [['ADMIN', past]],
    expiredSuperWithAdmin: [
      ['SUPER_ADMIN', past],
      ['ADMIN', null],
    ],
  };
  const made: User[] = [];
  for (const [who, held] of Object.entries(specs) as [Who, [string, string | null][]][]) {
    const user = await aUserRecord(tenant, {}, deps);
    user.grants = { ...user.grants, ...grantsOf(...held) };
    users[who] = user;
    made.push(user);
  }
  await putUsers(deps, tenant, made);
  // As stored: the table's view of each user is what the functions judge.
  for (const who of Object.keys(specs) as Who[])
    users[who] = (await userRepo(deps.store).get(tenant, users[who].id)) as User;
});

describe('assertMayActOnUser (real users, DynamoDB Local)', () => {
  const FORBIDDEN = 'FORBIDDEN';
  const cases: [Who | 'apiKey', Who, string][] = [
    ['superAdmin', 'otherSuperAdmin', 'allowed'],
    ['superAdmin', 'admin', 'allowed'],
    ['superAdmin', 'lead2', 'allowed'],
    ['superAdmin', 'plain', 'allowed'],
    ['superAdmin', 'superAdmin', FORBIDDEN],
    ['admin', 'superAdmin', FORBIDDEN],
    ['admin', 'otherAdmin', FORBIDDEN],
    ['admin', 'expiredSuperWithAdmin', FORBIDDEN],
    ['admin', 'admin', FORBIDDEN],
    ['admin', 'lead2', 'allowed'],
    ['admin', 'staff5', 'allowed'],
    ['admin', 'plain', 'allowed'],
    ['admin', 'expiredAdmin', 'allowed'],
    ['apiKey', 'superAdmin', FORBIDDEN],
    ['apiKey', 'admin', FORBIDDEN],
    ['apiKey', 'lead2', 'allowed'],
    ['apiKey', 'plain', 'allowed'],
    ['lead2', 'otherLead2', FORBIDDEN],
    ['lead2', 'admin', FORBIDDEN],
    ['lead2', 'staff5', 'allowed'],
    ['lead2', 'plain', 'allowed'],
    ['staff5', 'lead2', FORBIDDEN],
    ['plain', 'plain', FORBIDDEN],
    ['plain', 'expiredAdmin', FORBIDDEN],
    ['expiredAdmin', 'plain', FORBIDDEN],
    ['expiredSuperWithAdmin', 'otherAdmin', FORBIDDEN],
    ['expiredSuperWithAdmin', 'plain', 'allowed'],
  ];

  it.each(cases)('%s acting on %s: %s', (actor, target, expected) => {
    const principal = actor === 'apiKey' ? apiKey : principalOf(users[actor], now);
    expect(outcome(() => assertMayActOnUser(principal, users[target], now))).toBe(expected);
  });

  it('judges expiry at the instant given: an ADMIN grant counts until its expiresAt and not after', async () => {
    const at = Date.now();
    const expiresAt = new Date(at + HOUR).toISOString();
    const user = await aStoredUser(tenant);
    const admin = roles.ADMIN as Role;
    user.grants[admin.id] = grantOf(admin, new Date(at).toISOString(), 'system', expiresAt);
    const before = new Date(at + HOUR - 1);
    const after = new Date(at + HOUR);
    expect(outcome(() => assertMayActOnUser(principalOf(users.admin, before), user, before))).toBe(FORBIDDEN);
    expect(outcome(() => assertMayActOnUser(principalOf(users.admin, after), user, after))).toBe('allowed');
    expect(principalOf(user, before).authority).toBe(1);
    expect(principalOf(user, after).authority).toBe(99);
  });
});

describe('assertMayHandleRole', () => {
  const cases: [Who | 'apiKey', string, string][] = [
    ['superAdmin', 'SUPER_ADMIN', 'allowed'],
    ['superAdmin', 'ADMIN', 'allowed'],
    ['superAdmin', 'DEFAULT', 'allowed'],
    ['admin', 'SUPER_ADMIN', 'FORBIDDEN'],
    ['admin', 'ADMIN', 'FORBIDDEN'],
    ['admin', 'LEAD', 'allowed'],
    ['admin', 'USER', 'allowed'],
    ['apiKey', 'ADMIN', 'FORBIDDEN'],
    ['apiKey', 'LEAD', 'allowed'],
    ['lead2', 'LEAD', 'FORBIDDEN'],
    ['lead2', 'STAFF', 'allowed'],
    ['expiredSuperWithAdmin', 'SUPER_ADMIN', 'FORBIDDEN'],
    ['expiredSuperWithAdmin', 'ADMIN', 'FORBIDDEN'],
    ['expiredSuperWithAdmin', 'LEAD', 'allowed'],
  ];

  it.each(cases)('%s handling %s: %s', (actor, roleName, expected) => {
    const principal = actor === 'apiKey' ? apiKey : principalOf(users[actor], now);
    expect(outcome(() => assertMayHandleRole(principal, roles[roleName] as Role))).toBe(expected);
  });
});

describe('actorIdOf', () => {
  it('names a user by id and a key as apikey:<keyId>', () => {
    expect(actorIdOf(principalOf(users.admin, now))).toBe(users.admin.id);
    expect(actorIdOf(apiKey)).toBe('apikey:key_00000000000000000000');
  });
});

describe('the last SUPER_ADMIN (services, DynamoDB Local)', () => {
  /** Users who hold a SUPER_ADMIN grant in effect at `at`, among `ids`. */
  async function superAdminsAt(d: Deps, t: Merchant, ids: string[], at: Date) {
    const found = await Promise.all(ids.map((id) => userRepo(d.store).get(t, id)));
    return found.filter((u) => u?.status === 'ACTIVE' && effectiveRoles(u, at).authority === 0).map((u) => u?.id);
  }

  it.each([
    ['revoking their SUPER_ADMIN', 'revoke'],
    ['disabling them', 'disable'],
  ] as const)('stays when a SUPER_ADMIN whose own grant expires removes the permanent one by %s', async (_, how) => {
    const { deps: d, advance, now: clockNow } = movableDeps();
    const created = await aTenantWith({}, d);
    const t = (await merchantRepo(d.store).get(created)) as Merchant;
    const superAdmin = (await listRoles(d, t)).find((r) => r.name === 'SUPER_ADMIN') as Role;
    const owner = (await userRepo(d.store).get(t, created.adminUserId)) as User;
    const temp = await aStoredUser(t, {}, d);
    const expiresAt = new Date(clockNow().getTime() + HOUR).toISOString();
    // SUPER_ADMIN is never given with an end: the first line of defence.
    await expect(
      assignRole(d, t, principalOf(owner, clockNow()), { userId: temp.id, roleId: superAdmin.id, expiresAt }, client),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });

    const acting = principalOf((await userRepo(d.store).get(t, temp.id)) as User, clockNow());
    const removal =
      how === 'revoke'
        ? revokeRole(d, t, acting, { userId: owner.id, roleId: superAdmin.id }, client)
        : setUserStatus(d, t, acting, owner.id, 'DISABLED', client);
    const answer = await removal.then(
      () => 'done',
      (error: unknown) => (error instanceof AppError ? error.code : String(error)),
    );
    advance(2 * HOUR);
    const left = await superAdminsAt(d, t, [owner.id, temp.id], clockNow());
    expect(left, `no SUPER_ADMIN is left (the removal answered: ${answer})`).not.toEqual([]);
  });

  it('refuses every way for the only SUPER_ADMIN to lose SUPER_ADMIN through the services', async () => {
    const created = await aTenantWith({}, deps);
    const t = (await merchantRepo(deps.store).get(created)) as Merchant;
    const superAdmin = (await listRoles(deps, t)).find((r) => r.name === 'SUPER_ADMIN') as Role;
    const owner = (await userRepo(deps.store).get(t, created.adminUserId)) as User;
    const admin = await aStoredUser(t, {}, deps);
    const adminRole = (await listRoles(deps, t)).find((r) => r.name === 'ADMIN') as Role;
    await assignRole(deps, t, principalOf(owner, new Date()), { userId: admin.id, roleId: adminRole.id }, client);
    const adminUser = (await userRepo(deps.store).get(t, admin.id)) as User;

    for (const principal of [principalOf(owner, new Date()), principalOf(adminUser, new Date()), apiKey]) {
      const attempts = [
        () => revokeRole(deps, t, principal, { userId: owner.id, roleId: superAdmin.id }, client),
        () =>
          assignRole(
            deps,
            t,
            principal,
            { userId: owner.id, roleId: superAdmin.id, expiresAt: new Date(Date.now() + HOUR).toISOString() },
            client,
          ),
        () => setUserStatus(deps, t, principal, owner.id, 'DISABLED', client),
        () => setUserStatus(deps, t, principal, owner.id, 'COMPROMISED', client),
        () => deleteUser(deps, t, principal, owner.id, client),
      ];
      for (const attempt of attempts) await expect(attempt()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
    expect(await superAdminsAt(deps, t, [owner.id], new Date())).toEqual([owner.id]);
  });
});
