import { describe, expect, it } from 'vitest';
import { userRepo } from '#shared/store/user-repo.ts';
import { type AdminTenant, adminApi, aRoleName, aStoredUser } from '#test/support/admin.ts';
import { aUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { type Answer, expectInvalid, expectProblem, isoTimestamp } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();
const deps = makeTestDeps();
const {
  call,
  aSuperAdmin,
  aSignedInUser,
  anAdmin,
  listRoles,
  assign,
  revoke,
  grant,
  aRole,
  getUser,
  setStatus,
  activityOf,
  bearer,
} = adminApi(() => api.url);

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const roleNames = (user: { roles: { name: string }[] }) => user.roles.map((r) => r.name).sort();
const deleteUser = (by: { headers: Record<string, string> }, id: string) => call('DELETE', `/users/${id}`, by.headers);
const resetTotp = (by: { headers: Record<string, string> }, id: string) =>
  call('DELETE', `/users/${id}/totp`, by.headers);

/** The SYSTEM role ids of a tenant, by name. */
async function systemRoles(admin: AdminTenant) {
  const roles = await listRoles(admin);
  const id = (name: string) => roles.find((r) => r.name === name)?.id ?? `missing ${name}`;
  return { SUPER_ADMIN: id('SUPER_ADMIN'), ADMIN: id('ADMIN'), USER: id('USER'), DEFAULT: id('DEFAULT') };
}

/** Polls `probe` until it answers `status`, for at most `ms`. */
async function eventually(probe: () => Promise<Answer>, status: number, ms: number) {
  const deadline = Date.now() + ms;
  let last = await probe();
  while (last.status !== status && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await probe();
  }
  return last;
}

describe('GET /roles', () => {
  it('returns the four SYSTEM roles (app and mid null, not custom), then the MERCHANT roles', async () => {
    const admin = await aSuperAdmin();
    const gardener = await aRole(admin, 20, aRoleName('Gardener'));
    const res = await call('GET', '/roles', admin.headers);
    expect(res.status).toBe(200);
    const system = (name: string, priority: number) => ({
      id: expect.stringMatching(/^rol_/),
      name,
      app: null,
      mid: null,
      custom: false,
      priority,
      owner: 'SYSTEM',
      description: null,
      createdAt: isoTimestamp,
    });
    expect(res.body).toEqual([
      system('SUPER_ADMIN', 0),
      system('ADMIN', 1),
      { ...gardener, app: admin.tenant.app, mid: admin.tenant.mid, custom: true, owner: 'MERCHANT' },
      system('USER', 50),
      system('DEFAULT', 99),
    ]);
    expect(new Set(res.body.map((r: { id: string }) => r.id)).size).toBe(5);
  });

  it("lists only the caller's tenant's MERCHANT roles, and other system role ids", async () => {
    const admin = await aSuperAdmin();
    const other = await aSuperAdmin();
    const theirs = await aRole(other, 10);
    const mine = await listRoles(admin);
    expect(mine.map((r) => r.id)).not.toContain(theirs.id);
    const theirIds = (await listRoles(other)).map((r) => r.id);
    for (const role of mine) expect(theirIds).not.toContain(role.id);
  });
});

describe('POST /roles', () => {
  it('returns 201 with the RoleResponse, owner MERCHANT in its tenant, custom by default, which GET /roles then lists', async () => {
    const admin = await aSuperAdmin();
    const name = aRoleName('Gardener');
    const res = await call('POST', '/roles', admin.headers, { name, priority: 2, description: 'Waters plants' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^rol_/),
      name,
      app: admin.tenant.app,
      mid: admin.tenant.mid,
      custom: true,
      priority: 2,
      owner: 'MERCHANT',
      description: 'Waters plants',
      createdAt: isoTimestamp,
    });
    expect(await listRoles(admin)).toContainEqual(res.body);
  });

  it.each([true, false])('keeps custom: %j as created', async (custom) => {
    const admin = await aSuperAdmin();
    const res = await call('POST', '/roles', admin.headers, { name: aRoleName(), priority: 30, custom });
    expect(res.status).toBe(201);
    expect(res.body.custom).toBe(custom);
    expect((await listRoles(admin)).find((role) => role.id === res.body.id)?.custom).toBe(custom);
  });

  it.each([null, 'yes', 1])('returns 400 VALIDATION_FAILED for custom %j', async (custom) => {
    const admin = await aSuperAdmin();
    expectInvalid(await call('POST', '/roles', admin.headers, { name: aRoleName(), priority: 30, custom }), 'custom');
    expect(await listRoles(admin)).toHaveLength(4);
  });

  it.each([0, 1, -1, 1.5, '5'])('returns 400 VALIDATION_FAILED for priority %j', async (priority) => {
    const admin = await aSuperAdmin();
    expectInvalid(await call('POST', '/roles', admin.headers, { name: aRoleName(), priority }), 'priority');
    expect(await listRoles(admin)).toHaveLength(4);
  });

  it.each([
    ['the same name', (n: string) => n],
    ['the name in upper case', (n: string) => n.toUpperCase()],
    ['the name in lower case', (n: string) => n.toLowerCase()],
  ])('returns 409 ALREADY_EXISTS for %s', async (_, variant) => {
    const admin = await aSuperAdmin();
    const existing = await aRole(admin, 10, aRoleName('Gardener'));
    const res = await call('POST', '/roles', admin.headers, { name: variant(existing.name), priority: 30 });
    expectProblem(res, 409, 'ALREADY_EXISTS');
    expect((await listRoles(admin)).filter((r) => r.owner === 'MERCHANT')).toEqual([existing]);
  });

  it.each(['admin', 'Super_Admin', 'DEFAULT', 'user'])(
    'returns 409 ALREADY_EXISTS for the SYSTEM name %s',
    async (name) => {
      const admin = await aSuperAdmin();
      expectProblem(await call('POST', '/roles', admin.headers, { name, priority: 10 }), 409, 'ALREADY_EXISTS');
    },
  );

  it('lets another tenant use the same name', async () => {
    const name = aRoleName('Shared');
    await aRole(await aSuperAdmin(), 10, name);
    await aRole(await aSuperAdmin(), 10, name);
  });

  it("returns 403 TENANT_MISMATCH for a body naming another tenant's app or mid, and takes the caller's own", async () => {
    const admin = await aSuperAdmin();
    const other = await aSuperAdmin();
    const { app, mid } = admin.tenant;
    for (const named of [{ app: other.tenant.app }, { mid: other.tenant.mid }, { app, mid: other.tenant.mid }]) {
      const res = await call('POST', '/roles', admin.headers, { name: aRoleName(), priority: 10, ...named });
      expectProblem(res, 403, 'TENANT_MISMATCH');
    }
    expect(await listRoles(admin)).toHaveLength(4);
    expect(await listRoles(other)).toHaveLength(4);
    const ok = await call('POST', '/roles', admin.headers, { name: aRoleName(), priority: 10, app, mid });
    expect(ok.status).toBe(201);
  });
});

