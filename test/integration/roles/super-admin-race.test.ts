import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { assignRole, listRoles, revokeRole } from '#shared/admin/roles.ts';
import { deleteUser, setUserStatus } from '#shared/admin/users.ts';
import type { Principal } from '#shared/auth/principal.ts';
import { AppError } from '#shared/errors.ts';
import { effectiveRoles } from '#shared/roles/authority.ts';
import { keys } from '#shared/store/keys.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import type { User } from '#shared/users/types.ts';
import { aStoredUser } from '#test/support/admin.ts';
import { aTenantWith } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';

/**
 * The last SUPER_ADMIN cannot be removed. Two SUPER_ADMINs
 * removing each other both pass the authority check, which judges grants read
 * before either write (as the bearer check reads them at the start of each
 * request). Here the interleaving is made exact: both principals are taken
 * first, then the removals run one after the other. The second must be
 * refused as the same request a moment later would be, and one SUPER_ADMIN
 * must be left.
 */

const deps = makeTestDeps();
const client = { ip: '203.0.113.7', userAgent: 'vitest', language: 'en' as const };

/** What the bearer check makes of a user as stored now. */
async function principalOf(t: Merchant, userId: string): Promise<Principal> {
  const user = (await userRepo(deps.store).get(t, userId)) as User;
  const { names, authority } = effectiveRoles(user, new Date());
  // Signed in just now: the admin powers need a recent sign-in (recent-authentication.ts).
  return {
    kind: 'user',
    userId,
    sessionId: 'ses_test',
    roles: names,
    authority,
    user,
    authenticatedAt: new Date().toISOString(),
  };
}

/** A tenant with its first SUPER_ADMIN (`owner`) and `others` more. */
async function superAdmins(others: number) {
  const created = await aTenantWith({}, deps);
  const t = (await merchantRepo(deps.store).get(created)) as Merchant;
  const superAdminRole = (await listRoles(deps, t)).find((r) => r.name === 'SUPER_ADMIN')?.id as string;
  const ownerPrincipal = await principalOf(t, created.adminUserId);
  const ids = [created.adminUserId];
  for (let i = 0; i < others; i++) {
    const user = await aStoredUser(t, {}, deps);
    await assignRole(deps, t, ownerPrincipal, { userId: user.id, roleId: superAdminRole }, client);
    ids.push(user.id);
  }
  return { t, superAdminRole, ids };
}

/** Active holders of SUPER_ADMIN among `ids`, as stored. */
async function activeSuperAdmins(t: Merchant, ids: string[]) {
  const users = await Promise.all(ids.map((id) => userRepo(deps.store).get(t, id)));
  return users
    .filter((u): u is User => u?.status === 'ACTIVE' && effectiveRoles(u, new Date()).authority === 0)
    .map((u) => u.id);
}

/** 'done', or the AppError's `<status> <code>`. */
const outcome = (work: Promise<unknown>) =>
  work.then(
    () => 'done',
    (error: unknown) => {
      if (error instanceof AppError) return `${error.status} ${error.code}`;
      throw error;
    },
  );

const removals = {
  "revoking the other's SUPER_ADMIN role": {
    remove: (t: Merchant, by: Principal, userId: string, role: string) =>
      revokeRole(deps, t, by, { userId, roleId: role }, client),
    // The loser is still ACTIVE, but holds DEFAULT only.
    refused: '403 FORBIDDEN',
  },
  'disabling the other': {
    remove: (t: Merchant, by: Principal, userId: string) => setUserStatus(deps, t, by, userId, 'DISABLED', client),
    refused: '401 SESSION_REVOKED',
  },
  'flagging the other COMPROMISED': {
    remove: (t: Merchant, by: Principal, userId: string) => setUserStatus(deps, t, by, userId, 'COMPROMISED', client),
    refused: '401 SESSION_REVOKED',
  },
  'deleting the other': {
    remove: (t: Merchant, by: Principal, userId: string) => deleteUser(deps, t, by, userId, client),
    refused: '401 SESSION_REVOKED',
  },
};
type How = keyof typeof removals;
const ways = Object.keys(removals) as How[];

