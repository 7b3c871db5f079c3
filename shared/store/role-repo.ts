import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '../tenancy/types.ts';
import type { StoreClient } from './client.ts';
import { keys, type TenantRef } from './keys.ts';
import { getItem } from './prefetch.ts';
import { transact } from './transact.ts';

/**
 * A role as stored. Roles written before `custom` was kept read as the
 * contract's defaults: false on SYSTEM roles, true on MERCHANT ones.
 */
function toRole(item: Record<string, unknown>): Role {
  const owner = item.owner as Role['owner'];
  return {
    id: item.id as string,
    name: item.name as string,
    priority: item.priority as number,
    owner,
    custom: owner === 'SYSTEM' ? false : ((item.custom as boolean | undefined) ?? true),
    description: (item.description as string | null | undefined) ?? null,
    createdAt: item.createdAt as string,
  };
}

/** A role's items: the role, and the claim of its name (names are unique per tenant, compared upper-cased). */
export function roleItems(t: TenantRef, role: Role) {
  return {
    role: { ...keys.role(t, role.id), entity: 'ROLE', ...role },
    name: { ...keys.roleName(t, role.name), entity: 'ROLE_NAME', roleId: role.id },
  };
}

export function roleRepo(store: StoreClient) {
  const { doc, tableName } = store;
  return {
    async get(t: TenantRef, roleId: string): Promise<Role | null> {
      const Item = await getItem(store, keys.role(t, roleId));
      return Item ? toRole(Item) : null;
    },

    /** The id of the role of this name in the tenant (SYSTEM roles have the same names everywhere, not the same ids). */
    async idByName(t: TenantRef, name: string): Promise<string | null> {
      const Item = await getItem(store, keys.roleName(t, name), { consistent: false });
      return (Item?.roleId as string | undefined) ?? null;
    },

    /** SYSTEM and MERCHANT roles of the tenant. */
    async list(t: TenantRef): Promise<Role[]> {
      const { Items } = await doc.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.merchant(t).pk, ':prefix': keys.rolePrefix },
          ConsistentRead: true,
        }),
      );
      return (Items ?? []).map(toRole);
    },

    /**
     * Creates a role with the claim of its name in one transaction: of two
     * roles with one name, one is made. A conflict with another transaction
     * is tried again, so the loser learns that the name is taken.
     */
    async create(t: TenantRef, role: Role): Promise<'CREATED' | 'NAME_TAKEN'> {
      const items = roleItems(t, role);
      const failed = await transact(
        store,
        {
          name: { Put: { TableName: tableName, Item: items.name, ConditionExpression: 'attribute_not_exists(pk)' } },
          role: { Put: { TableName: tableName, Item: items.role, ConditionExpression: 'attribute_not_exists(pk)' } },
        },
        { retryConflicts: true },
      );
      return failed.size === 0 ? 'CREATED' : 'NAME_TAKEN';
    },

    /** Deletes a role and its name claim (its grants stay on the users, listed with the name they were given under). */
    async delete(t: TenantRef, role: Pick<Role, 'id' | 'name'>): Promise<'DELETED' | 'GONE'> {
      const failed = await transact(store, {
        role: {
          Delete: { TableName: tableName, Key: keys.role(t, role.id), ConditionExpression: 'attribute_exists(pk)' },
        },
        name: {
          Delete: {
            TableName: tableName,
            Key: keys.roleName(t, role.name),
            ConditionExpression: 'roleId = :id',
            ExpressionAttributeValues: { ':id': role.id },
          },
        },
      });
      return failed.size === 0 ? 'DELETED' : 'GONE';
    },
  };
}