describe('DELETE /roles/{id}', () => {
  it.each(['SUPER_ADMIN', 'ADMIN', 'USER', 'DEFAULT'] as const)(
    'returns 403 FORBIDDEN for the SYSTEM role %s',
    async (name) => {
      const admin = await aSuperAdmin();
      const ids = await systemRoles(admin);
      expectProblem(await call('DELETE', `/roles/${ids[name]}`, admin.headers), 403, 'FORBIDDEN');
      expect((await listRoles(admin)).map((r) => r.name)).toContain(name);
    },
  );

  it("returns 204 for a MERCHANT role; its grants stay listed in the holder's roles", async () => {
    const admin = await aSuperAdmin();
    const role = await aRole(admin, 7);
    const holder = await aStoredUser(admin.tenant);
    await grant(admin, holder.id, role.id);

    const res = await call('DELETE', `/roles/${role.id}`, admin.headers);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await listRoles(admin)).map((r) => r.id)).not.toContain(role.id);
    expect((await getUser(admin, holder.id)).body.roles).toContainEqual({
      roleId: role.id,
      name: role.name,
      priority: 7,
      expiresAt: null,
    });
    // The name is free again, and the deleted role can no longer be given.
    expect((await call('POST', '/roles', admin.headers, { name: role.name, priority: 8 })).status).toBe(201);
    expectProblem(await assign(admin, { userId: holder.id, roleId: role.id }), 404, 'NOT_FOUND');
    // Its grant can still be taken back.
    expect((await revoke(admin, { userId: holder.id, roleId: role.id })).status).toBe(204);
  });

  it("returns 404 NOT_FOUND for an unknown role and for another tenant's role", async () => {
    const admin = await aSuperAdmin();
    const other = await aSuperAdmin();
    const theirs = await aRole(other, 10);
    expectProblem(await call('DELETE', '/roles/rol_00000000000000000000', admin.headers), 404, 'NOT_FOUND');
    expectProblem(await call('DELETE', '/roles/nope', admin.headers), 404, 'NOT_FOUND');
    expectProblem(await call('DELETE', `/roles/${theirs.id}`, admin.headers), 404, 'NOT_FOUND');
    expect((await listRoles(other)).map((r) => r.id)).toContain(theirs.id);
  });
});

