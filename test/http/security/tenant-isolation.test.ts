import { beforeAll, describe, expect, it } from 'vitest';
import { plantRouteList } from '#functions/plants/routes.ts';
import { identityRouteList } from '#functions/routes.ts';
import { totpCodeAt } from '#shared/auth/totp.ts';
import type { RouteDef } from '#shared/http/route.ts';
import { keys } from '#shared/store/keys.ts';
import { createTenant } from '#shared/tenancy/create-tenant.ts';
import {
  type Answer,
  adminApi,
  aRoleName,
  aStoredUser,
  type Caller,
  expectProblem,
  type RoleResponse,
} from '#test/support/admin.ts';
import { aUser, latestCodeTo, mailsTo, type TestTenant, type TestUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { useLocalStack } from '#test/support/server.ts';
import {
  expectUnchanged,
  type Item,
  itemKey,
  itemsOfTenants,
  snapshotTenant,
  type TenantSnapshot,
  tenantItems,
} from '#test/support/tenant-snapshot.ts';

/**
 * Tenant isolation (issue 9, item 2). Two tenants, A and B, hold the same
 * users under the same e-mail addresses (owner, member, TOTP user, invited
 * user, pending signup, password reset, lockout victim), the same role names,
 * grants, sessions, devices, activity, API keys, plants and pending challenges
 * of every kind. For every route of both route lists that takes an id (a path
 * parameter, or an id field that the scan of its request schemas finds), A's
 * strongest caller sends B's ids and look-alikes of A's and B's ids, and gets
 * the contract's refusal (404 NOT_FOUND; the documented code where the
 * contract names another); A's own id of the same shape is admitted; and
 * every stored item of B, in the identity table and in the plant store's, is
 * byte-for-byte what it was, while none of A's keys names an id of B.
 * Logins, resets and signups with the shared addresses through A touch A only.
 * At the end, B's ids are shown to have been live all along (they still work in B).
 */

const api = useLocalStack();
const { call, logIn, bearer, aRole, grant, listRoles } = adminApi(() => api.url);
const deps = makeTestDeps();

const run = `${process.pid}-${Date.now().toString(36)}`;
const ORIGIN = 'https://shop.example';
/** The addresses both tenants use, each for the same kind of user. */
const EMAIL = {
  owner: `iso-owner-${run}@shop.test`,
  member: `iso-member-${run}@shop.test`,
  totp: `iso-totp-${run}@shop.test`,
  recover: `iso-recover-${run}@shop.test`,
  victim: `iso-victim-${run}@shop.test`,
  invited: `iso-invited-${run}@shop.test`,
  pending: `iso-pending-${run}@shop.test`,
  /** The member's new address in the pending e-mail change. */
  changed: `iso-changed-${run}@shop.test`,
};
const NEW_PASSWORD = `Isolated-${run}-7q`;

interface Mailed {
  id: string;
  code: string;
}

/** One tenant and everything it holds. */
interface World {
  label: 'A' | 'B';
  tenant: TestTenant;
  /** The first admin (SUPER_ADMIN), signed in. */
  owner: Caller;
  /** The admin API key the tests call with, and a spare one they aim at. */
  apiKey: { keyId: string; key: string };
  spareKey: { keyId: string; key: string };
  /** A plain user (DEFAULT and Gardener) with three sessions: its caller's, a spare one, and one refreshed once. */
  member: Caller & {
    user: TestUser;
    sessionId: string;
    spareSessionId: string;
    refreshToken: string;
    rotatedRefreshToken: string;
  };
  totpUser: TestUser;
  recoverUser: TestUser;
  victim: TestUser;
  roles: { gardener: RoleResponse; superAdmin: RoleResponse; admin: RoleResponse; all: RoleResponse[] };
  invitation: { userId: string; token: string };
  challenges: { signup: Mailed; emailChange: Mailed; reset: Mailed; loginOtp: Mailed; loginTotp: { id: string } };
  /** `nextCursor` of the member's activity read one record at a time. */
  activityCursor: string;
  memberActivityIds: string[];
  plant: { id: number; name: string };
}

let A: World;
let B: World;
/** Every item of B (both tables) once the fixtures were made: the state every attack must leave. */
let baseline: TenantSnapshot;

const expectStatus = (res: Answer, status: number, what: string) =>
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
const sessionOf = (refreshToken: string) => refreshToken.split('.')[2] ?? '';

// ---------------------------------------------------------------- fixtures

/** The part of a tenant that needs no mail read (so both tenants are made at once). */
async function aWorld(label: 'A' | 'B', plantId: number): Promise<World> {
  const created = await createTenant(deps, {
    name: `Isolation ${label} ${run}`,
    adminEmail: EMAIL.owner,
    origins: [ORIGIN],
    subdomain: `iso-${label.toLowerCase()}-${run}`,
    loginMode: 'PASSWORD_OR_OTP_EMAIL',
    signupMode: 'OPEN',
  });
  const tenant: TestTenant = {
    ...created,
    headers: { 'content-type': 'application/json', 'x-app-id': created.app, 'x-mid-key': created.mid },
  };
  const [ownerTokens, memberUser, totpUser, recoverUser, victim] = await Promise.all([
    logIn(tenant, created.adminEmail, created.adminPassword),
    aUser(tenant, { email: EMAIL.member }),
    aUser(tenant, { email: EMAIL.totp, totp: true }),
    aUser(tenant, { email: EMAIL.recover }),
    aUser(tenant, { email: EMAIL.victim }),
  ]);
  const owner: Caller = {
    userId: created.adminUserId,
    token: ownerTokens.accessToken,
    refreshToken: ownerTokens.refreshToken,
    headers: bearer(tenant, ownerTokens.accessToken),
  };

  // Three sessions of the member (devices and LOGIN activity come with them); the third is refreshed once.
  const signIn = () => logIn(tenant, memberUser.email, memberUser.password);
  const [mine, spare, refreshed] = await Promise.all([signIn(), signIn(), signIn()]);
  const rotation = await call('POST', '/auth/refresh', tenant.headers, { refreshToken: refreshed.refreshToken });
  expectStatus(rotation, 200, `${label}: refresh`);

  const newKey = async () => {
    const res = await call('POST', `/merchants/${tenant.id}/api-keys`, owner.headers, { label: 'isolation' });
    expectStatus(res, 201, `${label}: api key`);
    return { keyId: res.body.keyId as string, key: res.body.apiKey as string };
  };
  const [apiKey, spareKey, gardener] = await Promise.all([newKey(), newKey(), aRole(owner, 10, 'Gardener')]);
  await grant(owner, memberUser.id, gardener.id);
  const all = await listRoles({ tenant, ...owner });
  const byName = (name: string) => {
    const role = all.find((r) => r.name === name);
    if (!role) throw new Error(`${label}: no role ${name}`);
    return role;
  };

  const plantName = `${label} fern`;
  const plantRes = await fetch(`${api.plantsUrl}/plants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${mine.accessToken}` },
    body: JSON.stringify({ id: plantId, name: plantName }),
  });
  expect(plantRes.status, `${label}: plant`).toBe(200);

  return {
    label,
    tenant,
    owner,
    apiKey,
    spareKey,
    member: {
      user: memberUser,
      userId: memberUser.id,
      token: mine.accessToken,
      refreshToken: rotation.body.data.refreshToken,
      headers: bearer(tenant, mine.accessToken),
      sessionId: sessionOf(mine.refreshToken),
      spareSessionId: sessionOf(spare.refreshToken),
      rotatedRefreshToken: refreshed.refreshToken,
    },
    totpUser,
    recoverUser,
    victim,
    roles: { gardener, superAdmin: byName('SUPER_ADMIN'), admin: byName('ADMIN'), all },
    invitation: { userId: '', token: '' },
    challenges: {
      signup: { id: '', code: '' },
      emailChange: { id: '', code: '' },
      reset: { id: '', code: '' },
      loginOtp: { id: '', code: '' },
      loginTotp: { id: '' },
    },
    activityCursor: '',
    memberActivityIds: [],
    plant: { id: plantId, name: plantName },
  };
}

