import { beforeAll, describe, expect, it } from 'vitest';
import { identityRouteList } from '#functions/routes.ts';
import type { RouteDef } from '#shared/http/route.ts';
import {
  type AdminTenant,
  type Answer,
  adminApi,
  anEmail,
  aRoleName,
  aStoredUser,
  type Caller,
  expectProblem,
  type RoleResponse,
} from '#test/support/admin.ts';
import { useLocalStack } from '#test/support/server.ts';

/**
 * The authorization matrix of every admin route, generated from THE route
 * list: each route with `auth: 'admin'` is called by each kind of caller. A
 * route added to the list is covered at once for the callers it must refuse;
 * the callers it must admit need a request recipe below, and the first test
 * fails until the recipe is written.
 */

const api = useLocalStack();
const { call, aSuperAdmin, aSignedInUser, anAdmin, aRole, grant } = adminApi(() => api.url);

const adminRoutes = identityRouteList.filter((route) => route.auth === 'admin');
const apiKeysAvailable = identityRouteList.some(
  (route) => route.method === 'POST' && route.path === '/merchants/{id}/api-keys',
);

/** What a row works on: a fresh plain user of tenant A, and a MERCHANT role of A that user holds. */
interface Row {
  target: string;
  role: RoleResponse;
}

interface Recipe {
  /** What `{id}` names: a user (the default), the merchant, or a role. */
  id?: 'user' | 'merchant' | 'role';
  /** A minimal valid body. */
  body?: (row: Row) => unknown;
  /** The body names ids of the tenant (so another tenant's admin must get 404 with its own headers). */
  idsInBody?: boolean;
}

/** One entry per admin route, by operationId. A route without one fails the first test. */
const recipes: Record<string, Recipe> = {
  listUsers: {},
  inviteUser: { body: () => ({ email: anEmail('matrix') }) },
  getUser: { id: 'user' },
  deleteUser: { id: 'user' },
  setUserStatus: { id: 'user', body: () => ({ status: 'DISABLED' }) },
  resetUserTotp: { id: 'user' },
  listUserDevices: { id: 'user' },
  listUserActivity: { id: 'user' },
  getMyMerchant: {},
  updateMerchant: { id: 'merchant', body: () => ({ primaryColor: '#2e7d32' }) },
  listApiKeys: { id: 'merchant' },
  createApiKey: { id: 'merchant', body: () => ({ label: 'matrix' }) },
  revokeApiKey: { id: 'merchant' },
  listRoles: {},
  createRole: { body: () => ({ name: aRoleName('Matrix'), priority: 10 }) },
  deleteRole: { id: 'role' },
  assignRole: { body: (row) => ({ userId: row.target, roleId: row.role.id }), idsInBody: true },
  revokeRole: { body: (row) => ({ userId: row.target, roleId: row.role.id }), idsInBody: true },
};

/** The contract's rows marked A (CONTRACT.md, Identity endpoints). */
const CONTRACT_ADMIN_ROWS = [
  'GET /users',
  'POST /users/invitations',
  'GET /users/{id}',
  'DELETE /users/{id}',
  'PATCH /users/{id}/status',
  'DELETE /users/{id}/totp',
  'GET /users/{id}/devices',
  'GET /users/{id}/activity',
  'GET /merchants/me',
  'PATCH /merchants/{id}',
  'GET /merchants/{id}/api-keys',
  'POST /merchants/{id}/api-keys',
  'DELETE /merchants/{id}/api-keys/{keyId}',
  'GET /roles',
  'POST /roles',
  'DELETE /roles/{id}',
  'POST /roles/assign',
  'POST /roles/revoke',
];

const FAKE_KEY_ID = 'key_00000000000000000000';

let tenantA: AdminTenant;
let adminOfA: Caller;
let plainOfA: Caller;
let apiKeyOfA: string | undefined;
let tenantB: AdminTenant;