describe('POST /roles/assign', () => {
  it('returns 204; GET /users/{id} lists the role, and ROLE_ASSIGNED is recorded by the admin', async () => {
    const admin = await aSuperAdmin();
    const role = await aRole(admin, 10);
    const user = await aStoredUser(admin.tenant);
    const res = await assign(admin, { userId: user.id, roleId: role.id });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await getUser(admin, user.id)).body.roles).toEqual([
      { roleId: role.id, name: role.name, priority: 10, expiresAt: null },
      { roleId: expect.any(String), name: 'DEFAULT', priority: 99, expiresAt: null },
    ]);
    expect(await activityOf(admin, user.id)).toContainEqual(
      expect.objectContaining({ type: 'ROLE_ASSIGNED', actorId: admin.userId }),
    );
  });

  it('keeps an expiresAt in the future and lists it', async () => {
    const admin = await aSuperAdmin();
    const role = await aRole(admin, 10);
    const user = await aStoredUser(admin.tenant);
    const expiresAt = inSeconds(3600);
    expect((await assign(admin, { userId: user.id, roleId: role.id, expiresAt })).status).toBe(204);
    expect((await getUser(admin, user.id)).body.roles).toContainEqual({
      roleId: role.id,
      name: role.name,
      priority: 10,
      expiresAt,
    });
  });

  it.each([
    ['in the past', () => inSeconds(-60)],
    ['now-ish (a second ago)', () => inSeconds(-1)],
    ['not a timestamp', () => 'tomorrow'],
  ])('returns 400 VALIDATION_FAILED for an expiresAt %s and grants nothing', async (_, expiresAt) => {
    const admin = await aSuperAdmin();
    const role = await aRole(admin, 10);
    const user = await aStoredUser(admin.tenant);
    expectInvalid(await assign(admin, { userId: user.id, roleId: role.id, expiresAt: expiresAt() }), 'expiresAt');
    expect(roleNames((await getUser(admin, user.id)).body)).toEqual(['DEFAULT']);
  });

  it('gives an expired grant no effect: an ADMIN grant past its expiresAt answers 403, and stays listed', async () => {
    const admin = await aSuperAdmin();
    const ids = await systemRoles(admin);
    const user = await aSignedInUser(admin.tenant);
    const expiresAt = inSeconds(2);
    await grant(admin, user.userId, ids.ADMIN, expiresAt);
    const adminCall = () => call('GET', '/users', user.headers);
    expect((await adminCall()).status).toBe(200);

    const after = await eventually(adminCall, 403, 3500);
    expectProblem(after, 403, 'FORBIDDEN');
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    expect((await getUser(admin, user.userId)).body.roles).toContainEqual({
      roleId: ids.ADMIN,
      name: 'ADMIN',
      priority: 1,
      expiresAt,
    });
    // Nor does it count as authority over others: the expired ADMIN is a plain user to a real ADMIN.
    const realAdmin = await anAdmin(admin);
    expect((await setStatus(realAdmin, user.userId, 'DISABLED')).status).toBe(200);
  });

  it('returns 404 NOT_FOUND for an unknown user or role, and for ids of another tenant', async () => {
    const admin = await aSuperAdmin();
    const other = await aSuperAdmin();
    const role = await aRole(admin, 10);
    const user = await aStoredUser(admin.tenant);
    const theirRole = await aRole(other, 10);
    const theirUser = await aStoredUser(other.tenant);
    for (const body of [
      { userId: 'usr_00000000000000000000', roleId: role.id },
      { userId: user.id, roleId: 'rol_00000000000000000000' },
      { userId: theirUser.id, roleId: role.id },
      { userId: user.id, roleId: theirRole.id },
    ]) {
      expectProblem(await assign(admin, body), 404, 'NOT_FOUND');
    }
    expect(roleNames((await getUser(admin, user.id)).body)).toEqual(['DEFAULT']);
    expect(roleNames((await getUser(other, theirUser.id)).body)).toEqual(['DEFAULT']);
  });

  it("returns 403 TENANT_MISMATCH for a body naming another tenant's app or mid, and takes the caller's own", async () => {
    const admin = await aSuperAdmin();
    const other = await aSuperAdmin();
    const role = await aRole(admin, 10);
    const user = await aStoredUser(admin.tenant);
    const body = { userId: user.id, roleId: role.id };
    expectProblem(await assign(admin, { ...body, app: other.tenant.app }), 403, 'TENANT_MISMATCH');
    expectProblem(await assign(admin, { ...body, mid: other.tenant.mid }), 403, 'TENANT_MISMATCH');
    expect(roleNames((await getUser(admin, user.id)).body)).toEqual(['DEFAULT']);
    const own = { ...body, app: admin.tenant.app, mid: admin.tenant.mid };
    expect((await assign(admin, own)).status).toBe(204);
  });
});

