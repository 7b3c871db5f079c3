import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityRouteList } from '#functions/routes.ts';
import type { RouteDef } from '#shared/http/route.ts';
import { type AdminTenant, adminApi, aStoredUser, type RoleResponse } from '#test/support/admin.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { type Answer, expectProblem } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';
import { type OidcUpstream, startOidcUpstream } from '#test/support/upstream/oidc-upstream.ts';
import { aStoredWebhookEvent, LOOPBACK_HOOK } from '#test/support/webhooks.ts';

/**
 * The admin routes' authority over ids, beyond the caller columns of the
 * authorization matrix (test/http/security/authorization-matrix.test.ts, which
 * sends every route each kind of caller): another tenant's SUPER_ADMIN,
 * signed in with its own tenant's headers, naming this tenant's user, role,
 * key or merchant ids in the path or body gets 404 NOT_FOUND (never told they
 * exist) and changes nothing either tenant's admin can read. Generated from
 * THE route list: an admin route without a recipe here fails the first test;
 * and every contract row marked A is an admin route of the list.
 */

const api = useLocalStack();
const { call, aSuperAdmin, aRole, grant } = adminApi(() => api.url);

const adminRoutes = identityRouteList.filter((route) => route.auth === 'admin');

/**
 * What a row works on: a fresh plain user of tenant A, a MERCHANT role of A that user holds, an OIDC client of A, and
 * for the routes that name one, a sign-in provider of A and a webhook endpoint of A (with an event in A's log).
 */
interface Row {
  target: string;
  role: RoleResponse;
  client: string;
  provider: string;
  endpoint: string;
  event: string;
}

interface Recipe {
  /** What `{id}` names: a user (the default), the merchant, or a role. */
  id?: 'user' | 'merchant' | 'role';
  /** A minimal valid body, for the routes that take ids (so that the answer is about the ids, not the body). */
  body?: (row: Row) => unknown;
  /** The body names ids of the tenant (so another tenant's admin must get 404 with its own headers). */
  idsInBody?: boolean;
}

/** One entry per admin route, by operationId: where it takes ids. A route without one fails the first test. */
const recipes: Record<string, Recipe> = {
  listUsers: {},
  inviteUser: {},
  getUser: { id: 'user' },
  deleteUser: { id: 'user' },
  setUserStatus: { id: 'user', body: () => ({ status: 'DISABLED' }) },
  resetUserTotp: { id: 'user' },
  resendInvitation: { id: 'user' },
  sendPasswordReset: { id: 'user' },
  clearMailSuppression: { id: 'user' },
  listUserDevices: { id: 'user' },
  listUserActivity: { id: 'user' },
  listUserPasskeys: { id: 'user' },
  // `{passkeyId}` names no passkey: the user of another tenant is refused first.
  removeUserPasskey: { id: 'user' },
  getMyMerchant: {},
  updateMerchant: { id: 'merchant', body: () => ({ primaryColor: '#2e7d32' }) },
  listApiKeys: { id: 'merchant' },
  createApiKey: { id: 'merchant', body: () => ({ label: 'matrix' }) },
  revokeApiKey: { id: 'merchant' },
  listRoles: {},
  createRole: {},
  deleteRole: { id: 'role' },
  assignRole: { body: (row) => ({ userId: row.target, roleId: row.role.id }), idsInBody: true },
  revokeRole: { body: (row) => ({ userId: row.target, roleId: row.role.id }), idsInBody: true },
  // `{clientId}` names the row's OIDC client of A.
  listOidcClients: {},
  createOidcClient: {},
  getOidcClient: {},
  updateOidcClient: { body: () => ({ name: 'Taken over' }) },
  deleteOidcClient: {},
  rotateOidcClientSecret: {},
  // `{providerId}` names the row's sign-in provider of A.
  listSignInProviders: {},
  createSignInProvider: {},
  getSignInProvider: {},
  updateSignInProvider: { body: () => ({ displayName: 'Taken over' }) },
  deleteSignInProvider: {},
  listUserIdentities: { id: 'user' },
  // `{endpointId}` names the row's webhook endpoint of A; a redelivery names an event of A's log.
  listWebhookEndpoints: {},
  createWebhookEndpoint: {},
  getWebhookEndpoint: {},
  updateWebhookEndpoint: { body: () => ({ url: 'http://127.0.0.1:9/taken-over' }) },
  deleteWebhookEndpoint: {},
  rotateWebhookSecret: {},
  listWebhookAttempts: {},
  sendTestWebhook: {},
  redeliverWebhookEvent: { body: (row) => ({ eventId: row.event }) },
  replayWebhookEvents: { body: () => ({ since: new Date(Date.now() - 3_600_000).toISOString() }) },
};