/**
 * The invitation and the pending e-mail challenges. Both tenants mail the same
 * addresses, so this runs for one tenant at a time and reads each code at once.
 */
async function openMailedChallenges(world: World) {
  const { tenant, owner, member, label } = world;
  const ses = api.stack.sesUrl;

  const invited = await call('POST', '/users/invitations', owner.headers, { email: EMAIL.invited });
  expectStatus(invited, 201, `${label}: invitation`);
  const token = /invitationToken=([A-Za-z0-9_-]+)/.exec((await mailsTo(ses, EMAIL.invited)).at(-1)?.body.text ?? '');
  world.invitation = { userId: invited.body.userId, token: token?.[1] ?? '' };
  expect(world.invitation.token, `${label}: invitation token mailed`).not.toBe('');

  const signup = await call('POST', '/auth/signup', tenant.headers, {
    app: tenant.app,
    mid: tenant.mid,
    email: EMAIL.pending,
    password: `Pending-${run}-4k`,
    firstName: 'Pending',
    lastName: label,
  });
  expectStatus(signup, 201, `${label}: signup`);
  world.challenges.signup = { id: signup.body.data.challengeId, code: await latestCodeTo(ses, EMAIL.pending) };

  const change = await call('POST', '/users/me/email-change', member.headers, { newEmail: EMAIL.changed });
  expectStatus(change, 200, `${label}: e-mail change`);
  world.challenges.emailChange = { id: change.body.challengeId, code: await latestCodeTo(ses, EMAIL.changed) };

  const forgot = await call('POST', '/auth/forgot-password', tenant.headers, { email: EMAIL.recover });
  expectStatus(forgot, 202, `${label}: forgot password`);
  world.challenges.reset = { id: forgot.body.challengeId, code: await latestCodeTo(ses, EMAIL.recover) };

  const otp = await call('POST', '/auth/login', tenant.headers, { email: EMAIL.member, loginMode: 'OTP_EMAIL' });
  expectStatus(otp, 200, `${label}: e-mail code login`);
  world.challenges.loginOtp = { id: otp.body.data.challengeId, code: await latestCodeTo(ses, EMAIL.member) };

  const totp = await call('POST', '/auth/login', tenant.headers, {
    email: EMAIL.totp,
    password: world.totpUser.password,
  });
  expectStatus(totp, 200, `${label}: TOTP login`);
  expect(totp.body.data.challengeType).toBe('TOTP');
  world.challenges.loginTotp = { id: totp.body.data.challengeId };
}

/** A member's activity, as the owner reads it: the ids, and a cursor after the newest record. */
async function readActivity(world: World) {
  const page = await call('GET', `/users/${world.member.userId}/activity?limit=1`, world.owner.headers);
  expectStatus(page, 200, `${world.label}: activity page`);
  world.activityCursor = page.body.nextCursor;
  const all = await call('GET', `/users/${world.member.userId}/activity?limit=100`, world.owner.headers);
  world.memberActivityIds = all.body.items.map((item: { id: string }) => item.id);
}

beforeAll(async () => {
  [A, B] = await Promise.all([aWorld('A', 7_000_001), aWorld('B', 7_000_002)]);
  await openMailedChallenges(A);
  await openMailedChallenges(B);
  // B's victim has two failed logins: a lockout counter that A's failures must not move.
  for (let i = 0; i < 2; i++) {
    const res = await call('POST', '/auth/login', B.tenant.headers, { email: EMAIL.victim, password: 'Wrong-pass-1' });
    expectStatus(res, 401, 'B: failed login');
  }
  await Promise.all([readActivity(A), readActivity(B)]);
  baseline = await snapshotB();
}, 120_000);

// ---------------------------------------------------------------- reading the store

const snapshotB = () => snapshotTenant(deps, B.tenant, api.stack.plantsTableName);