describe('POST /roles/revoke', () => {
  it('returns 204, the role is gone from the user, and ROLE_REVOKED is recorded by the admin', async () => {
    const admin = await aSuperAdmin();
    const role = await aRole(admin, 10);
    const user = await aStoredUser(admin.tenant);
    await grant(admin, user.id, role.id);
    const res = await revoke(admin, { userId: user.id, roleId: role.id });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(roleNames((await getUser(admin, user.id)).body)).toEqual(['DEFAULT']);
    expect(await activityOf(admin, user.id)).toContainEqual(
      expect.objectContaining({ type: 'ROLE_REVOKED', actorId: admin.userId }),
    );
  });

  it('returns 404 NOT_FOUND for a role the user does not hold (or no longer holds)', async () => {
    const admin = await aSuperAdmin();
    const role = await aRole(admin, 10);
    const user = await aStoredUser(admin.tenant);
    expectProblem(await revoke(admin, { userId: user.id, roleId: role.id }), 404, 'NOT_FOUND');
    await grant(admin, user.id, role.id);
    expect((await revoke(admin, { userId: user.id, roleId: role.id })).status).toBe(204);
    expectProblem(await revoke(admin, { userId: user.id, roleId: role.id }), 404, 'NOT_FOUND');
    expectProblem(await revoke(admin, { userId: user.id, roleId: '__proto__' }), 404, 'NOT_FOUND');
  });

  it("returns 403 TENANT_MISMATCH for a body naming another tenant's app or mid", async () => {
    const admin = await aSuperAdmin();
    const other = await aSuperAdmin();
    const role = await aRole(admin, 10);
    const user = await aStoredUser(admin.tenant);
    await grant(admin, user.id, role.id);
    const body = { userId: user.id, roleId: role.id };
    expectProblem(await revoke(admin, { ...body, app: other.tenant.app }), 403, 'TENANT_MISMATCH');
    expectProblem(await revoke(admin, { ...body, mid: other.tenant.mid }), 403, 'TENANT_MISMATCH');
    expect(roleNames((await getUser(admin, user.id)).body)).toContain(role.name);
    expect((await revoke(admin, { ...body, app: admin.tenant.app, mid: admin.tenant.mid })).status).toBe(204);
  });
});

