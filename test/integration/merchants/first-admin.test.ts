import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { deleteUser } from '#shared/admin/users.ts';
import type { Principal } from '#shared/auth/principal.ts';
import type { Deps } from '#shared/deps.ts';
import { getMyMerchant, updateMerchant } from '#shared/merchants/service.ts';
import { grantOf } from '#shared/roles/authority.ts';
import { keys } from '#shared/store/keys.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { createTenant } from '#shared/tenancy/create-tenant.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { aStoredUser } from '#test/support/admin.ts';
import { makeTestDeps } from '#test/support/deps.ts';

/**
 * MerchantResponse.adminUserId: the first admin,
 * made with the tenant. New tenants keep it from their creation; tenants
 * stored before it was kept get it found and recorded on their first merchant
 * read, once.
 */

let counter = 0;
const unique = () => `${process.pid}-${Date.now().toString(36)}-${++counter}`;

async function aTenant(deps: Deps) {
  const created = await createTenant(deps, {
    name: `Shop ${unique()}`,
    adminEmail: `owner-${unique()}@shop.test`,
    origins: ['https://shop.example'],
    subdomain: `fa-${unique()}`,
  });
  return created;
}

/** Takes `adminUserId` off the stored merchant, as a tenant made before it was kept has it. */
async function asStoredBefore(deps: Deps, tenant: { app: string; mid: string }): Promise<Merchant> {
  await deps.store.doc.send(
    new UpdateCommand({
      TableName: deps.store.tableName,
      Key: keys.merchant(tenant),
      UpdateExpression: 'REMOVE adminUserId',
    }),
  );
  const merchant = await merchantRepo(deps.store).get(tenant);
  if (!merchant) throw new Error('no merchant');
  return merchant;
}

/** A SUPER_ADMIN registered a second after the tenant was made. */
async function aLaterSuperAdmin(deps: Deps, tenant: { app: string; mid: string }) {
  const later = makeTestDeps({ clock: { now: () => new Date(Date.now() + 1000) } });
  const user = await aStoredUser(tenant, {}, later);
  const { Item: role } = await deps.store.doc.send(
    new GetCommand({
      TableName: deps.store.tableName,
      Key: keys.roleName(tenant, 'SUPER_ADMIN'),
      ConsistentRead: true,
    }),
  );
  const grant = grantOf({ id: role?.roleId as string, name: 'SUPER_ADMIN', priority: 0 }, user.registeredAt);
  await deps.store.doc.send(
    new UpdateCommand({
      TableName: deps.store.tableName,
      Key: keys.user(tenant, user.id),
      UpdateExpression: 'SET grants.#role = :grant',
      ExpressionAttributeNames: { '#role': grant.roleId },
      ExpressionAttributeValues: { ':grant': grant },
    }),
  );
  return user;
}

async function storedAdminUserId(deps: Deps, tenant: { app: string; mid: string }) {
  const { Item } = await deps.store.doc.send(
    new GetCommand({ TableName: deps.store.tableName, Key: keys.merchant(tenant), ConsistentRead: true }),
  );
  return Item?.adminUserId;
}

describe('adminUserId', () => {
  it('is the first admin from the tenant creation on', async () => {
    const deps = makeTestDeps();
    const created = await aTenant(deps);
    expect(await storedAdminUserId(deps, created)).toBe(created.adminUserId);
    const merchant = await merchantRepo(deps.store).get(created);
    expect((await getMyMerchant(deps, merchant as Merchant)).adminUserId).toBe(created.adminUserId);
  });

  it('is found and recorded once for a tenant stored without it (the user made with the tenant)', async () => {
    const deps = makeTestDeps();
    const created = await aTenant(deps);
    // A later SUPER_ADMIN is not the first admin.
    await aLaterSuperAdmin(deps, created);
    const legacy = await asStoredBefore(deps, created);
    expect(legacy.adminUserId).toBeNull();

    expect((await getMyMerchant(deps, legacy)).adminUserId).toBe(created.adminUserId);
    expect(await storedAdminUserId(deps, created)).toBe(created.adminUserId);
    const read = await merchantRepo(deps.store).get(created);
    expect(read?.adminUserId).toBe(created.adminUserId);
    // PATCH answers it too, and a change of settings keeps it.
    const patched = await updateMerchant(deps, read as Merchant, created.id, { name: 'Renamed' });
    expect(patched.adminUserId).toBe(created.adminUserId);
  });

  it('falls back to the longest-registered SUPER_ADMIN when the first admin is gone', async () => {
    const deps = makeTestDeps();
    const created = await aTenant(deps);
    const second = await aLaterSuperAdmin(deps, created);
    const merchant = (await merchantRepo(deps.store).get(created)) as Merchant;
    const actor: Principal = {
      kind: 'user',
      userId: second.id,
      sessionId: 'ses_x',
      roles: ['SUPER_ADMIN'],
      authority: 0,
      // Signed in just now: deleting a user needs a recent sign-in.
      authenticatedAt: new Date().toISOString(),
    };
    await deleteUser(deps, merchant, actor, created.adminUserId, {
      ip: '203.0.113.1',
      userAgent: 'vitest',
      language: 'en' as const,
    });
    const legacy = await asStoredBefore(deps, created);
    expect((await getMyMerchant(deps, legacy)).adminUserId).toBe(second.id);
  });
});