/** What kind of item this is: its `entity`, or for the guard items (no entity attribute) the key's segment. */
function kindOf(item: Item): string {
  if (typeof item.entity === 'string') return item.type ? `${item.entity}:${String(item.type)}` : item.entity;
  const pk = String(item.pk);
  if (pk.includes('#LOCK#')) return 'LOCK';
  if (pk.includes('#RATE#')) return 'RATE';
  return 'UNKNOWN';
}

/** Every id of B that a request through A could be aimed at. */
function idsOfB(): string[] {
  return [
    B.tenant.id,
    B.tenant.app,
    B.tenant.mid,
    B.tenant.publicApiKey,
    B.owner.userId,
    B.member.userId,
    B.totpUser.id,
    B.recoverUser.id,
    B.victim.id,
    B.invitation.userId,
    B.member.sessionId,
    B.member.spareSessionId,
    sessionOf(B.member.refreshToken),
    B.apiKey.keyId,
    B.spareKey.keyId,
    ...B.roles.all.map((role) => role.id),
    ...Object.values(B.challenges).map((challenge) => challenge.id),
  ];
}

/** B's items are byte-for-byte the baseline, and no key of A's names an id of B (nothing was written beside them). */
async function expectBUntouched(what: string) {
  // One pass over the identity table reads both tenants.
  const [[identity = [], ofA = []], plants] = await Promise.all([
    itemsOfTenants(deps, [B.tenant, A.tenant]),
    tenantItems(deps, B.tenant, api.stack.plantsTableName),
  ]);
  expectUnchanged(baseline, { identity, plants }, what);
  const ids = idsOfB().map((id) => id.toLowerCase());
  const traces = ofA
    .map((item) => [item.pk, item.sk, item.gsi1pk, item.gsi1sk].join(' ').toLowerCase())
    .filter((key) => ids.some((id) => key.includes(id)));
  expect(traces, `${what}: keys of A naming an id of B`).toEqual([]);
}

// ---------------------------------------------------------------- requests

type CallerKind = 'SUPER_ADMIN' | 'API key' | 'member' | 'anonymous' | 'browser' | 'member (plant store)';

const CALLER_NAMES: Record<CallerKind, string> = {
  SUPER_ADMIN: "A's SUPER_ADMIN",
  'API key': "A's admin API key",
  member: "A's signed-in member (self-service)",
  anonymous: "A's tenant headers (public route)",
  browser: 'a browser of the shared origin (no tenant headers)',
  'member (plant store)': "A's member's access token at the plant store",
};

function headersOf(kind: CallerKind, world: World): Record<string, string> {
  switch (kind) {
    case 'SUPER_ADMIN':
      return world.owner.headers;
    case 'API key':
      return { ...world.tenant.headers, 'x-api-key': world.apiKey.key };
    case 'member':
      return world.member.headers;
    case 'anonymous':
      return world.tenant.headers;
    case 'browser':
      return { origin: ORIGIN, 'access-control-request-method': 'DELETE' };
    case 'member (plant store)':
      return { 'content-type': 'application/json', authorization: `Bearer ${world.member.token}` };
  }
}

const plantOperations = new Set(plantRouteList.map((route) => route.operationId));

