import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps.ts';
import { keys, type TenantRef } from '../store/keys.ts';
import { grantOf } from '../store/merchant-repo.ts';
import type { Grant } from '../users/types.ts';

/** Every new user holds DEFAULT (CONTRACT.md, Rules): the grant for a new profile. */
export async function defaultGrant(deps: Deps, tenant: TenantRef, now: Date): Promise<Record<string, Grant>> {
  const { Item: name } = await deps.store.doc.send(
    new GetCommand({ TableName: deps.store.tableName, Key: keys.roleName(tenant, 'DEFAULT') }),
  );
  if (!name) throw new Error('tenant has no DEFAULT role');
  const roleId = name.roleId as string;
  return {
    [roleId]: grantOf({ id: roleId, name: 'DEFAULT', priority: 99, owner: 'SYSTEM', createdAt: '' }, now.toISOString()),
  };
}
