import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { grantOf } from '#shared/roles/authority.ts';
import { keys } from '#shared/store/keys.ts';
import type { NewTenant } from '#shared/store/merchant-repo.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { aMerchant } from '#test/support/builders.ts';
import { makeTestDeps } from '#test/support/deps.ts';

const deps = makeTestDeps();

function aNewTenant(overrides: Partial<NewTenant['merchant']> = {}): NewTenant {
  const merchant = aMerchant(overrides);
  const now = merchant.createdAt;
  return {
    merchant,
    roles: [
      {
        id: `rol_a_${merchant.id}`,
        name: 'SUPER_ADMIN',
        priority: 0,
        owner: 'SYSTEM',
        custom: false,
        description: null,
        createdAt: now,
      },
      {
        id: `rol_b_${merchant.id}`,
        name: 'DEFAULT',
        priority: 99,
        owner: 'SYSTEM',
        custom: false,
        description: null,
        createdAt: now,
      },
    ],
    admin: {
      id: `usr_${merchant.id}`,
      email: `admin@${merchant.subdomain}.test`,
      passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA',
      status: 'ACTIVE',
      emailStatus: 'VALIDATED',
      registeredAt: now,
      grants: {
        [`rol_a_${merchant.id}`]: grantOf({ id: `rol_a_${merchant.id}`, name: 'SUPER_ADMIN', priority: 0 }, now),
        [`rol_b_${merchant.id}`]: grantOf({ id: `rol_b_${merchant.id}`, name: 'DEFAULT', priority: 99 }, now),
      },
    },
  };
}

describe('merchants (DynamoDB Local)', () => {
  it('creates a tenant and reads it back by app/mid and by public client key', async () => {
    const tenant = aNewTenant();
    expect(await merchantRepo(deps.store).create(tenant)).toEqual({ ok: true });
    const t = { app: tenant.merchant.app, mid: tenant.merchant.mid };
    expect(await merchantRepo(deps.store).get(t)).toEqual(tenant.merchant);
    expect(await merchantRepo(deps.store).findByClientKey(tenant.merchant.publicApiKey)).toEqual(tenant.merchant);
  });

  it('answers null for an unknown tenant or client key, and never crosses tenants', async () => {
    const tenant = aNewTenant();
    await merchantRepo(deps.store).create(tenant);
    expect(await merchantRepo(deps.store).get({ app: tenant.merchant.app, mid: 'mid_someone_else' })).toBeNull();
    expect(await merchantRepo(deps.store).findByClientKey('pk_unknown')).toBeNull();
  });

  it('knows which origins some tenant allows (for CORS preflight)', async () => {
    const origin = `https://${Date.now()}.shop.example`;
    await merchantRepo(deps.store).create(aNewTenant({ allowedOrigins: [origin] }));
    expect(await merchantRepo(deps.store).anyTenantAllowsOrigin(origin)).toBe(true);
    expect(await merchantRepo(deps.store).anyTenantAllowsOrigin(`${origin}:8443`)).toBe(false);
  });

  it('refuses a taken subdomain and writes nothing of the second tenant (one transaction)', async () => {
    const first = aNewTenant();
    await merchantRepo(deps.store).create(first);
    const second = aNewTenant({ subdomain: first.merchant.subdomain, allowedOrigins: ['https://second.example'] });
    expect(await merchantRepo(deps.store).create(second)).toEqual({ ok: false, reason: 'SUBDOMAIN_TAKEN' });
    const t = { app: second.merchant.app, mid: second.merchant.mid };
    expect(await merchantRepo(deps.store).get(t)).toBeNull();
    const { Item: admin } = await deps.store.doc.send(
      new GetCommand({ TableName: deps.store.tableName, Key: keys.user(t, second.admin.id) }),
    );
    expect(admin).toBeUndefined();
    const { Items: origins } = await deps.store.doc.send(
      new QueryCommand({
        TableName: deps.store.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.originPartition('https://second.example') },
      }),
    );
    expect(origins).toEqual([]);
  });

  it('stores the first admin with its grants on the profile, and the e-mail claim', async () => {
    const tenant = aNewTenant();
    await merchantRepo(deps.store).create(tenant);
    const t = { app: tenant.merchant.app, mid: tenant.merchant.mid };
    const { Items } = await deps.store.doc.send(
      new QueryCommand({
        TableName: deps.store.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.user(t, tenant.admin.id).pk },
      }),
    );
    expect(Items?.map((i) => i.sk)).toEqual(['PROFILE']);
    expect(Object.keys(Items?.[0]?.grants ?? {}).sort()).toEqual(Object.keys(tenant.admin.grants).sort());
    expect(Items?.[0]?.grants[`rol_a_${tenant.merchant.id}`]).toMatchObject({ name: 'SUPER_ADMIN', expiresAt: null });
    const { Item: claim } = await deps.store.doc.send(
      new GetCommand({ TableName: deps.store.tableName, Key: keys.userEmail(t, tenant.admin.email) }),
    );
    expect(claim?.userId).toBe(tenant.admin.id);
  });
});