/** The routes promised as admin-only (a bearer of ADMIN or SUPER_ADMIN, or an admin API key) from the start. */
const CONTRACT_ADMIN_ROWS = [
  'GET /users',
  'POST /users/invitations',
  'GET /users/{id}',
  'DELETE /users/{id}',
  'PATCH /users/{id}/status',
  'DELETE /users/{id}/totp',
  'DELETE /users/{id}/mail-suppression',
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
const FAKE_PASSKEY_ID = 'pkey_000000000000000000000000';
const deps = makeTestDeps();

let tenantA: AdminTenant;
let tenantB: AdminTenant;
/** Where tenant A's sign-in providers are read from when added. */
let upstream: OidcUpstream;

beforeAll(async () => {
  [tenantA, tenantB, upstream] = await Promise.all([aSuperAdmin(), aSuperAdmin(), startOidcUpstream({ accounts: [] })]);
});
afterAll(() => upstream?.close());

async function aRow(route: RouteDef): Promise<Row> {
  const takesEndpoint = route.path.includes('{endpointId}');
  const [target, role, client, provider, endpoint, event] = await Promise.all([
    aStoredUser(tenantA.tenant),
    aRole(tenantA, 10),
    call('POST', '/oidc/clients', tenantA.headers, {
      name: 'Cross-tenant',
      type: 'confidential',
      redirectUris: ['https://shop.example/callback'],
    }),
    route.path.includes('{providerId}')
      ? call('POST', '/sign-in-providers', tenantA.headers, {
          kind: 'OIDC',
          displayName: 'Cross-tenant',
          issuer: upstream.issuer,
          clientId: 'cross-tenant',
          clientSecret: 'cross-tenant-secret',
        })
      : undefined,
    takesEndpoint
      ? call('POST', '/webhook-endpoints', tenantA.headers, { url: LOOPBACK_HOOK, eventTypes: ['user.created'] })
      : undefined,
    takesEndpoint ? aStoredWebhookEvent(deps, tenantA.tenant) : '',
  ]);
  expect(client.status, JSON.stringify(client.body)).toBe(201);
  if (provider) expect(provider.status, JSON.stringify(provider.body)).toBe(201);
  if (endpoint) expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  await grant(tenantA, target.id, role.id);
  return {
    target: target.id,
    role,
    client: client.body.clientId,
    provider: provider?.body.id ?? '',
    endpoint: endpoint?.body.id ?? '',
    event,
  };
}

/** The request a route gets for a row. */
function requestFor(route: RouteDef, row: Row) {
  const recipe = recipes[route.operationId];
  const ids = { user: row.target, merchant: tenantA.tenant.id, role: row.role.id };
  const path = route.path
    .replace('{id}', ids[recipe?.id ?? (route.path.startsWith('/merchants/') ? 'merchant' : 'user')])
    .replace('{keyId}', FAKE_KEY_ID)
    .replace('{passkeyId}', FAKE_PASSKEY_ID)
    .replace('{clientId}', row.client)
    .replace('{providerId}', row.provider)
    .replace('{endpointId}', row.endpoint);
  return { path, body: recipe?.body?.(row) };
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
    [tenantA, '/oidc/clients'],
    [tenantB, '/oidc/clients'],
    [tenantA, '/sign-in-providers'],
    [tenantB, '/sign-in-providers'],
    [tenantA, '/webhook-endpoints'],
    [tenantB, '/webhook-endpoints'],
    [tenantB, '/users'],
    [tenantB, '/roles'],
    [tenantB, '/merchants/me'],
  ] as const;
  const answers = await Promise.all([
    ...reads.map(([by, path]) => call('GET', path, by.headers)),
    ...[tenantA, tenantB].map((by) => call('GET', `/merchants/${by.tenant.id}/api-keys`, by.headers)),
  ]);
  return answers.map((res: Answer) => ({ status: res.status, body: res.body }));
}

const isMutating = (route: RouteDef) => route.method !== 'GET';

/** Sends a request that must be refused, and checks (for mutating routes) that nothing changed. */
async function refused(route: RouteDef, headers: Record<string, string>, status: number, code: string) {
  const row = await aRow(route);
  const before = isMutating(route) ? await snapshot(row) : undefined;
  expectProblem(await send(route, requestFor(route, row), headers), status, code);
  if (before) expect(await snapshot(row)).toEqual(before);
}

const takesIds = (route: RouteDef) => route.path.includes('{') || recipes[route.operationId]?.idsInBody === true;
const changesNothing = (route: RouteDef) => (isMutating(route) ? ', and changes nothing' : '');

describe('the admin routes of the route list', () => {
  it('each have a recipe here (where they take ids)', () => {
    const missing = adminRoutes.map((route) => route.operationId).filter((id) => !(id in recipes));
    expect(missing, 'admin routes without a recipe in test/http/admin/cross-tenant-ids.test.ts').toEqual([]);
  });

  it("include every contract row marked A, none left at 'bearer' or 'none'", () => {
    const listed = new Map(identityRouteList.map((route) => [`${route.method} ${route.path}`, route.auth]));
    const notAdmin = CONTRACT_ADMIN_ROWS.filter((row) => listed.get(row) !== 'admin');
    expect(notAdmin, 'contract rows marked A that are not admin routes of the list').toEqual([]);
  });
});

for (const route of adminRoutes.filter(takesIds)) {
  describe(`${route.method} ${route.path} (${route.operationId})`, () => {
    it(`answers 404 NOT_FOUND to another tenant's SUPER_ADMIN, with its own headers, on this tenant's ids${changesNothing(route)}`, async () => {
      await refused(route, tenantB.headers, 404, 'NOT_FOUND');
    });
  });
}