describe('authority: an ADMIN', () => {
  it('cannot assign ADMIN or SUPER_ADMIN (403 FORBIDDEN)', async () => {
    const owner = await aSuperAdmin();
    const ids = await systemRoles(owner);
    const admin = await anAdmin(owner);
    const user = await aStoredUser(owner.tenant);
    for (const roleId of [ids.ADMIN, ids.SUPER_ADMIN]) {
      expectProblem(await assign(admin, { userId: user.id, roleId }), 403, 'FORBIDDEN');
    }
    expect(roleNames((await getUser(owner, user.id)).body)).toEqual(['DEFAULT']);
  });

  it('cannot disable, flag, delete, reset TOTP of, assign to or revoke from another ADMIN (403 FORBIDDEN)', async () => {
    const owner = await aSuperAdmin();
    const ids = await systemRoles(owner);
    const admin = await anAdmin(owner);
    const peer = await anAdmin(owner);
    const role = await aRole(owner, 10);
    const before = (await getUser(owner, peer.userId)).body;
    for (const res of [
      await setStatus(admin, peer.userId, 'DISABLED'),
      await setStatus(admin, peer.userId, 'COMPROMISED'),
      await deleteUser(admin, peer.userId),
      await resetTotp(admin, peer.userId),
      await assign(admin, { userId: peer.userId, roleId: role.id }),
      await revoke(admin, { userId: peer.userId, roleId: ids.ADMIN }),
      await revoke(admin, { userId: peer.userId, roleId: ids.DEFAULT }),
    ]) {
      expectProblem(res, 403, 'FORBIDDEN');
    }
    expect((await getUser(owner, peer.userId)).body).toEqual(before);
    expect((await call('GET', '/users', peer.headers)).status).toBe(200);
  });

  it('cannot act on the SUPER_ADMIN (403 FORBIDDEN)', async () => {
    const owner = await aSuperAdmin();
    const ids = await systemRoles(owner);
    const admin = await anAdmin(owner);
    for (const res of [
      await setStatus(admin, owner.userId, 'DISABLED'),
      await deleteUser(admin, owner.userId),
      await revoke(admin, { userId: owner.userId, roleId: ids.SUPER_ADMIN }),
    ]) {
      expectProblem(res, 403, 'FORBIDDEN');
    }
  });

  it('acts on plain users: disables, assigns MERCHANT roles of priority 2 or more, revokes them, deletes', async () => {
    const owner = await aSuperAdmin();
    const admin = await anAdmin(owner);
    const user = await aUser(owner.tenant, { totp: true });
    const lowest = await aRole(owner, 2);
    const other = await aRole(admin, 40);
    expect((await assign(admin, { userId: user.id, roleId: lowest.id })).status).toBe(204);
    expect((await assign(admin, { userId: user.id, roleId: other.id })).status).toBe(204);
    expect(roleNames((await getUser(admin, user.id)).body)).toEqual([lowest.name, other.name, 'DEFAULT'].sort());
    expect((await revoke(admin, { userId: user.id, roleId: other.id })).status).toBe(204);
    expect((await setStatus(admin, user.id, 'DISABLED')).status).toBe(200);
    expect((await setStatus(admin, user.id, 'ACTIVE')).status).toBe(200);
    expect((await resetTotp(admin, user.id)).status).toBe(204);
    expect(await activityOf(owner, user.id)).toContainEqual(
      expect.objectContaining({ type: 'ROLE_ASSIGNED', actorId: admin.userId }),
    );
    expect((await deleteUser(admin, user.id)).status).toBe(204);
  });

  it('acts on a holder of a MERCHANT role (priority 2): that role is still weaker than ADMIN', async () => {
    const owner = await aSuperAdmin();
    const admin = await anAdmin(owner);
    const user = await aStoredUser(owner.tenant);
    await grant(owner, user.id, (await aRole(owner, 2)).id);
    expect((await setStatus(admin, user.id, 'DISABLED')).status).toBe(200);
  });

  it('cannot act on themselves (403 FORBIDDEN)', async () => {
    const owner = await aSuperAdmin();
    const ids = await systemRoles(owner);
    const admin = await anAdmin(owner);
    const role = await aRole(owner, 10);
    for (const res of [
      await setStatus(admin, admin.userId, 'DISABLED'),
      await deleteUser(admin, admin.userId),
      await assign(admin, { userId: admin.userId, roleId: role.id }),
      await revoke(admin, { userId: admin.userId, roleId: ids.ADMIN }),
    ]) {
      expectProblem(res, 403, 'FORBIDDEN');
    }
    expect(roleNames((await getUser(owner, admin.userId)).body)).toEqual(['ADMIN', 'DEFAULT']);
  });
});

