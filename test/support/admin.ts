import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { createInvitation } from '#shared/auth/invitations.ts';
import type { Deps } from '#shared/deps.ts';
import { newUserItems, userRepo } from '#shared/store/user-repo.ts';
import { newUser } from '#shared/users/new-user.ts';
import type { User } from '#shared/users/types.ts';
import { aTenantWith, aUser, type TestTenant, type TestUser } from './auth.ts';
import { makeTestDeps } from './deps.ts';
import { identityApi } from './http.ts';

/**
 * Helpers for the administration tests: principals of each kind (SUPER_ADMIN,
 * ADMIN, plain user), role look-ups, and users written straight to the store
 * for tests that need many, or need targets that never sign in (no argon2).
 */

export interface RoleResponse {
  id: string;
  name: string;
  app: string | null;
  mid: string | null;
  custom: boolean;
  priority: number;
  owner: 'SYSTEM' | 'MERCHANT';
  description: string | null;
  createdAt: string;
}

/** A signed-in caller: its user id, its token and the headers that carry them. */
export interface Caller {
  userId: string;
  token: string;
  refreshToken: string;
  headers: Record<string, string>;
}

/** The tenant with its first admin (SUPER_ADMIN) signed in. */
export interface AdminTenant extends Caller {
  tenant: TestTenant;
}

let counter = 0;
/** A fresh, lower-case value unique across workers and runs. */
export const unique = (label = 'x') => `${label}-${process.pid}-${Date.now().toString(36)}-${++counter}`;
export const anEmail = (label = 'user') => `${unique(label)}@shop.test`;
/** A role name: letters, digits, `_` and `-`, starting with a letter. */
export const aRoleName = (label = 'Role') => `${label}_${process.pid}_${Date.now().toString(36)}_${++counter}`;

export const USER_RESPONSE_FIELDS = [
  'id',
  'email',
  'emailStatus',
  'firstName',
  'lastName',
  'phone',
  'status',
  'totpEnabled',
  'roles',
  'registeredAt',
  'lastLoginAt',
].sort();

/** The black-box admin API of one local stack: the identity API's requests, and principals, roles and users. */
export function adminApi(baseUrl: () => string) {
  const identity = identityApi(baseUrl);
  const { call, logIn, bearer } = identity;

  /** A fresh tenant and its first admin (SUPER_ADMIN), signed in. */
  async function aSuperAdmin(options: Parameters<typeof aTenantWith>[0] = {}): Promise<AdminTenant> {
    const tenant = await aTenantWith(options);
    const tokens = await logIn(tenant, tenant.adminEmail, tenant.adminPassword);
    return {
      tenant,
      userId: tenant.adminUserId,
      token: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      headers: bearer(tenant, tokens.accessToken),
    };
  }

  /** A user of the tenant (DEFAULT only, unless given roles later), signed in (no TOTP: it would need a second step). */
  async function aSignedInUser(
    tenant: TestTenant,
    options: Omit<NonNullable<Parameters<typeof aUser>[1]>, 'totp'> = {},
  ): Promise<Caller & { user: TestUser }> {
    const user = await aUser(tenant, options);
    const tokens = await logIn(tenant, user.email, user.password);
    return {
      user,
      userId: user.id,
      token: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      headers: bearer(tenant, tokens.accessToken),
    };
  }

  async function listRoles(by: AdminTenant): Promise<RoleResponse[]> {
    const res = await call('GET', '/roles', by.headers);
    expect(res.status).toBe(200);
    return res.body;
  }

  /** The id of a role of the caller's tenant, by name. */
  async function roleId(by: AdminTenant, name: string): Promise<string> {
    const role = (await listRoles(by)).find((r) => r.name === name);
    if (!role) throw new Error(`no role named ${name}`);
    return role.id;
  }

  const assign = (by: { headers: Record<string, string> }, body: Record<string, unknown>) =>
    call('POST', '/roles/assign', by.headers, body);
  const revoke = (by: { headers: Record<string, string> }, body: Record<string, unknown>) =>
    call('POST', '/roles/revoke', by.headers, body);

  /** Gives a user a role as `by`, and insists it worked. */
  async function grant(by: { headers: Record<string, string> }, userId: string, roleId: string, expiresAt?: string) {
    const res = await assign(by, { userId, roleId, ...(expiresAt ? { expiresAt } : {}) });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
  }

  /** A user of the tenant made ADMIN by its SUPER_ADMIN, signed in. */
  async function anAdmin(owner: AdminTenant, options: Parameters<typeof aSignedInUser>[1] = {}) {
    const caller = await aSignedInUser(owner.tenant, options);
    await grant(owner, caller.userId, await roleId(owner, 'ADMIN'));
    return caller;
  }

  /** A MERCHANT role made by `by`. */
  async function aRole(by: { headers: Record<string, string> }, priority = 10, name = aRoleName()) {
    const res = await call('POST', '/roles', by.headers, { name, priority });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as RoleResponse;
  }

  const getUser = (by: { headers: Record<string, string> }, id: string) => call('GET', `/users/${id}`, by.headers);
  const setStatus = (by: { headers: Record<string, string> }, id: string, status: unknown) =>
    call('PATCH', `/users/${id}/status`, by.headers, { status });

  /** A user's whole activity (at most 100 records), newest first. */
  async function activityOf(by: { headers: Record<string, string> }, id: string) {
    const res = await call('GET', `/users/${id}/activity?limit=100`, by.headers);
    expect(res.status).toBe(200);
    return res.body.items as { id: string; type: string; at: string; ip: string; userAgent: string; actorId: string }[];
  }

  return {
    ...identity,
    aSuperAdmin,
    aSignedInUser,
    anAdmin,
    listRoles,
    roleId,
    assign,
    revoke,
    grant,
    aRole,
    getUser,
    setStatus,
    activityOf,
  };
}

