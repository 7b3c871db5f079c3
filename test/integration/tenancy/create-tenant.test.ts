import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { argon2ParamsText, verifyPassword } from '#shared/auth/passwords.ts';
import { keys } from '#shared/store/keys.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { createTenant } from '#shared/tenancy/create-tenant.ts';
import { makeTestDeps } from '#test/support/deps.ts';

const deps = makeTestDeps();
const unique = () => `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

async function itemsOf(pk: string) {
  const { Items } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
    }),
  );
  return Items ?? [];
}

describe('createTenant', () => {
  it('creates the merchant with the CLI defaults and the allowed origins', async () => {
    const subdomain = unique();
    const created = await createTenant(deps, {
      name: 'Acme',
      adminEmail: '  Owner@Acme.TEST ',
      origins: ['http://localhost:5173'],
      subdomain,
    });
    expect(created).toMatchObject({ subdomain, adminEmail: 'owner@acme.test' });
    const merchant = await merchantRepo(deps.store).get({ app: created.app, mid: created.mid });
    expect(merchant).toMatchObject({
      id: created.id,
      name: 'Acme',
      publicApiKey: created.publicApiKey,
      loginMode: 'PASSWORD',
      signupMode: 'OPEN',
      totpAllowed: true,
      allowUserDisableTotp: true,
      allowedOrigins: ['http://localhost:5173'],
    });
  });

  it('seeds the four SYSTEM roles and a SUPER_ADMIN first admin whose password is stored only as argon2id', async () => {
    const created = await createTenant(deps, {
      name: 'Roles',
      adminEmail: 'a@roles.test',
      origins: [],
      subdomain: unique(),
    });
    const t = { app: created.app, mid: created.mid };
    const roles = (await itemsOf(keys.merchant(t).pk)).filter((i) => i.entity === 'ROLE');
    expect(roles.map((r) => [r.name, r.priority, r.owner]).sort()).toEqual([
      ['ADMIN', 1, 'SYSTEM'],
      ['DEFAULT', 99, 'SYSTEM'],
      ['SUPER_ADMIN', 0, 'SYSTEM'],
      ['USER', 50, 'SYSTEM'],
    ]);
    const userItems = await itemsOf(keys.user(t, created.adminUserId).pk);
    const profile = userItems.find((i) => i.sk === 'PROFILE');
    expect(profile).toMatchObject({ email: 'a@roles.test', status: 'ACTIVE', emailStatus: 'VALIDATED' });
    // At the deps' parameters (production's cost is held by test/unit/shared/auth/passwords.test.ts).
    expect(profile?.passwordHash).toMatch(
      new RegExp(`^\\$argon2id\\$v=19\\$${argon2ParamsText(deps.config.argon2)}\\$`),
    );
    expect(JSON.stringify(userItems)).not.toContain(created.adminPassword);
    expect(await verifyPassword(profile?.passwordHash, created.adminPassword)).toBe(true);
    const granted = Object.keys(profile?.grants ?? {}).map((roleId) => roles.find((r) => r.id === roleId)?.name);
    expect(granted.sort()).toEqual(['DEFAULT', 'SUPER_ADMIN']);
  });

  it('gives every tenant distinct app, mid and client key', async () => {
    const a = await createTenant(deps, { name: 'A', adminEmail: 'a@a.test', origins: [], subdomain: unique() });
    const b = await createTenant(deps, { name: 'B', adminEmail: 'a@a.test', origins: [], subdomain: unique() });
    expect(new Set([a.app, b.app, a.mid, b.mid, a.publicApiKey, b.publicApiKey]).size).toBe(6);
  });

  it('answers 409 ALREADY_EXISTS for a taken subdomain', async () => {
    const subdomain = unique();
    await createTenant(deps, { name: 'First', adminEmail: 'a@x.test', origins: [], subdomain });
    await expect(
      createTenant(deps, { name: 'Second', adminEmail: 'b@x.test', origins: [], subdomain }),
    ).rejects.toMatchObject({ code: 'ALREADY_EXISTS', status: 409 });
  });

  it('rejects bad input naming each field', async () => {
    await expect(
      createTenant(deps, {
        name: '',
        adminEmail: 'nope',
        origins: ['http://x.test/path'],
        loginMode: 'MAGIC' as never,
      }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: expect.arrayContaining([
        expect.objectContaining({ path: 'name' }),
        expect.objectContaining({ path: 'adminEmail' }),
        expect.objectContaining({ path: 'origins.0' }),
        expect.objectContaining({ path: 'loginMode' }),
      ]),
    });
  });
});
