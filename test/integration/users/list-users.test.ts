import { createHash } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createRole } from '#shared/admin/roles.ts';
import { listUsers } from '#shared/admin/users.ts';
import type { Principal } from '#shared/auth/principal.ts';
import { type Deps, depsWithStore } from '#shared/deps.ts';
import { grantOf } from '#shared/roles/authority.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import type { Merchant, Role } from '#shared/tenancy/types.ts';
import type { User } from '#shared/users/types.ts';
import { aRoleName, aUserRecord, putUsers, USER_RESPONSE_FIELDS } from '#test/support/admin.ts';
import { aTenantWith } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';

/** Deps that count the Query requests sent to the table. */
function countingQueries(deps: Deps) {
  const counter = { queries: 0 };
  const doc = deps.store.doc;
  const send = ((command: unknown) => {
    if (command instanceof QueryCommand) counter.queries++;
    return doc.send(command as never);
  }) as typeof doc.send;
  // The repositories are rebuilt on the counting client, as depsWithStore does for a request's store.
  return { deps: depsWithStore(deps, { ...deps.store, doc: { send } as unknown as typeof doc }), counter };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('listUsers (DynamoDB Local)', () => {
  it('returns all of 1,000 users (and the admin) from several Query pages', async () => {
    const deps = makeTestDeps();
    const created = await aTenantWith({}, deps);
    const tenant = (await merchantRepo(deps.store).get(created)) as Merchant;
    const superAdmin: Principal = {
      kind: 'user',
      userId: created.adminUserId,
      sessionId: 's',
      roles: [],
      authority: 0,
    };
    const merchantRoles = [] as Role[];
    for (let i = 0; i < 4; i++) {
      merchantRoles.push(
        (await createRole(deps, tenant, superAdmin, { name: aRoleName('R'), priority: 10 + i })) as Role,
      );
    }

    // Profiles as a real tenant holds them: names, a password hash, TOTP with 10 backup codes, a few roles.
    const template = await aUserRecord(tenant, {}, deps);
    const at = new Date().toISOString();
    const users: User[] = Array.from({ length: 1000 }, (_, i) => ({
      ...template,
      id: `usr_${i.toString(36).padStart(20, '0')}`,
      email: `member-${i}-${created.app}@shop.test`,
      firstName: `Member ${i}`,
      lastName: 'Lindqvist-Okonkwo',
      phone: '+44 20 7946 0018',
      passwordHash: `$argon2id$v=19$m=19456,t=2,p=1$${sha256(`salt${i}`).slice(0, 22)}$${sha256(`hash${i}`).slice(0, 43)}`,
      totpEnabled: true,
      totpSecret: `v1.${sha256(`secret${i}`)}${sha256(`iv${i}`)}`,
      backupCodes: Array.from({ length: 10 }, (__, j) => sha256(`code${i}-${j}`)),
      grants: {
        ...template.grants,
        ...Object.fromEntries(merchantRoles.map((role) => [role.id, grantOf(role, at, created.adminUserId)])),
      },
    }));
    await putUsers(deps, tenant, users);

    const { deps: counted, counter } = countingQueries(deps);
    const listed = await listUsers(counted, tenant);
    expect(counter.queries).toBeGreaterThanOrEqual(2);

    expect(listed).toHaveLength(1001);
    const ids = listed.map((u) => u.id);
    expect(new Set(ids).size).toBe(1001);
    expect([...ids].sort()).toEqual([...users.map((u) => u.id), created.adminUserId].sort());
    for (const user of listed) expect(Object.keys(user).sort()).toEqual(USER_RESPONSE_FIELDS);
    expect(listed.find((u) => u.id === users[999]?.id)).toMatchObject({
      email: users[999]?.email,
      firstName: 'Member 999',
      totpEnabled: true,
      status: 'ACTIVE',
    });
    expect(listed.find((u) => u.id === users[0]?.id)?.roles).toHaveLength(5);
    expect(JSON.stringify(listed)).not.toMatch(/argon2|backupCodes|totpSecret|passwordHash/);
  }, 60_000);

  it('lists no user of another tenant', async () => {
    const deps = makeTestDeps();
    const [a, b] = await Promise.all([aTenantWith({}, deps), aTenantWith({}, deps)]);
    const tenantA = (await merchantRepo(deps.store).get(a)) as Merchant;
    const tenantB = (await merchantRepo(deps.store).get(b)) as Merchant;
    await putUsers(deps, tenantB, await Promise.all([1, 2, 3].map(() => aUserRecord(tenantB, {}, deps))));
    expect((await listUsers(deps, tenantA)).map((u) => u.id)).toEqual([a.adminUserId]);
    expect(await listUsers(deps, tenantB)).toHaveLength(4);
  });
});