type UserFields = Partial<Pick<User, 'email' | 'status' | 'firstName' | 'lastName'>>;

/** A new user's profile (DEFAULT role, no password), not yet stored: for `putUsers`. */
export function aUserRecord(
  tenant: { app: string; mid: string },
  fields: UserFields = {},
  deps: Deps = makeTestDeps(),
): Promise<User> {
  return newUser(deps, tenant, {
    email: fields.email ?? anEmail('target'),
    status: fields.status ?? 'ACTIVE',
    emailStatus: 'VALIDATED',
    firstName: fields.firstName ?? 'Target',
    lastName: fields.lastName ?? 'User',
  });
}

/**
 * A user written straight to the store, with the DEFAULT role and no password:
 * a target of admin calls that never signs in (no argon2 hash to compute).
 */
export async function aStoredUser(
  tenant: { app: string; mid: string },
  fields: UserFields = {},
  deps: Deps = makeTestDeps(),
): Promise<User> {
  const user = await aUserRecord(tenant, fields, deps);
  if ((await userRepo(deps.store).create(tenant, user)) !== 'CREATED') throw new Error(`e-mail ${user.email} taken`);
  return user;
}

/**
 * Writes users (profile and e-mail claim each) with BatchWriteItem, 25 items a
 * request and a few requests at once, retrying what DynamoDB leaves unprocessed.
 */
export async function putUsers(deps: Deps, tenant: { app: string; mid: string }, users: readonly User[]) {
  const { doc, tableName } = deps.store;
  const items = users.flatMap((user) => {
    const { profile, emailClaim } = newUserItems(tenant, user);
    return [profile, emailClaim];
  });
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  const writeBatch = async (batch: Record<string, unknown>[]) => {
    let pending: unknown[] = batch.map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt === 8) throw new Error(`${pending.length} items left unwritten`);
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
      const result = await doc.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending as never } }));
      pending = result.UnprocessedItems?.[tableName] ?? [];
    }
  };
  const parallel = 8;
  for (let i = 0; i < batches.length; i += parallel) await Promise.all(batches.slice(i, i + parallel).map(writeBatch));
}

/**
 * An INVITED user and its invitation, written straight to the store as POST /users/invitations writes them, with
 * no mail sent: a target whose address has had no invitation mail (the mail limits allow one a minute).
 */
export async function anInvitedUser(
  tenant: { app: string; mid: string; adminUserId: string },
  deps: Deps = makeTestDeps(),
): Promise<{ userId: string; email: string; invitationToken: string; expiresAt: string }> {
  const email = anEmail('invited');
  const invited = await createInvitation(deps, tenant, { email, invitedBy: tenant.adminUserId, firstName: 'Ivy' });
  return { ...invited, email };
}
