import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import type { Deps } from '#shared/deps.ts';
import { keys, type TenantRef } from '#shared/store/keys.ts';

/**
 * Every stored item of one tenant, read straight from a table, for tests that
 * prove a request changed nothing of a tenant (tenant isolation). Tests may
 * Scan; the service never does (shared/store/README.md lists its patterns).
 */

export type Item = Record<string, unknown>;

/** The tenant prefix `T#<app>#<mid>` of shared/store/keys.ts, the first segment of every key a tenant owns. */
export const tenantPrefix = (tenant: TenantRef) => keys.merchant(tenant).pk;

const belongs = (value: unknown, prefix: string) =>
  typeof value === 'string' && (value === prefix || value.startsWith(`${prefix}#`));

/** `pk sk`: the identity of an item in either table. */
export const itemKey = (item: Item) => `${String(item.pk)} ${String(item.sk)}`;

/**
 * Every item of `tableName` that belongs to each tenant, in one pass over the
 * table: its `pk`, `sk` or `gsi1pk` starts with the tenant prefix (user
 * partitions, e-mail claims, challenges, lockouts, roles, API keys, origins,
 * plants...), or it names the tenant's `app` and `mid` (the subdomain claim).
 * One list per tenant, in the order given, sorted by key; read consistently.
 */
export async function itemsOfTenants(
  deps: Deps,
  tenants: readonly TenantRef[],
  tableName = deps.store.tableName,
): Promise<Item[][]> {
  const prefixes = tenants.map(tenantPrefix);
  const values: Record<string, string> = {};
  const conditions = tenants.map((tenant, i) => {
    values[`:p${i}`] = prefixes[i] as string;
    values[`:app${i}`] = tenant.app;
    values[`:mid${i}`] = tenant.mid;
    return `begins_with(pk, :p${i}) OR begins_with(sk, :p${i}) OR begins_with(gsi1pk, :p${i}) OR (app = :app${i} AND mid = :mid${i})`;
  });
  const items: Item[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.store.doc.send(
      new ScanCommand({
        TableName: tableName,
        // A coarse filter on the server; `belongs` below draws the exact line (`T#a#m` is not `T#a#mx`).
        FilterExpression: conditions.join(' OR '),
        ExpressionAttributeValues: values,
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return tenants.map((tenant, i) => {
    const prefix = prefixes[i] as string;
    return items
      .filter(
        (item) =>
          belongs(item.pk, prefix) ||
          belongs(item.sk, prefix) ||
          belongs(item.gsi1pk, prefix) ||
          (item.app === tenant.app && item.mid === tenant.mid),
      )
      .sort((a, b) => (itemKey(a) < itemKey(b) ? -1 : itemKey(a) > itemKey(b) ? 1 : 0));
  });
}

/** Every item of one tenant in a table (see itemsOfTenants). */
export async function tenantItems(deps: Deps, tenant: TenantRef, tableName = deps.store.tableName): Promise<Item[]> {
  const [items] = await itemsOfTenants(deps, [tenant], tableName);
  return items ?? [];
}

/** A tenant's items in the identity table and in the plant store's table. */
export interface TenantSnapshot {
  identity: Item[];
  plants: Item[];
}

export async function snapshotTenant(deps: Deps, tenant: TenantRef, plantsTableName: string): Promise<TenantSnapshot> {
  const [identity, plants] = await Promise.all([tenantItems(deps, tenant), tenantItems(deps, tenant, plantsTableName)]);
  return { identity, plants };
}

/** Which items were added, removed or changed between two reads (by key), for a readable failure. */
export function changedItems(before: readonly Item[], after: readonly Item[]) {
  const was = new Map(before.map((item) => [itemKey(item), item]));
  const is = new Map(after.map((item) => [itemKey(item), item]));
  return {
    added: [...is.keys()].filter((key) => !was.has(key)),
    removed: [...was.keys()].filter((key) => !is.has(key)),
    changed: [...is.keys()].filter((key) => {
      const old = was.get(key);
      if (!old) return false;
      try {
        expect(is.get(key)).toStrictEqual(old);
        return false;
      } catch {
        return true;
      }
    }),
  };
}

/** The tenant's items now are exactly those of `before`: same keys, every attribute (binary ones too) equal. */
export function expectUnchanged(before: TenantSnapshot, after: TenantSnapshot, what: string) {
  const none = { added: [], removed: [], changed: [] };
  expect(changedItems(before.identity, after.identity), `${what}: identity table`).toEqual(none);
  expect(changedItems(before.plants, after.plants), `${what}: plant table`).toEqual(none);
  expect(after).toStrictEqual(before);
}