describe('authority: the SUPER_ADMIN', () => {
  it('may do all to others: assign ADMIN and SUPER_ADMIN, revoke them, disable and delete an ADMIN', async () => {
    const owner = await aSuperAdmin();
    const ids = await systemRoles(owner);
    const user = await aStoredUser(owner.tenant);
    expect((await assign(owner, { userId: user.id, roleId: ids.ADMIN })).status).toBe(204);
    expect((await assign(owner, { userId: user.id, roleId: ids.SUPER_ADMIN })).status).toBe(204);
    expect(roleNames((await getUser(owner, user.id)).body)).toEqual(['ADMIN', 'DEFAULT', 'SUPER_ADMIN']);
    // Another SUPER_ADMIN is within reach too.
    expect((await setStatus(owner, user.id, 'DISABLED')).status).toBe(200);
    expect((await setStatus(owner, user.id, 'ACTIVE')).status).toBe(200);
    expect((await revoke(owner, { userId: user.id, roleId: ids.SUPER_ADMIN })).status).toBe(204);

    const admin = await aUser(owner.tenant, { totp: true });
    await grant(owner, admin.id, ids.ADMIN);
    expect((await resetTotp(owner, admin.id)).status).toBe(204);
    expect((await getUser(owner, admin.id)).body.totpEnabled).toBe(false);
    expect((await setStatus(owner, admin.id, 'COMPROMISED')).status).toBe(200);
    expect((await deleteUser(owner, admin.id)).status).toBe(204);
  });

  it('cannot disable, flag or delete themselves, nor revoke their own SUPER_ADMIN (403 FORBIDDEN)', async () => {
    const owner = await aSuperAdmin();
    const ids = await systemRoles(owner);
    for (const res of [
      await setStatus(owner, owner.userId, 'DISABLED'),
      await setStatus(owner, owner.userId, 'COMPROMISED'),
      await setStatus(owner, owner.userId, 'ACTIVE'),
      await deleteUser(owner, owner.userId),
      await revoke(owner, { userId: owner.userId, roleId: ids.SUPER_ADMIN }),
      await assign(owner, { userId: owner.userId, roleId: ids.ADMIN }),
      await resetTotp(owner, owner.userId),
    ]) {
      expectProblem(res, 403, 'FORBIDDEN');
    }
    expect((await call('GET', '/users', owner.headers)).status).toBe(200);
  });
});

