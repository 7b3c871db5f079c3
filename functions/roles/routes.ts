/** Routes under /roles: SYSTEM and MERCHANT roles and their grants. */

import * as v from 'valibot';
import { ADMIN_ERRORS, adminRoute, type RouteDef } from '#shared/http/route.ts';
import { AssignRoleRequest, CreateRoleRequest, RevokeRoleRequest, RoleResponse } from '#shared/roles/schemas.ts';
import { IdParams } from '#shared/users/admin-schemas.ts';

export const roleRoutes = {
  listRoles: {
    ...adminRoute({ tag: 'roles' }),
    operationId: 'listRoles',
    method: 'GET',
    path: '/roles',
    entry: 'functions/roles/list-roles.ts',
    summary: 'SYSTEM and MERCHANT roles',
    status: 200,
    response: v.array(RoleResponse),
    errors: ADMIN_ERRORS,
    table: [],
  },
  createRole: {
    ...adminRoute({ tag: 'roles' }),
    operationId: 'createRole',
    method: 'POST',
    path: '/roles',
    entry: 'functions/roles/create-role.ts',
    summary: 'Create a MERCHANT role (priority 2 or more, unique name)',
    status: 201,
    body: CreateRoleRequest,
    response: RoleResponse,
    errors: [...ADMIN_ERRORS, 'ALREADY_EXISTS'],
    table: ['PutItem'],
  },
  deleteRole: {
    ...adminRoute({ tag: 'roles' }),
    operationId: 'deleteRole',
    method: 'DELETE',
    path: '/roles/{id}',
    entry: 'functions/roles/delete-role.ts',
    summary: 'Delete a MERCHANT role; its grants stay',
    status: 204,
    params: IdParams,
    errors: [...ADMIN_ERRORS, 'NOT_FOUND'],
    table: ['GetItem', 'DeleteItem'],
  },
  assignRole: {
    ...adminRoute({ tag: 'roles' }),
    operationId: 'assignRole',
    method: 'POST',
    path: '/roles/assign',
    entry: 'functions/roles/assign-role.ts',
    summary: 'Give a user a role, until expiresAt if given',
    status: 204,
    body: AssignRoleRequest,
    errors: [...ADMIN_ERRORS, 'REAUTHENTICATION_REQUIRED', 'NOT_FOUND'],
    table: ['UpdateItem', 'PutItem'],
  },
  revokeRole: {
    ...adminRoute({ tag: 'roles' }),
    operationId: 'revokeRole',
    method: 'POST',
    path: '/roles/revoke',
    entry: 'functions/roles/revoke-role.ts',
    summary: 'Take a role back from a user',
    status: 204,
    body: RevokeRoleRequest,
    errors: [...ADMIN_ERRORS, 'REAUTHENTICATION_REQUIRED', 'NOT_FOUND', 'CONFLICT'],
    // ConditionCheckItem: taking SUPER_ADMIN's grant checks the actor in the same transaction.
    table: ['UpdateItem', 'PutItem', 'ConditionCheckItem'],
  },
} as const satisfies Record<string, RouteDef>;

export const roleSchemas = { RoleResponse, CreateRoleRequest, AssignRoleRequest, RevokeRoleRequest };
