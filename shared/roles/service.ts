import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { activityItem } from '../activity/record.ts';
import type { Principal } from '../auth/principal.ts';
import type { RequestInfo } from '../auth/refresh-token.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import { newId } from '../random.ts';
import { conditionFailedAt, isTransactionCanceled } from '../store/errors.ts';
import { keys, type TenantRef } from '../store/keys.ts';
import { transactAdminWrite } from '../store/transact.ts';
import type { Merchant, Role } from '../tenancy/types.ts';
import { targetUser } from '../users/admin.ts';
import {
  actorIdOf,
  assertMayActOnUser,
  assertMayHandleRole,
  grantOf,
  refusalOfActor,
  SUPER_ADMIN_AUTHORITY,
  superAdminActorCheck,
} from './authority.ts';
import type { RoleResponse } from './schemas.ts';

const ROLE_ID = /^rol_[0-9a-z]{20}$/;

interface StoredRole extends Role {
  description: string | null;
}

/**
 * A role as stored. Roles written before `custom` was kept read as the
 * contract's defaults: false on SYSTEM roles, true on MERCHANT ones.
 */
function toRole(item: Record<string, unknown>): StoredRole {
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

/**
 * RoleResponse (CONTRACT.md, Resources): SYSTEM roles are the same in every
 * tenant, so their `app` and `mid` are null; a MERCHANT role names its tenant.
 */
function toRoleResponse(tenant: TenantRef, role: StoredRole): RoleResponse {
  const own = role.owner === 'MERCHANT';
  return {
    id: role.id,
    name: role.name,
    app: own ? tenant.app : null,
    mid: own ? tenant.mid : null,
    custom: role.custom,
    priority: role.priority,
    owner: role.owner,
    description: role.description,
    createdAt: role.createdAt,
  };
}

/** CONTRACT.md, Details: `app` and `mid` in role bodies, when given, must be the caller's tenant. */
export function assertNamesOwnTenant(tenant: TenantRef, body: { app?: string | undefined; mid?: string | undefined }) {
  if ((body.app !== undefined && body.app !== tenant.app) || (body.mid !== undefined && body.mid !== tenant.mid)) {
    throw fail('TENANT_MISMATCH');
  }
}

async function findRole(deps: Deps, tenant: TenantRef, roleId: string): Promise<StoredRole | null> {
  if (!ROLE_ID.test(roleId)) return null;
  const { Item } = await deps.store.doc.send(
    new GetCommand({ TableName: deps.store.tableName, Key: keys.role(tenant, roleId), ConsistentRead: true }),
  );
  return Item ? toRole(Item) : null;
}

/** GET /roles: SYSTEM and MERCHANT roles, by priority. */
export async function listRoles(deps: Deps, tenant: Merchant) {
  const { Items } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.merchant(tenant).pk, ':prefix': keys.rolePrefix },
      ConsistentRead: true,
    }),
  );
  return (Items ?? [])
    .map((item) => toRoleResponse(tenant, toRole(item)))
    .sort((a, b) => a.priority - b.priority || a.name.localeCompare(b.name));
}

/** POST /roles: a MERCHANT role (priority ≥ 2), its name unique in the tenant (a claim item, in one transaction). */
export async function createRole(
  deps: Deps,
  tenant: Merchant,
  principal: Principal,
  body: {
    name: string;
    priority: number;
    custom?: boolean | undefined;
    description?: string | null | undefined;
    app?: string;
    mid?: string;
  },
): Promise<RoleResponse> {
  assertNamesOwnTenant(tenant, body);
  assertMayHandleRole(principal, body);
  const now = deps.clock.now().toISOString();
  const role: StoredRole = {
    id: newId(deps.random, 'rol'),
    name: body.name,
    priority: body.priority,
    owner: 'MERCHANT',
    custom: body.custom ?? true,
    description: body.description ?? null,
    createdAt: now,
  };
  const { tableName } = deps.store;
  try {
    await deps.store.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: { ...keys.roleName(tenant, role.name), entity: 'ROLE_NAME', roleId: role.id },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: { ...keys.role(tenant, role.id), entity: 'ROLE', ...role },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (isTransactionCanceled(error)) {
      throw fail('ALREADY_EXISTS', `a role named ${role.name} exists`);
    }
    throw error;
  }
  return toRoleResponse(tenant, role);
}

/** DELETE /roles/{id}: MERCHANT roles only; grants of it stay (listed with the name they were given under). */
export async function deleteRole(deps: Deps, tenant: Merchant, principal: Principal, roleId: string) {
  const role = await findRole(deps, tenant, roleId);
  if (!role) throw fail('NOT_FOUND');
  if (role.owner === 'SYSTEM') throw fail('FORBIDDEN', 'SYSTEM roles cannot be deleted');
  assertMayHandleRole(principal, role);
  const { tableName } = deps.store;
  await deps.store.doc.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Delete: {
            TableName: tableName,
            Key: keys.role(tenant, role.id),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        {
          Delete: {
            TableName: tableName,
            Key: keys.roleName(tenant, role.name),
            ConditionExpression: 'roleId = :id',
            ExpressionAttributeValues: { ':id': role.id },
          },
        },
      ],
    }),
  );
}