async function send(route: RouteDef, shape: Shape, headers: Record<string, string>): Promise<Answer> {
  const base = plantOperations.has(route.operationId) ? api.plantsUrl : api.url;
  const res = await fetch(`${base}${shape.path}`, {
    method: route.method,
    headers,
    ...(shape.body === undefined ? {} : { body: JSON.stringify(shape.body) }),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: kept as text, for the message.
  }
  return { status: res.status, headers: res.headers, body };
}

/** A request: its path (with the query) and body. */
interface Shape {
  path: string;
  body?: unknown;
}

/** What an answer must be; `check` throws (an `expect`) otherwise. */
interface Expectation {
  says: string;
  check(res: Answer): void | Promise<void>;
}

interface Variant extends Shape {
  name: string;
  /** When this request must get something else than the recipe's `refusal`. */
  expect?: Expectation;
}

interface Recipe {
  /** A's strongest callers that the route admits with A's own ids. */
  callers: CallerKind[];
  /** What B's ids and the look-alikes must get. */
  refusal: Expectation;
  /** The requests with B's ids and look-alikes. */
  foreign: () => Variant[];
  /** One after another (they build on each other), not all at once. */
  sequential?: boolean;
  /** A request with A's own ids of the same shape, made fresh for the caller. */
  own: () => Shape | Promise<Shape>;
  /** The status that admits it. */
  admitted: number;
}

const problem = (status: number, code: string): Expectation => ({
  says: `${status} ${code}`,
  check: (res) => expectProblem(res, status, code),
});
const NOT_FOUND = problem(404, 'NOT_FOUND');
const TENANT_MISMATCH = problem(403, 'TENANT_MISMATCH');
const INVALID_CODE = problem(401, 'INVALID_CODE');

const enc = encodeURIComponent;
const changeLast = (id: string) => `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`;

/** B's id, and ids made to resemble B's or A's id of the same kind (`newId`: a type prefix, `_`, 20 base32 characters). */
function lookalikes(b: string, a: string): { name: string; value: string }[] {
  const half = Math.floor(a.length / 2);
  return [
    { name: "B's id", value: b },
    { name: "B's id in upper case", value: b.toUpperCase() },
    { name: "B's id with its last character changed", value: changeLast(b) },
    { name: "A's id with its last character changed", value: changeLast(a) },
    { name: "A's id in upper case", value: a.toUpperCase() },
    { name: "B's id behind A's prefix (A's first half, B's second)", value: a.slice(0, half) + b.slice(half) },
    { name: "B's id within spaces", value: ` ${b} ` },
  ];
}

/** `app` and `mid` in a body naming B, wholly or in part, or A's in another case. */
function tenantNamings(): { name: string; value: { app: string; mid: string } }[] {
  return [
    { name: "B's app and mid", value: { app: B.tenant.app, mid: B.tenant.mid } },
    { name: "A's app with B's mid", value: { app: A.tenant.app, mid: B.tenant.mid } },
    { name: "B's app with A's mid", value: { app: B.tenant.app, mid: A.tenant.mid } },
    { name: "A's app in upper case", value: { app: A.tenant.app.toUpperCase(), mid: A.tenant.mid } },
  ];
}

const ADMINS: CallerKind[] = ['SUPER_ADMIN', 'API key'];

/** Other users of B, beyond the member whose id the look-alikes are made from. */
const otherUsersOfB = () => [
  { name: "B's SUPER_ADMIN's id", value: B.owner.userId },
  { name: "B's TOTP user's id", value: B.totpUser.id },
  { name: "B's invited user's id", value: B.invitation.userId },
];

/** A `/users/{id}…` admin route: B's users and look-alikes of the member's id are 404. */
function onUser(suffix: string, own: () => string | Promise<string>, admitted: number, body?: unknown): Recipe {
  return {
    callers: ADMINS,
    refusal: NOT_FOUND,
    foreign: () =>
      [...lookalikes(B.member.userId, A.member.userId), ...otherUsersOfB()].map((v) => ({
        name: v.name,
        path: `/users/${enc(v.value)}${suffix}`,
        body,
      })),
    own: async () => ({ path: `/users/${await own()}${suffix}`, body }),
    admitted,
  };
}

/** A `/merchants/{id}…` route: B's merchant id and look-alikes are 404. */
function onMerchant(suffix: string, admitted: number, body?: () => unknown): Recipe {
  return {
    callers: ADMINS,
    refusal: NOT_FOUND,
    foreign: () =>
      lookalikes(B.tenant.id, A.tenant.id).map((v) => ({
        name: v.name,
        path: `/merchants/${enc(v.value)}${suffix}`,
        body: body?.(),
      })),
    own: () => ({ path: `/merchants/${A.tenant.id}${suffix}`, body: body?.() }),
    admitted,
  };
}

const freshUserOfA = async () => (await aStoredUser(A.tenant)).id;

/** The activity of A's member may be paged with B's cursor: the cursor is a position, never a partition. */
const onlyActivityOfA: Expectation = {
  says: "200 with A's member's activity only",
  check: (res) => {
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ids = (res.body.items as { id: string }[]).map((item) => item.id);
    expect(
      ids.filter((id) => B.memberActivityIds.includes(id)),
      "B's records",
    ).toEqual([]);
    expect(
      ids.filter((id) => !A.memberActivityIds.includes(id)),
      "records not of A's member",
    ).toEqual([]);
  },
};

/** Challenge answers: B's challenges with B's own (right) codes, and look-alikes, through A. */
function challengeVariants(mine: keyof World['challenges'], extra: Partial<Record<string, unknown>> = {}): Variant[] {
  const b = B.challenges[mine];
  const a = A.challenges[mine];
  const code = 'code' in b ? b.code : totpCodeAt(B.totpUser.totpSecret ?? '', new Date());
  const others = (Object.keys(B.challenges) as (keyof World['challenges'])[])
    .filter((kind) => kind !== mine)
    .map((kind) => {
      const other = B.challenges[kind];
      return {
        name: `B's ${kind} challenge with its code`,
        body: {
          challengeId: other.id,
          code: 'code' in other ? other.code : totpCodeAt(B.totpUser.totpSecret ?? '', new Date()),
        },
      };
    });
  return [
    ...lookalikes(b.id, a.id).map((v) => ({ name: `${v.name} with B's code`, body: { challengeId: v.value, code } })),
    ...others,
  ].map((v) => ({ ...v, path: '', body: { ...v.body, ...extra } }));
}

const atPath = (path: string, variants: Variant[]) => variants.map((v) => ({ ...v, path }));

/**
 * One recipe per route that takes an id, by operationId. A route with a path
 * parameter, or an id field in its request schemas, and no recipe here fails
 * the first test.
 */
const recipes: Record<string, Recipe> = {
  // --- CORS preflight: reads no tenant data, whatever the path names.
  preflight: {
    callers: ['browser'],
    refusal: {
      says: '204 with an empty body',
      check: async (res) => {
        expect(res.status).toBe(204);
        expect(res.body).toBeUndefined();
      },
    },
    foreign: () => [
      { name: "B's user", path: `/users/${B.member.userId}` },
      { name: "B's API key", path: `/merchants/${B.tenant.id}/api-keys/${B.apiKey.keyId}` },
      { name: "B's session", path: `/users/me/sessions/${B.member.spareSessionId}` },
      { name: "B's role", path: `/roles/${B.roles.gardener.id}` },
    ],
    own: () => ({ path: `/users/${A.member.userId}` }),
    admitted: 204,
  },

  // --- discovery: `clientId` picks the tenant by design (public configuration); look-alikes pick none.
  discovery: {
    callers: ['browser'],
    refusal: problem(404, 'TENANT_NOT_FOUND'),
    foreign: () => [
      {
        name: "B's public client key (public by design: B's configuration, as B's own browsers get it)",
        path: `/auth/discovery?clientId=${enc(B.tenant.publicApiKey)}&slug=${A.tenant.subdomain}`,
        expect: {
          says: "200 with B's public configuration",
          check: (res) => {
            expect(res.status).toBe(200);
            expect({ app: res.body.app, mid: res.body.mid }).toEqual({ app: B.tenant.app, mid: B.tenant.mid });
          },
        },
      },
      ...lookalikes(B.tenant.publicApiKey, A.tenant.publicApiKey)
        .filter((v) => v.name !== "B's id" && v.name !== "B's id within spaces")
        .map((v) => ({ name: v.name, path: `/auth/discovery?clientId=${enc(v.value)}` })),
    ],
    own: () => ({ path: `/auth/discovery?clientId=${enc(A.tenant.publicApiKey)}` }),
    admitted: 200,
  },

  // --- public routes that take B's tokens and challenges.
  signup: {
    callers: ['anonymous'],
    refusal: problem(403, 'SIGNUP_NOT_ALLOWED'),
    foreign: () => {
      const body = (over: Record<string, unknown>) => ({
        app: A.tenant.app,
        mid: A.tenant.mid,
        email: EMAIL.invited,
        password: NEW_PASSWORD,
        firstName: 'Invited',
        lastName: 'Isolation',
        ...over,
      });
      return [
        ...lookalikes(B.invitation.token, A.invitation.token).map((v) => ({
          name: `invitationToken: ${v.name}`,
          path: '/auth/signup',
          body: body({ invitationToken: v.value }),
        })),
        ...tenantNamings().map((v) => ({
          name: v.name,
          path: '/auth/signup',
          body: body({ ...v.value, invitationToken: A.invitation.token }),
          expect: TENANT_MISMATCH,
        })),
      ];
    },
    own: () => ({
      path: '/auth/signup',
      body: {
        app: A.tenant.app,
        mid: A.tenant.mid,
        email: EMAIL.invited,
        password: NEW_PASSWORD,
        firstName: 'Invited',
        lastName: 'Isolation',
        invitationToken: A.invitation.token,
      },
    }),
    admitted: 201,
  },
  signupVerify: {
    callers: ['anonymous'],
    refusal: INVALID_CODE,
    foreign: () => atPath('/auth/signup/verify', challengeVariants('signup')),
    own: () => ({
      path: '/auth/signup/verify',
      body: { challengeId: A.challenges.signup.id, code: A.challenges.signup.code },
    }),
    admitted: 200,
  },
  loginVerify: {
    callers: ['anonymous'],
    refusal: INVALID_CODE,
    foreign: () => [
      ...atPath('/auth/login/verify', challengeVariants('loginOtp')),
      ...atPath('/auth/login/verify', challengeVariants('loginTotp')).filter((v) => v.name.startsWith("B's id ")),
    ],
    own: () => ({
      path: '/auth/login/verify',
      body: { challengeId: A.challenges.loginTotp.id, code: totpCodeAt(A.totpUser.totpSecret ?? '', new Date()) },
    }),
    admitted: 200,
  },
  resetPassword: {
    callers: ['anonymous'],
    refusal: INVALID_CODE,
    foreign: () => atPath('/auth/reset-password', challengeVariants('reset', { newPassword: NEW_PASSWORD })),
    own: () => ({
      path: '/auth/reset-password',
      body: { challengeId: A.challenges.reset.id, code: A.challenges.reset.code, newPassword: NEW_PASSWORD },
    }),
    admitted: 204,
  },
  refresh: {
    callers: ['anonymous'],
    refusal: problem(401, 'REFRESH_TOKEN_INVALID'),
    foreign: () => {
      const [, bUser, bSession, bSecret] = B.member.refreshToken.split('.');
      const [, aUser, aSession, aSecret] = A.member.refreshToken.split('.');
      return [
        { name: "B's refresh token", token: B.member.refreshToken },
        {
          name: "B's refresh token already rotated out (a replay: still not REUSED, and B's session lives)",
          token: B.member.rotatedRefreshToken,
        },
        { name: "B's token in upper case", token: B.member.refreshToken.toUpperCase() },
        { name: "B's token with its last character changed", token: changeLast(B.member.refreshToken) },
        { name: "A's user and session with B's secret", token: `rt1.${aUser}.${aSession}.${bSecret}` },
        { name: "B's user and session with A's secret", token: `rt1.${bUser}.${bSession}.${aSecret}` },
        { name: "A's user with B's session and secret", token: `rt1.${aUser}.${bSession}.${bSecret}` },
        { name: "B's user with A's session and secret", token: `rt1.${bUser}.${aSession}.${aSecret}` },
      ].map((v) => ({ name: v.name, path: '/auth/refresh', body: { refreshToken: v.token } }));
    },
    own: () => ({ path: '/auth/refresh', body: { refreshToken: A.member.refreshToken } }),
    admitted: 200,
  },

  // --- self-service (bearer) routes.
  verifyEmailChange: {
    callers: ['member'],
    refusal: INVALID_CODE,
    foreign: () =>
      atPath(
        '/users/me/email-change/verify',
        // This route takes 6-digit codes only: B's TOTP challenge is answered with its TOTP code, also 6 digits.
        challengeVariants('emailChange'),
      ),
    own: () => ({
      path: '/users/me/email-change/verify',
      body: { challengeId: A.challenges.emailChange.id, code: A.challenges.emailChange.code },
    }),
    admitted: 200,
  },
  revokeMySession: {
    callers: ['member'],
    refusal: NOT_FOUND,
    foreign: () =>
      [
        ...lookalikes(B.member.spareSessionId, A.member.spareSessionId),
        { name: "B's member's current session", value: B.member.sessionId },
        { name: "B's member's refreshed session", value: sessionOf(B.member.refreshToken) },
      ].map((v) => ({ name: v.name, path: `/users/me/sessions/${enc(v.value)}` })),
    own: () => ({ path: `/users/me/sessions/${A.member.spareSessionId}` }),
    admitted: 204,
  },

  // --- admin routes on users.
  getUser: onUser('', () => A.member.userId, 200),
  deleteUser: onUser('', freshUserOfA, 204),
  setUserStatus: onUser('/status', freshUserOfA, 200, { status: 'DISABLED' }),
  resetUserTotp: onUser('/totp', freshUserOfA, 204),
  listUserDevices: onUser('/devices', () => A.member.userId, 200),
  listUserActivity: (() => {
    const base = onUser('/activity', () => A.member.userId, 200);
    return {
      ...base,
      foreign: () => [
        ...base.foreign(),
        {
          name: "A's member with a cursor from B's member's activity",
          path: `/users/${A.member.userId}/activity?limit=100&cursor=${enc(B.activityCursor)}`,
          expect: onlyActivityOfA,
        },
        {
          name: "A's member with a cursor that names B's activity partition",
          path: `/users/${A.member.userId}/activity?limit=100&cursor=${enc(
            Buffer.from(
              JSON.stringify({
                pk: keys.activityPartition(B.tenant, B.member.userId),
                sk: JSON.parse(Buffer.from(B.activityCursor, 'base64url').toString('utf8')).sk,
              }),
            ).toString('base64url'),
          )}`,
          expect: onlyActivityOfA,
        },
      ],
    };
  })(),

  // --- merchants and API keys.
  updateMerchant: onMerchant('', 200, () => ({ primaryColor: '#2e7d32' })),
  listApiKeys: onMerchant('/api-keys', 200),
  createApiKey: onMerchant('/api-keys', 201, () => ({ label: 'isolation' })),
  revokeApiKey: {
    callers: ADMINS,
    refusal: NOT_FOUND,
    foreign: () => [
      ...lookalikes(B.tenant.id, A.tenant.id).map((v) => ({
        name: `merchant: ${v.name}, key: A's spare key`,
        path: `/merchants/${enc(v.value)}/api-keys/${A.spareKey.keyId}`,
      })),
      ...lookalikes(B.apiKey.keyId, A.spareKey.keyId).map((v) => ({
        name: `merchant: A's, key: ${v.name}`,
        path: `/merchants/${A.tenant.id}/api-keys/${enc(v.value)}`,
      })),
      { name: "B's merchant and B's key", path: `/merchants/${B.tenant.id}/api-keys/${B.apiKey.keyId}` },
    ],
    own: async () => {
      const res = await call('POST', `/merchants/${A.tenant.id}/api-keys`, A.owner.headers, { label: 'to revoke' });
      expectStatus(res, 201, 'A: api key to revoke');
      return { path: `/merchants/${A.tenant.id}/api-keys/${res.body.keyId}` };
    },
    admitted: 204,
  },

  // --- roles and grants.
  createRole: {
    callers: ADMINS,
    refusal: TENANT_MISMATCH,
    foreign: () =>
      tenantNamings().map((v) => ({
        name: v.name,
        path: '/roles',
        body: { name: aRoleName('Iso'), priority: 10, ...v.value },
      })),
    own: () => ({
      path: '/roles',
      body: { name: aRoleName('Iso'), priority: 10, app: A.tenant.app, mid: A.tenant.mid },
    }),
    admitted: 201,
  },
  deleteRole: {
    callers: ADMINS,
    refusal: NOT_FOUND,
    foreign: () =>
      [
        ...lookalikes(B.roles.gardener.id, A.roles.gardener.id),
        { name: "B's SUPER_ADMIN role", value: B.roles.superAdmin.id },
        { name: "B's ADMIN role", value: B.roles.admin.id },
      ].map((v) => ({ name: v.name, path: `/roles/${enc(v.value)}` })),
    own: async () => ({ path: `/roles/${(await aRole(A.owner, 10)).id}` }),
    admitted: 204,
  },
  assignRole: grantRecipe('/roles/assign', async () => ({
    userId: await freshUserOfA(),
    roleId: A.roles.gardener.id,
  })),
  revokeRole: grantRecipe('/roles/revoke', async () => {
    const userId = await freshUserOfA();
    await grant(A.owner, userId, A.roles.gardener.id);
    return { userId, roleId: A.roles.gardener.id };
  }),

  // --- the plant store: ids are per tenant, so B's plant id is free in A, and B's plant is untouched.
  createPlant: {
    callers: ['member (plant store)'],
    refusal: {
      says: "200 with A's own plant (ids are per tenant)",
      check: (res) => {
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toEqual({ id: B.plant.id, name: 'A takes B id' });
      },
    },
    sequential: true,
    foreign: () => [
      { name: "B's plant id", path: '/plants', body: { id: B.plant.id, name: 'A takes B id' } },
      {
        name: "B's plant id again (now A's: the id is checked within A only)",
        path: '/plants',
        body: { id: B.plant.id, name: 'A takes B id' },
        expect: {
          says: '400 (duplicate in A)',
          check: (res) => {
            expect(res.status, JSON.stringify(res.body)).toBe(400);
            expect(res.body.error).toBe(400);
          },
        },
      },
    ],
    own: () => ({ path: '/plants', body: { id: 7_000_100 + Math.floor(Math.random() * 1_000_000), name: 'A own' } }),
    admitted: 200,
  },
};

/** POST /roles/assign and /roles/revoke: B's user or role (and look-alikes) are 404; B's app or mid is 403. */
function grantRecipe(path: string, own: () => Promise<{ userId: string; roleId: string }>): Recipe {
  return {
    callers: ADMINS,
    refusal: NOT_FOUND,
    foreign: () => [
      ...lookalikes(B.member.userId, A.member.userId).map((v) => ({
        name: `userId: ${v.name}`,
        path,
        body: { userId: v.value, roleId: A.roles.gardener.id },
      })),
      ...lookalikes(B.roles.gardener.id, A.roles.gardener.id).map((v) => ({
        name: `roleId: ${v.name}`,
        path,
        body: { userId: A.member.userId, roleId: v.value },
      })),
      { name: "roleId: B's SUPER_ADMIN role", path, body: { userId: A.member.userId, roleId: B.roles.superAdmin.id } },
      { name: "B's user and B's role", path, body: { userId: B.member.userId, roleId: B.roles.gardener.id } },
      ...tenantNamings().map((v) => ({
        name: v.name,
        path,
        body: { userId: A.member.userId, roleId: A.roles.gardener.id, ...v.value },
        expect: TENANT_MISMATCH,
      })),
    ],
    own: async () => ({ path, body: await own() }),
    admitted: 204,
  };
}

// ---------------------------------------------------------------- which routes take ids

const allRoutes: readonly RouteDef[] = [...identityRouteList, ...plantRouteList];

/** A field that names something stored: an id, a token, a cursor, or the tenant (`app`, `mid`). */
const ID_FIELD = /^(id|app|mid|cursor|[a-z]+Id|[a-z]*Token)$/;

/** The field names of a valibot schema, through objects, pipes, optionals, unions and arrays. */
function fieldNames(schema: unknown, out = new Set<string>()): Set<string> {
  if (!schema || typeof schema !== 'object') return out;
  const s = schema as { entries?: Record<string, unknown>; wrapped?: unknown; options?: unknown; item?: unknown };
  for (const [name, entry] of Object.entries(s.entries ?? {})) {
    out.add(name);
    fieldNames(entry, out);
  }
  fieldNames(s.wrapped, out);
  if (Array.isArray(s.options)) for (const option of s.options) fieldNames(option, out);
  fieldNames(s.item, out);
  return out;
}

/** The id fields of a route's body and query (its path parameters are read from the path). */
const bodyAndQueryIdFields = (route: RouteDef) =>
  [...fieldNames(route.body), ...fieldNames(route.query)].filter((name) => ID_FIELD.test(name)).sort();
const pathParameters = (route: RouteDef) => [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

/** The body and query id fields, listed by hand: the scan must find exactly these (a new one fails the test). */
const ID_FIELDS_BY_HAND: Record<string, string[]> = {
  discovery: ['clientId'],
  signup: ['app', 'invitationToken', 'mid'],
  signupVerify: ['challengeId'],
  loginVerify: ['challengeId'],
  refresh: ['refreshToken'],
  resetPassword: ['challengeId'],
  verifyEmailChange: ['challengeId'],
  listUserActivity: ['cursor'],
  createRole: ['app', 'mid'],
  assignRole: ['app', 'mid', 'roleId', 'userId'],
  revokeRole: ['app', 'mid', 'roleId', 'userId'],
  createPlant: ['id'],
};

// The $default routes (notFound, plantsNotFound) take no id and read nothing: no path parameter, no recipe.
const takesIds = (route: RouteDef) =>
  pathParameters(route).length > 0 ||
  bodyAndQueryIdFields(route).length > 0 ||
  Object.hasOwn(ID_FIELDS_BY_HAND, route.operationId);

describe('the routes that take an id', () => {
  it('each have a recipe here (path parameters, and id fields found in the request schemas or listed by hand)', () => {
    const missing = allRoutes
      .filter(takesIds)
      .map((route) => route.operationId)
      .filter((id) => !(id in recipes));
    expect(missing, 'routes that take an id without a recipe in tenant-isolation.test.ts').toEqual([]);
    const stale = Object.keys(recipes).filter((id) => !allRoutes.some((route) => route.operationId === id));
    expect(stale, 'recipes for routes no longer listed').toEqual([]);
  });

  it('the scan of the request schemas finds exactly the id fields listed by hand', () => {
    const scanned = Object.fromEntries(
      allRoutes
        .map((route) => [route.operationId, bodyAndQueryIdFields(route)] as const)
        .filter(([, fields]) => fields.length > 0),
    );
    expect(scanned).toEqual(ID_FIELDS_BY_HAND);
  });

  it('both tenants hold the same users, e-mail for e-mail, and B holds every kind of item the attacks aim at', async () => {
    const emails = async (world: World) => {
      const res = await call('GET', '/users', world.owner.headers);
      return (res.body as { email: string }[]).map((user) => user.email).sort();
    };
    const [ofA, ofB] = await Promise.all([emails(A), emails(B)]);
    expect(ofA).toEqual(ofB);
    expect(ofA).toEqual(expect.arrayContaining([EMAIL.owner, EMAIL.member, EMAIL.totp, EMAIL.invited, EMAIL.pending]));
    expect(A.roles.gardener.name).toBe(B.roles.gardener.name);

    const kinds = new Set(baseline.identity.map(kindOf));
    expect([...kinds].sort()).toEqual(
      expect.arrayContaining([
        'MERCHANT',
        'SUBDOMAIN',
        'ORIGIN',
        'ROLE',
        'ROLE_NAME',
        'USER',
        'USER_EMAIL',
        'SESSION',
        'USED_REFRESH_TOKEN',
        'DEVICE',
        'ACTIVITY:LOGIN',
        'ACTIVITY:LOGIN_FAILED',
        'ACTIVITY:ROLE_ASSIGNED',
        'CHALLENGE:SIGNUP',
        'CHALLENGE:EMAIL_CHANGE',
        'CHALLENGE:PASSWORD_RESET',
        'CHALLENGE:LOGIN_OTP',
        'CHALLENGE:LOGIN_TOTP',
        'INVITATION',
        'LOCK',
        'RATE',
        'API_KEY',
      ]),
    );
    expect(
      kinds.has('UNKNOWN'),
      baseline.identity
        .filter((i) => kindOf(i) === 'UNKNOWN')
        .map(itemKey)
        .join(),
    ).toBe(false);
    expect(baseline.identity.some((item) => item.entity === 'USER' && item.totpEnabled === true)).toBe(true);
    expect(baseline.plants.map((item) => item.id)).toEqual([B.plant.id]);
  });
});

// ---------------------------------------------------------------- the attacks, route by route

for (const route of allRoutes.filter((r) => r.operationId in recipes)) {
  const recipe = recipes[route.operationId] as Recipe;
  describe(`${route.method} ${route.path} (${route.operationId})`, () => {
    for (const caller of recipe.callers) {
      it(`answers ${recipe.refusal.says} to ${CALLER_NAMES[caller]} for B's ids and look-alikes; B's items stay byte-for-byte the same`, async () => {
        const headers = headersOf(caller, A);
        const variants = recipe.foreign();
        expect(variants.length).toBeGreaterThan(0);
        const outcome = async (variant: Variant) => {
          const res = await send(route, variant, headers);
          const expected = variant.expect ?? recipe.refusal;
          try {
            await expected.check(res);
            return null;
          } catch (error) {
            return `${variant.name}: wanted ${expected.says}, got ${res.status} ${JSON.stringify(res.body)} (${
              (error as Error).message.split('\n')[0]
            })`;
          }
        };
        const wrong: (string | null)[] = [];
        if (recipe.sequential) for (const variant of variants) wrong.push(await outcome(variant));
        else wrong.push(...(await Promise.all(variants.map(outcome))));
        expect(wrong.filter((w) => w !== null)).toEqual([]);
        await expectBUntouched(`${route.operationId} as ${caller}`);
      });

      it(`admits ${CALLER_NAMES[caller]} with A's own id of the same shape (${recipe.admitted})`, async () => {
        const res = await send(route, await recipe.own(), headersOf(caller, A));
        expectStatus(res, recipe.admitted, `${route.operationId} with A's id`);
      });
    }
  });
}

// ---------------------------------------------------------------- credentials and e-mails shared by both tenants

describe("X-Api-Key with B's key, or a key made of A's and B's halves, on A's admin routes", () => {
  it("answers 401 UNAUTHENTICATED and B's key is untouched (its lastUsedAt too)", async () => {
    const [, , bKeyId, ...bRest] = B.apiKey.key.split('_');
    const [, , aKeyId, ...aRest] = A.apiKey.key.split('_');
    const variants = [
      B.apiKey.key,
      `sk_key_${bKeyId}_${aRest.join('_')}`,
      `sk_key_${aKeyId}_${bRest.join('_')}`,
      B.spareKey.key,
    ];
    const answers = await Promise.all(
      variants.map((key) => call('GET', '/users', { ...A.tenant.headers, 'x-api-key': key })),
    );
    for (const res of answers) expectProblem(res, 401, 'UNAUTHENTICATED');
    await expectBUntouched('X-Api-Key of B');
  });
});

describe('the same e-mail addresses through A', () => {
  it("count failed logins against A's victim only: A locks at its own 6th attempt (B's 2 failures are not A's), B's counter stays", async () => {
    const wrong = () =>
      call('POST', '/auth/login', A.tenant.headers, { email: EMAIL.victim, password: 'Wrong-pass-1' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await wrong()).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const lock = (await tenantItems(deps, A.tenant)).find(
      (item) => item.pk === keys.lockout(A.tenant, EMAIL.victim).pk,
    );
    expect(lock, "A's lockout item").toBeDefined();
    await expectBUntouched("failed logins with B's victim's address through A");
  });

  it("refuse B's owner's password in A (401 INVALID_CREDENTIALS) and sign A's own owner in with A's", async () => {
    const withB = await call('POST', '/auth/login', A.tenant.headers, {
      email: EMAIL.owner,
      password: B.tenant.adminPassword,
    });
    expectProblem(withB, 401, 'INVALID_CREDENTIALS');
    const withA = await call('POST', '/auth/login', A.tenant.headers, {
      email: EMAIL.owner,
      password: A.tenant.adminPassword,
    });
    expectStatus(withA, 200, "A's owner logs in");
    expect(withA.body.data.user.id).toBe(A.owner.userId);
    await expectBUntouched("logins with B's owner's address through A");
  });

  it('open forgot-password, signup and e-mail code challenges in A only', async () => {
    const challengesOfA = async () =>
      (await tenantItems(deps, A.tenant)).filter((item) => item.entity === 'CHALLENGE').length;
    const before = await challengesOfA();
    const answers = await Promise.all([
      call('POST', '/auth/forgot-password', A.tenant.headers, { email: EMAIL.totp }),
      call('POST', '/auth/signup', A.tenant.headers, {
        app: A.tenant.app,
        mid: A.tenant.mid,
        email: EMAIL.totp,
        password: NEW_PASSWORD,
        firstName: 'Already',
        lastName: 'There',
      }),
      call('POST', '/auth/login', A.tenant.headers, { email: EMAIL.recover, loginMode: 'OTP_EMAIL' }),
    ]);
    expect(answers.map((res) => res.status)).toEqual([202, 201, 200]);
    expect(await challengesOfA()).toBe(before + 3);
    await expectBUntouched("forgot-password, signup and e-mail code login with B's addresses through A");
  });
});

// ---------------------------------------------------------------- B's ids were live all along

describe("B's ids, after every attack through A", () => {
  it('still work in B: the attacks were aimed at live tokens, challenges, keys and sessions', async () => {
    const h = B.tenant.headers;
    const totp = totpCodeAt(B.totpUser.totpSecret ?? '', new Date());
    const checks: [string, Promise<Answer>, number][] = [
      ['refresh', call('POST', '/auth/refresh', h, { refreshToken: B.member.refreshToken }), 200],
      ['API key', call('GET', '/users', { ...h, 'x-api-key': B.apiKey.key }), 200],
      ['spare API key', call('GET', '/roles', { ...h, 'x-api-key': B.spareKey.key }), 200],
      ['signup verify', call('POST', '/auth/signup/verify', h, challengeBody(B.challenges.signup)), 200],
      ['login verify (e-mail code)', call('POST', '/auth/login/verify', h, challengeBody(B.challenges.loginOtp)), 200],
      [
        'login verify (TOTP)',
        call('POST', '/auth/login/verify', h, { challengeId: B.challenges.loginTotp.id, code: totp }),
        200,
      ],
      [
        'reset password',
        call('POST', '/auth/reset-password', h, { ...challengeBody(B.challenges.reset), newPassword: NEW_PASSWORD }),
        204,
      ],
      [
        'e-mail change verify',
        call('POST', '/users/me/email-change/verify', B.member.headers, challengeBody(B.challenges.emailChange)),
        200,
      ],
      [
        'revoke the spare session',
        call('DELETE', `/users/me/sessions/${B.member.spareSessionId}`, B.member.headers),
        204,
      ],
      [
        'invitation',
        call('POST', '/auth/signup', h, {
          app: B.tenant.app,
          mid: B.tenant.mid,
          email: EMAIL.invited,
          password: NEW_PASSWORD,
          firstName: 'Invited',
          lastName: 'B',
          invitationToken: B.invitation.token,
        }),
        201,
      ],
      [
        'victim login (2 failures, not locked)',
        call('POST', '/auth/login', h, { email: EMAIL.victim, password: B.victim.password }),
        200,
      ],
      ['owner reads the member', call('GET', `/users/${B.member.userId}`, B.owner.headers), 200],
    ];
    const answers = await Promise.all(
      checks.map(async ([name, answer, status]) => ({ name, res: await answer, status })),
    );
    expect(
      answers
        .filter(({ res, status }) => res.status !== status)
        .map(({ name, res }) => `${name}: ${res.status} ${JSON.stringify(res.body)}`),
    ).toEqual([]);
  });
});

function challengeBody(challenge: Mailed) {
  return { challengeId: challenge.id, code: challenge.code };
}