describe('the last SUPER_ADMIN', () => {
  it('cannot lose SUPER_ADMIN through any admin route, whoever asks', async () => {
    const owner = await aSuperAdmin();
    const ids = await systemRoles(owner);
    const admin = await anAdmin(owner);
    const callers: { headers: Record<string, string> }[] = [owner, admin];
    const key = await call('POST', `/merchants/${owner.tenant.id}/api-keys`, owner.headers, { label: 'last' });
    if (key.status === 201) callers.push({ headers: { ...owner.tenant.headers, 'x-api-key': key.body.apiKey } });

    for (const by of callers) {
      for (const res of [
        await revoke(by, { userId: owner.userId, roleId: ids.SUPER_ADMIN }),
        // Re-granting it with an expiry would remove it later.
        await assign(by, { userId: owner.userId, roleId: ids.SUPER_ADMIN, expiresAt: inSeconds(60) }),
        await setStatus(by, owner.userId, 'DISABLED'),
        await setStatus(by, owner.userId, 'COMPROMISED'),
        await deleteUser(by, owner.userId),
      ]) {
        expectProblem(res, 403, 'FORBIDDEN');
      }
    }
    const after = (await getUser(owner, owner.userId)).body;
    expect(after.status).toBe('ACTIVE');
    expect(after.roles).toContainEqual({ roleId: ids.SUPER_ADMIN, name: 'SUPER_ADMIN', priority: 0, expiresAt: null });
    expect((await call('GET', '/users', owner.headers)).status).toBe(200);
  });

  it('is never given with an end: a SUPER_ADMIN grant with expiresAt is refused, so no lapsing one can remove the others', async () => {
    const owner = await aSuperAdmin();
    const ids = await systemRoles(owner);
    const temporary = await aSignedInUser(owner.tenant);
    const refused = await assign(owner, { userId: temporary.userId, roleId: ids.SUPER_ADMIN, expiresAt: inSeconds(2) });
    expectProblem(refused, 400, 'VALIDATION_FAILED');
    expect(refused.body.errors).toContainEqual({ path: 'expiresAt', message: 'SUPER_ADMIN is given without an end' });
    // The would-be temporary SUPER_ADMIN holds nothing of it and cannot touch the owner.
    expectProblem(await revoke(temporary, { userId: owner.userId, roleId: ids.SUPER_ADMIN }), 403, 'FORBIDDEN');
    const after = (await getUser(owner, owner.userId)).body;
    expect(after.roles).toContainEqual({ roleId: ids.SUPER_ADMIN, name: 'SUPER_ADMIN', priority: 0, expiresAt: null });
  });
});

describe('concurrency', () => {
  it('keeps all of 10 concurrent assigns of different roles to one user', async () => {
    const owner = await aSuperAdmin();
    const user = await aStoredUser(owner.tenant);
    const roles = await Promise.all(Array.from({ length: 10 }, (_, i) => aRole(owner, 10 + i)));
    const results = await Promise.all(roles.map((role) => assign(owner, { userId: user.id, roleId: role.id })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(204));
    const listed = (await getUser(owner, user.id)).body.roles.map((r: { roleId: string }) => r.roleId);
    for (const role of roles) expect(listed).toContain(role.id);
    expect(listed).toHaveLength(11);
    const stored = await userRepo(deps.store).get(owner.tenant, user.id);
    expect(Object.keys(stored?.grants ?? {}).sort()).toEqual([...listed].sort());
  });
});

describe('a signed-in plain user', () => {
  it('gets 403 FORBIDDEN from the role routes', async () => {
    const owner = await aSuperAdmin();
    const user = await aSignedInUser(owner.tenant);
    const role = await aRole(owner, 10);
    expectProblem(await call('GET', '/roles', user.headers), 403, 'FORBIDDEN');
    expectProblem(await call('POST', '/roles', user.headers, { name: aRoleName(), priority: 10 }), 403, 'FORBIDDEN');
    expectProblem(await assign(user, { userId: user.userId, roleId: role.id }), 403, 'FORBIDDEN');
    // Its own token still works where it may go.
    expect((await call('GET', '/users/me', bearer(owner.tenant, user.token))).status).toBe(200);
  });
});