/**
 * POST /roles/assign: gives a role (until `expiresAt`, if given) to a user of
 * strictly lower authority. The grant is one map entry on the profile, so
 * concurrent assigns and revokes leave the store consistent.
 */
export async function assignRole(
  deps: Deps,
  tenant: Merchant,
  principal: Principal,
  body: { userId: string; roleId: string; expiresAt?: string | null | undefined; app?: string; mid?: string },
  request: RequestInfo,
) {
  assertNamesOwnTenant(tenant, body);
  const now = deps.clock.now();
  if (body.expiresAt && Date.parse(body.expiresAt) <= now.getTime()) {
    throw fail('VALIDATION_FAILED', {
      detail: 'expiresAt: must be in the future',
      errors: [{ path: 'expiresAt', message: 'must be in the future' }],
    });
  }
  const target = await targetUser(deps, tenant, body.userId);
  const role = await findRole(deps, tenant, body.roleId);
  if (!role) throw fail('NOT_FOUND');
  assertMayActOnUser(principal, target, now);
  assertMayHandleRole(principal, role);
  if (role.priority === SUPER_ADMIN_AUTHORITY && body.expiresAt) {
    // A SUPER_ADMIN whose grant lapses could remove the others first and leave the tenant with none.
    throw fail('VALIDATION_FAILED', {
      detail: 'expiresAt: SUPER_ADMIN is given without an end',
      errors: [{ path: 'expiresAt', message: 'SUPER_ADMIN is given without an end' }],
    });
  }
  const expiresAt = body.expiresAt ? new Date(body.expiresAt).toISOString() : null;
  const { tableName } = deps.store;
  try {
    // The grant and its ROLE_ASSIGNED record in one transaction: never a grant nobody can account for.
    await deps.store.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName,
              Key: keys.user(tenant, target.id),
              UpdateExpression: 'SET grants.#role = :grant',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeNames: { '#role': role.id },
              ExpressionAttributeValues: {
                ':grant': grantOf(role, now.toISOString(), actorIdOf(principal), expiresAt),
              },
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: activityItem(deps, tenant, target.id, 'ROLE_ASSIGNED', {
                ...request,
                actorId: actorIdOf(principal),
              }),
            },
          },
        ],
      }),
    );
  } catch (error) {
    // Deleted meanwhile.
    if (conditionFailedAt(error, 0)) throw fail('NOT_FOUND');
    throw error;
  }
}

/**
 * POST /roles/revoke: takes a grant back (404 when the user does not hold it).
 * From a SUPER_ADMIN, the actor is checked in the same transaction
 * (superAdminActorCheck): of two SUPER_ADMINs revoking each other's role at
 * once, the second is refused.
 */
export async function revokeRole(
  deps: Deps,
  tenant: Merchant,
  principal: Principal,
  body: { userId: string; roleId: string; app?: string; mid?: string },
  request: RequestInfo,
) {
  assertNamesOwnTenant(tenant, body);
  const now = deps.clock.now();
  const target = await targetUser(deps, tenant, body.userId);
  const grant = Object.hasOwn(target.grants, body.roleId) ? target.grants[body.roleId] : undefined;
  if (!grant) throw fail('NOT_FOUND');
  assertMayActOnUser(principal, target, now);
  // The grant carries its role's priority: a deleted role's grant is judged the same way.
  assertMayHandleRole(principal, grant);
  const { tableName } = deps.store;
  const actorCheck = superAdminActorCheck(deps, tenant, principal, target, now);
  try {
    // The revocation and its ROLE_REVOKED record in one transaction.
    await transactAdminWrite(deps, [
      {
        Update: {
          TableName: tableName,
          Key: keys.user(tenant, target.id),
          UpdateExpression: 'REMOVE grants.#role',
          ConditionExpression: 'attribute_exists(grants.#role)',
          ExpressionAttributeNames: { '#role': body.roleId },
        },
      },
      {
        Put: {
          TableName: tableName,
          Item: activityItem(deps, tenant, target.id, 'ROLE_REVOKED', {
            ...request,
            actorId: actorIdOf(principal),
          }),
        },
      },
      ...(actorCheck ? [actorCheck] : []),
    ]);
  } catch (error) {
    // The actor first: a moment later, its own standing would be judged before the grant is looked up.
    if (actorCheck && conditionFailedAt(error, 2)) throw await refusalOfActor(deps, tenant, principal);
    if (conditionFailedAt(error, 0)) throw fail('NOT_FOUND');
    throw error;
  }
}