beforeAll(async () => {
  [tenantA, tenantB] = await Promise.all([aSuperAdmin(), aSuperAdmin()]);
  [adminOfA, plainOfA] = await Promise.all([anAdmin(tenantA), aSignedInUser(tenantA.tenant)]);
  if (apiKeysAvailable) {
    const res = await call('POST', `/merchants/${tenantA.tenant.id}/api-keys`, tenantA.headers, { label: 'matrix' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    apiKeyOfA = res.body.key;
  }
});

async function aRow(): Promise<Row> {
  const [target, role] = await Promise.all([aStoredUser(tenantA.tenant), aRole(tenantA, 10)]);
  await grant(tenantA, target.id, role.id);
  return { target: target.id, role };
}

/** The request a route gets for a row; the body only where a recipe gives one (refused callers need none). */
function requestFor(route: RouteDef, row: Row) {
  const recipe = recipes[route.operationId];
  const ids = { user: row.target, merchant: tenantA.tenant.id, role: row.role.id };
  const path = route.path
    .replace('{id}', ids[recipe?.id ?? (route.path.startsWith('/merchants/') ? 'merchant' : 'user')])
    .replace('{keyId}', FAKE_KEY_ID);
  return { path, body: recipe?.body?.(row) };
}

/** A request that must be admitted needs the route's recipe. */
function admittedRequestFor(route: RouteDef, row: Row) {
  if (!recipes[route.operationId]) throw new Error(`no request recipe for ${route.operationId}`);
  return requestFor(route, row);
}

const send = (route: RouteDef, request: { path: string; body: unknown }, headers: Record<string, string>) =>
  call(route.method, request.path, headers, request.body);

/** What an admin can see of both tenants: a mutation by a refused caller would show here. */
async function snapshot(row: Row) {
  const reads = [
    [tenantA, `/users/${row.target}`],
    [tenantA, `/users/${row.target}/activity?limit=100`],
    [tenantA, `/users/${row.target}/devices`],
    [tenantA, '/users'],
    [tenantA, '/roles'],
    [tenantA, '/merchants/me'],
    [tenantB, '/users'],
    [tenantB, '/roles'],
    [tenantB, '/merchants/me'],
  ] as const;
  const answers = await Promise.all(reads.map(([by, path]) => call('GET', path, by.headers)));
  const keys = apiKeysAvailable
    ? await Promise.all([tenantA, tenantB].map((by) => call('GET', `/merchants/${by.tenant.id}/api-keys`, by.headers)))
    : [];
  return [...answers, ...keys].map((res: Answer) => ({ status: res.status, body: res.body }));
}

const isMutating = (route: RouteDef) => route.method !== 'GET';

/** Sends a request a caller must be refused, and checks (for mutating routes) that nothing changed. */
async function refused(route: RouteDef, headers: Record<string, string>, status: number, code: string) {
  const row = await aRow();
  const before = isMutating(route) ? await snapshot(row) : undefined;
  expectProblem(await send(route, requestFor(route, row), headers), status, code);
  if (before) expect(await snapshot(row)).toEqual(before);
}

async function admitted(route: RouteDef, headers: Record<string, string>) {
  const row = await aRow();
  const res = await send(route, admittedRequestFor(route, row), headers);
  expect([401, 403], JSON.stringify(res.body)).not.toContain(res.status);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
}

const takesIds = (route: RouteDef) => route.path.includes('{') || recipes[route.operationId]?.idsInBody === true;
const changesNothing = (route: RouteDef) => (isMutating(route) ? ', and changes nothing' : '');

describe('the admin routes of the route list', () => {
  it('each have a request recipe in this matrix', () => {
    const missing = adminRoutes.map((route) => route.operationId).filter((id) => !(id in recipes));
    expect(missing, 'admin routes without a recipe in authorization-matrix.test.ts').toEqual([]);
  });

  it("include every contract row marked A that the list has (none is left at 'bearer' or 'none')", () => {
    const listed = new Map(identityRouteList.map((route) => [`${route.method} ${route.path}`, route]));
    const weaker = CONTRACT_ADMIN_ROWS.filter((row) => listed.has(row) && listed.get(row)?.auth !== 'admin');
    expect(weaker).toEqual([]);
    // The /users and /roles rows are this service's own; the /merchants rows may still be under way.
    for (const row of CONTRACT_ADMIN_ROWS.filter((r) => !r.includes(' /merchants'))) {
      expect(listed.has(row), row).toBe(true);
    }
  });
});

for (const route of adminRoutes) {
  describe(`${route.method} ${route.path} (${route.operationId})`, () => {
    it(`answers 401 UNAUTHENTICATED without a credential${changesNothing(route)}`, async () => {
      await refused(route, tenantA.tenant.headers, 401, 'UNAUTHENTICATED');
    });

    it(`answers 403 FORBIDDEN to a signed-in plain user${changesNothing(route)}`, async () => {
      await refused(route, plainOfA.headers, 403, 'FORBIDDEN');
    });

    it('admits an ADMIN (neither 401 nor 403)', async () => {
      await admitted(route, adminOfA.headers);
    });

    it('admits the SUPER_ADMIN (neither 401 nor 403)', async () => {
      await admitted(route, tenantA.headers);
    });

    it.skipIf(!apiKeysAvailable)(
      apiKeysAvailable
        ? 'admits an admin API key in X-Api-Key (neither 401 nor 403)'
        : 'admits an admin API key: SKIPPED, POST /merchants/{id}/api-keys is not in the route list',
      async () => {
        await admitted(route, { ...tenantA.tenant.headers, 'x-api-key': apiKeyOfA ?? '' });
      },
    );

    it(`answers 403 TENANT_MISMATCH to another tenant's SUPER_ADMIN token with this tenant's headers${changesNothing(route)}`, async () => {
      await refused(
        route,
        { ...tenantA.tenant.headers, authorization: `Bearer ${tenantB.token}` },
        403,
        'TENANT_MISMATCH',
      );
    });

    if (takesIds(route)) {
      it(`answers 404 NOT_FOUND to another tenant's SUPER_ADMIN, with its own headers, on this tenant's ids${changesNothing(route)}`, async () => {
        await refused(route, tenantB.headers, 404, 'NOT_FOUND');
      });
    }
  });
}