describe('two SUPER_ADMINs removing each other (services, DynamoDB Local)', () => {
  it.each(ways)('refuses the second of two SUPER_ADMINs %s with authority read before either write', async (how) => {
    const { remove, refused } = removals[how];
    const { t, superAdminRole, ids } = await superAdmins(1);
    const [a, b] = ids as [string, string];
    // Both checks read the grants first: each sees the other as a fellow SUPER_ADMIN.
    const [byA, byB] = await Promise.all([principalOf(t, a), principalOf(t, b)]);

    expect(await outcome(remove(t, byA, b, superAdminRole))).toBe('done');
    expect(await outcome(remove(t, byB, a, superAdminRole))).toBe(refused);

    expect(await activeSuperAdmins(t, ids)).toEqual([a]);
    // The refused removal wrote nothing: A is as it was.
    const left = (await userRepo(deps.store).get(t, a)) as User;
    expect(left.status).toBe('ACTIVE');
    expect(Object.hasOwn(left.grants, superAdminRole)).toBe(true);
  });

  it.each(ways)('leaves exactly one SUPER_ADMIN when two %s at once, over several rounds', async (how) => {
    const { remove, refused } = removals[how];
    for (let round = 0; round < 4; round++) {
      const { t, superAdminRole, ids } = await superAdmins(1);
      const [a, b] = ids as [string, string];
      const [byA, byB] = await Promise.all([principalOf(t, a), principalOf(t, b)]);

      const answers = await Promise.all([
        outcome(remove(t, byA, b, superAdminRole)),
        outcome(remove(t, byB, a, superAdminRole)),
      ]);

      expect(answers.sort()).toEqual(['done', refused].sort());
      expect(await activeSuperAdmins(t, ids)).toHaveLength(1);
    }
  });

  it('refuses a SUPER_ADMIN disabled meanwhile (still holding the grant) 401 SESSION_REVOKED, and changes nothing', async () => {
    const { t, superAdminRole, ids } = await superAdmins(2);
    const [a, b, c] = ids as [string, string, string];
    const byB = await principalOf(t, b);
    expect(await outcome(setUserStatus(deps, t, await principalOf(t, c), b, 'DISABLED', client))).toBe('done');

    expect(await outcome(revokeRole(deps, t, byB, { userId: a, roleId: superAdminRole }, client))).toBe(
      '401 SESSION_REVOKED',
    );
    expect(await outcome(deleteUser(deps, t, byB, a, client))).toBe('401 SESSION_REVOKED');
    expect(await activeSuperAdmins(t, ids)).toEqual([a, c]);
  });

  it('refuses a SUPER_ADMIN whose grant has expired meanwhile 403 FORBIDDEN, and changes nothing', async () => {
    const { t, superAdminRole, ids } = await superAdmins(1);
    const [a, b] = ids as [string, string];
    const byB = await principalOf(t, b);
    // SUPER_ADMIN is never given with an end; the check still honours one, as every authority check does.
    await deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.tableName,
        Key: keys.user(t, b),
        UpdateExpression: 'SET grants.#role.expiresAt = :past',
        ExpressionAttributeNames: { '#role': superAdminRole },
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );

    expect(await outcome(setUserStatus(deps, t, byB, a, 'DISABLED', client))).toBe('403 FORBIDDEN');
    expect(await activeSuperAdmins(t, ids)).toEqual([a]);
  });

  it('still lets a SUPER_ADMIN remove another when nothing raced: 204s, and the one acting remains', async () => {
    const { t, superAdminRole, ids } = await superAdmins(3);
    const [a, b, c, d] = ids as [string, string, string, string];
    const byA = await principalOf(t, a);
    expect(await outcome(revokeRole(deps, t, byA, { userId: b, roleId: superAdminRole }, client))).toBe('done');
    expect(await outcome(setUserStatus(deps, t, byA, c, 'DISABLED', client))).toBe('done');
    expect(await outcome(deleteUser(deps, t, byA, d, client))).toBe('done');
    expect(await activeSuperAdmins(t, ids)).toEqual([a]);
    expect(await userRepo(deps.store).get(t, d)).toBeNull();
  });
});
