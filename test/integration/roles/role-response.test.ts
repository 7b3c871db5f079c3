import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { listRoles } from '#shared/admin/roles.ts';
import { keys } from '#shared/store/keys.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { aRoleName } from '#test/support/admin.ts';
import { aTenantWith } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { merchantOf } from '#test/support/faults.ts';

/**
 * RoleResponse for roles stored before `custom` was
 * kept: SYSTEM roles read as custom false, MERCHANT roles as custom true (the
 * default at creation); `app` and `mid` are null on SYSTEM roles and the
 * tenant's own on MERCHANT roles.
 */

const deps = makeTestDeps();
let tenant: Merchant;
beforeAll(async () => {
  tenant = await merchantOf(await aTenantWith());
});

describe('roles stored before custom was kept', () => {
  it('read back in the new shape', async () => {
    // The SYSTEM roles as an older tenant creation wrote them: no `custom`.
    const { Items: stored = [] } = await deps.store.doc.send(
      new QueryCommand({
        TableName: deps.store.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.merchant(tenant).pk, ':prefix': keys.rolePrefix },
      }),
    );
    for (const item of stored) {
      await deps.store.doc.send(
        new UpdateCommand({
          TableName: deps.store.tableName,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: 'REMOVE custom',
        }),
      );
    }
    // And a MERCHANT role as POST /roles wrote it then.
    const id = 'rol_00000000000000legacy';
    const name = aRoleName('Legacy');
    await deps.store.doc.send(
      new PutCommand({
        TableName: deps.store.tableName,
        Item: {
          ...keys.role(tenant, id),
          entity: 'ROLE',
          id,
          name,
          priority: 40,
          owner: 'MERCHANT',
          description: null,
          createdAt: '2026-11-01T00:00:00.000Z',
        },
      }),
    );

    const roles = await listRoles(deps, tenant);
    expect(roles.filter((role) => role.owner === 'SYSTEM')).toHaveLength(4);
    for (const role of roles.filter((r) => r.owner === 'SYSTEM')) {
      expect(role).toMatchObject({ app: null, mid: null, custom: false });
    }
    expect(roles.find((role) => role.id === id)).toEqual({
      id,
      name,
      app: tenant.app,
      mid: tenant.mid,
      custom: true,
      priority: 40,
      owner: 'MERCHANT',
      description: null,
      createdAt: '2026-11-01T00:00:00.000Z',
    });
  });
});
