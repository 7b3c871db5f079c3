import { expect } from 'vitest';
import { plantRouteList } from '#functions/plants/routes.ts';
import { identityRouteList } from '#functions/routes.ts';
import { totpCodeAt } from '#shared/auth/totp.ts';
import type { RouteDef } from '#shared/http/route.ts';
import { keys, webhookKeys } from '#shared/store/keys.ts';
import { adminApi, anInvitedUser, aRoleName, aStoredUser } from './admin.ts';
import { makeTestDeps } from './deps.ts';
import { type Answer, expectProblem } from './http.ts';
import {
  A,
  api,
  B,
  EMAIL,
  expectStatus,
  NEW_PASSWORD,
  OIDC_REDIRECT_URI,
  ORIGIN,
  sessionOf,
  type World,
} from './isolation-world.ts';
import { aPendingAuthorization, aPendingLogout } from './oidc.ts';
import {
  addPasskeyThroughApi,
  aStoredPasskey,
  hostedCeremony,
  passkeyReauthBody,
  passkeySignInBody,
} from './passkeys.ts';
import { aStoredLink, aStoredResult } from './sign-in-providers.ts';
import { answer, register } from './soft-authenticator.ts';
import { LOOPBACK_HOOK } from './webhooks.ts';

/**
 * The requests of the tenant isolation suite (test/http/security/tenant-isolation.test.ts):
 * for every route that takes an id, by operationId, A's callers that the
 * route admits, the requests naming B's ids and look-alikes, what they must
 * get, and a request with A's own id of the same shape; then which routes take
 * ids (path parameters, and id fields found by walking the request schemas).
 */

const { call, aRole, grant } = adminApi(() => api.url);
const deps = makeTestDeps();

// ---------------------------------------------------------------- requests

export type CallerKind = 'SUPER_ADMIN' | 'API key' | 'member' | 'anonymous' | 'browser' | 'member (plant store)';

export const CALLER_NAMES: Record<CallerKind, string> = {
  SUPER_ADMIN: "A's SUPER_ADMIN",
  'API key': "A's admin API key",
  member: "A's signed-in member (self-service)",
  anonymous: "A's tenant headers (public route)",
  browser: 'a browser of the shared origin (no tenant headers)',
  'member (plant store)': "A's member's access token at the plant store",
};

export function headersOf(kind: CallerKind, world: World): Record<string, string> {
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

export async function send(route: RouteDef, shape: Shape, headers: Record<string, string>): Promise<Answer> {
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
  return { status: res.status, headers: res.headers, text, body };
}

/** A request: its path (with the query) and body. */
export interface Shape {
  path: string;
  body?: unknown;
}

/** What an answer must be; `check` throws (an `expect`) otherwise. */
export interface Expectation {
  says: string;
  check(res: Answer): void | Promise<void>;
}

export interface Variant extends Shape {
  name: string;
  /** When this request must get something else than the recipe's `refusal`. */
  expect?: Expectation;
}

export interface Recipe {
  /** A's strongest callers that the route admits with A's own ids. */
  callers: CallerKind[];
  /** What B's ids and the look-alikes must get. */
  refusal: Expectation;
  /** The requests with B's ids and look-alikes (made when the test runs: some need a live challenge of A's). */
  foreign: () => Variant[] | Promise<Variant[]>;
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

/** A new confidential client of A, registered by A's owner; its id. */
async function freshOidcClientOfA(): Promise<string> {
  const res = await call('POST', '/oidc/clients', A.owner.headers, {
    name: 'Isolation spare',
    type: 'confidential',
    redirectUris: ['https://shop.example/callback'],
  });
  expectStatus(res, 201, 'A: oidc client');
  return res.body.clientId;
}

/** A new sign-in provider of A (GitHub: never contacted by these requests), added by A's owner; its id. */
async function freshProviderOfA(): Promise<string> {
  const res = await call('POST', '/sign-in-providers', A.owner.headers, {
    kind: 'GITHUB',
    clientId: 'isolation-spare',
    clientSecret: 'isolation-secret',
  });
  expectStatus(res, 201, 'A: sign-in provider');
  return res.body.id;
}

/** A `/sign-in-providers/{providerId}` route: B's provider id and look-alikes are 404. */
function onProvider(admitted: number, own: () => string | Promise<string>, body?: unknown): Recipe {
  return {
    // An API key never reaches providers at all (403 FORBIDDEN, the authorization matrix).
    callers: ['SUPER_ADMIN'],
    refusal: NOT_FOUND,
    foreign: () =>
      lookalikes(B.provider.id, A.provider.id).map((v) => ({
        name: v.name,
        path: `/sign-in-providers/${enc(v.value)}`,
        body,
      })),
    own: async () => ({ path: `/sign-in-providers/${await own()}`, body }),
    admitted,
  };
}

/** A new webhook endpoint of A (on loopback: nothing is delivered), added by A's owner; its id. */
async function freshEndpointOfA(): Promise<string> {
  const res = await call('POST', '/webhook-endpoints', A.owner.headers, {
    url: LOOPBACK_HOOK,
    eventTypes: ['user.created'],
  });
  expectStatus(res, 201, 'A: webhook endpoint');
  return res.body.id;
}

/** A `/webhook-endpoints/{endpointId}…` route: B's endpoint id and look-alikes are 404. */
function onWebhookEndpoint(
  suffix: string,
  admitted: number,
  own: () => string | Promise<string>,
  body?: () => unknown,
): Recipe {
  return {
    // An API key never reaches webhook endpoints at all (403 FORBIDDEN, the authorization matrix).
    callers: ['SUPER_ADMIN'],
    refusal: NOT_FOUND,
    foreign: () =>
      lookalikes(B.webhook.endpointId, A.webhook.endpointId).map((v) => ({
        name: v.name,
        path: `/webhook-endpoints/${enc(v.value)}${suffix}`,
        body: body?.(),
      })),
    own: async () => ({ path: `/webhook-endpoints/${await own()}${suffix}`, body: body?.() }),
    admitted,
  };
}

/** A's endpoint's log may be paged with B's cursor: the cursor is a position, never a partition. */
const onlyAttemptsOfA: Expectation = {
  says: "200 with A's endpoint's attempts only",
  check: (res) => {
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ids = (res.body.items as { id: string }[]).map((item) => item.id);
    expect(ids.filter((id) => id !== A.webhook.attemptId)).toEqual([]);
  },
};

const anHourAgo = () => ({ since: new Date(Date.now() - 3_600_000).toISOString() });

/** What a provider proved, for B's page: B's result and verifier, B's result with A's verifier, look-alikes. */
function foreignResults(
  own: { result: string; codeVerifier: string },
  theirs: { result: string; codeVerifier: string },
) {
  return [
    { name: "B's result with B's verifier", body: theirs },
    { name: "B's result with A's verifier", body: { result: theirs.result, codeVerifier: own.codeVerifier } },
    ...lookalikes(theirs.result, own.result).map((v) => ({
      name: `${v.name} (a result)`,
      body: { result: v.value, codeVerifier: theirs.codeVerifier },
      // A look-alike that is not even shaped like a result is refused as bad input.
      ...(/^[A-Za-z0-9_-]{16,128}$/.test(v.value) ? {} : { expect: problem(400, 'VALIDATION_FAILED') }),
    })),
  ];
}

const PROVIDER_SIGN_IN_FAILED = problem(401, 'PROVIDER_SIGN_IN_FAILED');

/** An `/oidc/clients/{clientId}…` admin route: B's client id and look-alikes are 404. */
function onOidcClient(
  suffix: string,
  callers: CallerKind[],
  admitted: number,
  own: () => string | Promise<string>,
  body?: unknown,
): Recipe {
  return {
    callers,
    refusal: NOT_FOUND,
    foreign: () =>
      lookalikes(B.oidcClient.clientId, A.oidcClient.clientId).map((v) => ({
        name: v.name,
        path: `/oidc/clients/${enc(v.value)}${suffix}`,
        body,
      })),
    own: async () => ({ path: `/oidc/clients/${await own()}${suffix}`, body }),
    admitted,
  };
}

/**
 * A route on a pending authorization request (`/oidc/authorization-requests/{requestId}…`) or logout
 * (`/oidc/logout-requests/{logoutId}…`): B's id and look-alikes are 404; A's own, fresh for each caller, admitted.
 */
function onPending(
  kind: 'request' | 'logout',
  suffix: string,
  callers: CallerKind[],
  admitted: number,
  body?: unknown,
): Recipe {
  const base = kind === 'request' ? '/oidc/authorization-requests' : '/oidc/logout-requests';
  const idOf = (world: World) => (kind === 'request' ? world.oidcRequestId : world.oidcLogoutId);
  return {
    callers,
    refusal: NOT_FOUND,
    foreign: () =>
      lookalikes(idOf(B), idOf(A)).map((v) => ({ name: v.name, path: `${base}/${enc(v.value)}${suffix}`, body })),
    own: async () => {
      const id =
        kind === 'request'
          ? await aPendingAuthorization(api.stack, A.tenant, A.oidcClient.clientId, OIDC_REDIRECT_URI)
          : await aPendingLogout(api.stack, A.tenant, A.oidcClient.clientId);
      return { path: `${base}/${id}${suffix}`, body };
    },
    admitted,
  };
}

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

/**
 * B's member's passkey answering live challenges of A (each its own, from `challenge`): signed for A's origin, for
 * B's origin and RP ID, and with A's member's user handle. None is a passkey of A.
 */
async function theirPasskeyAnswers(path: string, challenge: () => Promise<string>): Promise<Variant[]> {
  const theirs = B.member.passkey.credential;
  const handleOfA = Buffer.from(A.member.userId, 'utf8').toString('base64url');
  const signed = async (tenant: World['tenant'], userHandle?: string) => ({
    credential: answer(theirs, {
      ...hostedCeremony(api.stack, tenant, await challenge()),
      ...(userHandle ? { userHandle } : {}),
    }),
  });
  return [
    { name: "B's member's passkey, signed for A's origin", path, body: await signed(A.tenant) },
    { name: "B's member's passkey, signed for B's origin and RP ID", path, body: await signed(B.tenant) },
    { name: "B's member's passkey with A's member's user handle", path, body: await signed(A.tenant, handleOfA) },
  ];
}

const atPath = (path: string, variants: Variant[]) => variants.map((v) => ({ ...v, path }));

/**
 * One recipe per route that takes an id, by operationId. A route with a path
 * parameter, or an id field in its request schemas, and no recipe here fails
 * the first test.
 */
export const recipes: Record<string, Recipe> = {
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

  // --- the plant store's CORS preflight: reads no tenant data either, whatever the path names.
  plantsPreflight: {
    callers: ['browser'],
    refusal: {
      says: '204 with an empty body',
      check: async (res) => {
        expect(res.status).toBe(204);
        expect(res.body).toBeUndefined();
      },
    },
    foreign: () => [
      { name: "B's plant", path: `/plants/${B.plant.id}` },
      { name: "B's user", path: `/users/${B.member.userId}` },
    ],
    own: () => ({ path: `/plants/${A.plant.id}` }),
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
  lookupInvitation: {
    callers: ['anonymous'],
    refusal: NOT_FOUND,
    foreign: () =>
      lookalikes(B.invitation.token, A.invitation.token).map((v) => ({
        name: `invitationToken: ${v.name}`,
        path: '/auth/invitations/lookup',
        body: { invitationToken: v.value },
      })),
    // A look leaves the invitation open: signup's own request (below) still takes it.
    own: () => ({ path: '/auth/invitations/lookup', body: { invitationToken: A.invitation.token } }),
    admitted: 200,
  },
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
      const [, bUser, bSession, bGen, bSecret] = B.member.refreshToken.split('.');
      const [, aUser, aSession, aGen, aSecret] = A.member.refreshToken.split('.');
      return [
        { name: "B's refresh token", token: B.member.refreshToken },
        {
          name: "B's refresh token already rotated out (a replay: still not REUSED, and B's session lives)",
          token: B.member.rotatedRefreshToken,
        },
        { name: "B's token in upper case", token: B.member.refreshToken.toUpperCase() },
        { name: "B's token with its last character changed", token: changeLast(B.member.refreshToken) },
        { name: "A's user and session with B's secret", token: `rt2.${aUser}.${aSession}.${aGen}.${bSecret}` },
        { name: "B's user and session with A's secret", token: `rt2.${bUser}.${bSession}.${bGen}.${aSecret}` },
        { name: "A's user with B's session and secret", token: `rt2.${aUser}.${bSession}.${bGen}.${bSecret}` },
        { name: "B's user with A's session and secret", token: `rt2.${bUser}.${aSession}.${aGen}.${aSecret}` },
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
  // B's reauthentication code (and any other challenge of B's) never freshens a session of A.
  reauthenticate: {
    callers: ['member'],
    refusal: INVALID_CODE,
    foreign: () => atPath('/auth/reauthenticate', challengeVariants('reauth')),
    own: () => ({
      path: '/auth/reauthenticate',
      body: { challengeId: A.challenges.reauth.id, code: A.challenges.reauth.code },
    }),
    admitted: 204,
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

  // The member's own passkeys: B's passkey id and look-alikes name none of them.
  renameMyPasskey: {
    callers: ['member'],
    refusal: NOT_FOUND,
    foreign: () =>
      lookalikes(B.member.passkey.id, A.member.passkey.id).map((v) => ({
        name: v.name,
        path: `/users/me/passkeys/${enc(v.value)}`,
        body: { name: 'Renamed' },
      })),
    own: () => ({ path: `/users/me/passkeys/${A.member.passkey.id}`, body: { name: 'Renamed' } }),
    admitted: 200,
  },
  removeMyPasskey: {
    callers: ['member'],
    refusal: NOT_FOUND,
    foreign: () =>
      lookalikes(B.member.passkey.id, A.member.passkey.id).map((v) => ({
        name: v.name,
        path: `/users/me/passkeys/${enc(v.value)}`,
      })),
    own: async () => ({
      path: `/users/me/passkeys/${(await addPasskeyThroughApi(api.url, api.stack, A.tenant, A.member.token)).passkey.id}`,
    }),
    admitted: 204,
  },
  // B's passkey answering A's challenges, signed for A or for B, or pointing at A's member: never A's passkey.
  signInWithPasskey: {
    callers: ['anonymous'],
    refusal: problem(401, 'INVALID_CREDENTIALS'),
    sequential: true,
    foreign: () =>
      theirPasskeyAnswers('/auth/passkeys/sign-in', async () => {
        const res = await call('POST', '/auth/passkeys/options', A.tenant.headers, {});
        expectStatus(res, 200, 'A: passkey challenge');
        return res.body.options.challenge as string;
      }),
    own: async () => ({
      path: '/auth/passkeys/sign-in',
      body: await passkeySignInBody(api.url, api.stack, A.tenant, A.member.passkey.credential),
    }),
    admitted: 200,
  },
  reauthenticateWithPasskey: {
    callers: ['member'],
    refusal: problem(401, 'INVALID_CREDENTIALS'),
    sequential: true,
    foreign: () =>
      theirPasskeyAnswers('/auth/reauthenticate/passkey', async () => {
        const res = await call('POST', '/auth/reauthenticate/passkey/options', A.member.headers, {});
        expectStatus(res, 200, 'A: passkey reauthentication challenge');
        return res.body.options.challenge as string;
      }),
    own: async () => ({
      path: '/auth/reauthenticate/passkey',
      body: await passkeyReauthBody(api.url, api.stack, A.tenant, A.member.token, A.member.passkey.credential),
    }),
    admitted: 204,
  },
  // A credential id is claimed per tenant: one claiming the id of B's passkey is A's own new passkey (B's stays B's).
  registerPasskey: {
    callers: ['member'],
    refusal: {
      says: "201: A's own new passkey, B's untouched",
      check: (res) => expectStatus(res, 201, 'a credential claiming the id of B’s passkey'),
    },
    sequential: true,
    foreign: async () => {
      const options = await call('POST', '/users/me/passkeys/options', A.member.headers, {});
      expectStatus(options, 200, 'A: passkey registration options');
      const { json } = register({
        ...hostedCeremony(api.stack, A.tenant, options.body.options.challenge),
        userHandle: options.body.options.user.id,
        credentialId: B.member.passkey.credential.id,
      });
      return [
        { name: "a credential claiming B's passkey's id", path: '/users/me/passkeys', body: { credential: json } },
      ];
    },
    own: async () => {
      const options = await call('POST', '/users/me/passkeys/options', A.member.headers, {});
      expectStatus(options, 200, 'A: passkey registration options');
      const { json } = register({
        ...hostedCeremony(api.stack, A.tenant, options.body.options.challenge),
        userHandle: options.body.options.user.id,
      });
      return { path: '/users/me/passkeys', body: { credential: json } };
    },
    admitted: 201,
  },

  // The caller's own activity: the partition is the session's; a cursor of B's (even one naming B's partition)
  // is only a position in A's member's own records.
  listMyActivity: {
    callers: ['member'],
    refusal: onlyActivityOfA,
    foreign: () => [
      { name: "B's member's cursor", path: `/users/me/activity?limit=100&cursor=${enc(B.activityCursor)}` },
      {
        name: "a cursor that names B's member's activity partition",
        path: `/users/me/activity?limit=100&cursor=${enc(
          Buffer.from(
            JSON.stringify({
              pk: keys.activityPartition(B.tenant, B.member.userId),
              sk: JSON.parse(Buffer.from(B.activityCursor, 'base64url').toString('utf8')).sk,
            }),
          ).toString('base64url'),
        )}`,
      },
    ],
    own: () => ({ path: `/users/me/activity?limit=100&cursor=${enc(A.activityCursor)}` }),
    admitted: 200,
  },

  // --- admin routes on users.
  getUser: onUser('', () => A.member.userId, 200),
  deleteUser: onUser('', freshUserOfA, 204),
  setUserStatus: onUser('/status', freshUserOfA, 200, { status: 'DISABLED' }),
  resetUserTotp: onUser('/totp', freshUserOfA, 204),
  // A fresh user each: the mail limits allow one mail a minute to an address.
  resendInvitation: onUser('/invitation', async () => (await anInvitedUser(A.tenant)).userId, 200),
  sendPasswordReset: onUser('/password-reset', freshUserOfA, 204),
  clearMailSuppression: onUser('/mail-suppression', () => A.member.userId, 204),
  listUserDevices: onUser('/devices', () => A.member.userId, 200),
  // --- sign-in providers: B's provider, B's provider results and B's member's link name nothing of A.
  getSignInProvider: onProvider(200, () => A.provider.id),
  updateSignInProvider: onProvider(200, () => A.provider.id, { displayName: 'Isolation changed' }),
  deleteSignInProvider: onProvider(204, freshProviderOfA),
  // The client id, key id and team id are the merchant's names at the provider, not ids of ours: B's values make a
  // provider of A (nothing of B is read or changed).
  createSignInProvider: {
    callers: ['SUPER_ADMIN'],
    refusal: NOT_FOUND,
    foreign: () => [
      {
        name: "B's provider's client id",
        path: '/sign-in-providers',
        body: { kind: 'GITHUB', clientId: `isolation-B`, clientSecret: 'x' },
        expect: { says: '201, a provider of A', check: (res: Answer) => expect(res.status).toBe(201) },
      },
    ],
    own: () => ({ path: '/sign-in-providers', body: { kind: 'GITHUB', clientId: 'isolation-own', clientSecret: 'x' } }),
    admitted: 201,
  },
  startProviderSignIn: {
    callers: ['anonymous'],
    refusal: NOT_FOUND,
    foreign: () =>
      lookalikes(B.provider.id, A.provider.id).map((v) => ({
        name: v.name,
        path: `/auth/providers/${enc(v.value)}/start`,
        body: { returnTo: `${ORIGIN}/signed-in`, codeChallenge: 'a'.repeat(43) },
      })),
    own: () => ({
      path: `/auth/providers/${A.provider.id}/start`,
      body: { returnTo: `${ORIGIN}/signed-in`, codeChallenge: 'a'.repeat(43) },
    }),
    admitted: 200,
  },
  signInWithProvider: {
    callers: ['anonymous'],
    refusal: PROVIDER_SIGN_IN_FAILED,
    foreign: () =>
      foreignResults(A.providerResults.signIn, B.providerResults.signIn).map((v) => ({
        ...v,
        path: '/auth/providers/sign-in',
      })),
    own: async () => ({
      path: '/auth/providers/sign-in',
      body: await aStoredResult(deps, A.tenant, { providerId: A.provider.id }),
    }),
    admitted: 200,
  },
  startIdentityLink: {
    callers: ['member'],
    refusal: NOT_FOUND,
    foreign: () =>
      lookalikes(B.provider.id, A.provider.id).map((v) => ({
        name: v.name,
        path: '/users/me/identities/start',
        body: { providerId: v.value, returnTo: `${ORIGIN}/account`, codeChallenge: 'a'.repeat(43) },
      })),
    own: async () => ({
      path: '/users/me/identities/start',
      body: { providerId: await freshProviderOfA(), returnTo: `${ORIGIN}/account`, codeChallenge: 'a'.repeat(43) },
    }),
    admitted: 200,
  },
  linkIdentity: {
    callers: ['member'],
    refusal: PROVIDER_SIGN_IN_FAILED,
    foreign: () =>
      foreignResults(A.providerResults.link, B.providerResults.link).map((v) => ({
        ...v,
        path: '/users/me/identities',
      })),
    own: async () => ({
      path: '/users/me/identities',
      body: await aStoredResult(deps, A.tenant, {
        providerId: await freshProviderOfA(),
        intent: 'LINK',
        userId: A.member.userId,
        sessionId: A.member.sessionId,
      }),
    }),
    admitted: 201,
  },
  unlinkMyIdentity: {
    callers: ['member'],
    refusal: NOT_FOUND,
    foreign: () =>
      lookalikes(B.provider.id, A.provider.id).map((v) => ({
        name: v.name,
        path: `/users/me/identities/${enc(v.value)}`,
      })),
    own: async () => {
      const providerId = await freshProviderOfA();
      await aStoredLink(deps, A.tenant, A.member.userId, { id: providerId, kind: 'GITHUB' });
      return { path: `/users/me/identities/${providerId}` };
    },
    admitted: 204,
  },
  listUserIdentities: onUser('/identities', () => A.member.userId, 200),
  // A provider account proven for B (and linked to B's member) never freshens a session of A.
  reauthenticateWithProvider: {
    callers: ['member'],
    refusal: PROVIDER_SIGN_IN_FAILED,
    foreign: () =>
      foreignResults(A.providerResults.signIn, B.providerResults.signIn).map((v) => ({
        ...v,
        path: '/auth/reauthenticate/provider',
      })),
    own: async () => {
      const providerId = await freshProviderOfA();
      const subject = await aStoredLink(deps, A.tenant, A.member.userId, { id: providerId, kind: 'GITHUB' });
      return {
        path: '/auth/reauthenticate/provider',
        body: await aStoredResult(deps, A.tenant, { providerId, subject }),
      };
    },
    admitted: 204,
  },
  listUserPasskeys: onUser('/passkeys', () => A.member.userId, 200),

  // --- webhooks: B's endpoint, B's events and B's delivery log name nothing of A.
  getWebhookEndpoint: onWebhookEndpoint('', 200, () => A.webhook.endpointId),
  // Another loopback URL: a public host would be looked up in the DNS, which these tests do not reach.
  updateWebhookEndpoint: onWebhookEndpoint(
    '',
    200,
    () => A.webhook.endpointId,
    () => ({
      url: 'http://127.0.0.1:9/taken-over',
    }),
  ),
  deleteWebhookEndpoint: onWebhookEndpoint('', 204, freshEndpointOfA),
  rotateWebhookSecret: onWebhookEndpoint('/secret', 200, freshEndpointOfA),
  sendTestWebhook: onWebhookEndpoint('/test', 202, () => A.webhook.endpointId),
  replayWebhookEvents: onWebhookEndpoint('/replay', 202, () => A.webhook.endpointId, anHourAgo),
  listWebhookAttempts: (() => {
    const base = onWebhookEndpoint('/attempts', 200, () => A.webhook.endpointId);
    const sk = () => JSON.parse(Buffer.from(B.webhook.cursor, 'base64url').toString('utf8')).sk;
    return {
      ...base,
      foreign: async () => [
        ...(await base.foreign()),
        {
          name: "A's endpoint with a cursor from B's endpoint's log",
          path: `/webhook-endpoints/${A.webhook.endpointId}/attempts?cursor=${enc(B.webhook.cursor)}`,
          expect: onlyAttemptsOfA,
        },
        {
          name: "A's endpoint with a cursor that names B's log partition",
          path: `/webhook-endpoints/${A.webhook.endpointId}/attempts?cursor=${enc(
            Buffer.from(
              JSON.stringify({ pk: webhookKeys.attemptPartition(B.tenant, B.webhook.endpointId), sk: sk() }),
            ).toString('base64url'),
          )}`,
          expect: onlyAttemptsOfA,
        },
      ],
    };
  })(),
  // B's event through A's endpoint, and A's event through B's endpoint (and look-alikes of both): 404.
  redeliverWebhookEvent: {
    callers: ['SUPER_ADMIN'],
    refusal: NOT_FOUND,
    foreign: () => [
      ...lookalikes(B.webhook.endpointId, A.webhook.endpointId).map((v) => ({
        name: `endpoint: ${v.name}, event: A's`,
        path: `/webhook-endpoints/${enc(v.value)}/redeliver`,
        body: { eventId: A.webhook.eventId },
      })),
      ...lookalikes(B.webhook.eventId, A.webhook.eventId).map((v) => ({
        name: `endpoint: A's, event: ${v.name}`,
        path: `/webhook-endpoints/${A.webhook.endpointId}/redeliver`,
        body: { eventId: v.value },
      })),
    ],
    own: () => ({
      path: `/webhook-endpoints/${A.webhook.endpointId}/redeliver`,
      body: { eventId: A.webhook.eventId },
    }),
    admitted: 202,
  },
  // B's passkey under its own user or under A's member, and look-alikes of its id: 404.
  removeUserPasskey: {
    callers: ADMINS,
    refusal: NOT_FOUND,
    foreign: () => [
      { name: "B's member with B's passkey", path: `/users/${B.member.userId}/passkeys/${B.member.passkey.id}` },
      ...lookalikes(B.member.passkey.id, A.member.passkey.id).map((v) => ({
        name: `A's member with ${v.name}`,
        path: `/users/${A.member.userId}/passkeys/${enc(v.value)}`,
      })),
    ],
    own: async () => {
      const userId = await freshUserOfA();
      return { path: `/users/${userId}/passkeys/${(await aStoredPasskey(A.tenant, userId)).id}` };
    },
    admitted: 204,
  },
  listUserActivity: (() => {
    const base = onUser('/activity', () => A.member.userId, 200);
    return {
      ...base,
      foreign: async () => [
        ...(await base.foreign()),
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
  // Keys cannot make keys: only the SUPER_ADMIN is admitted.
  createApiKey: { ...onMerchant('/api-keys', 201, () => ({ label: 'isolation' })), callers: ['SUPER_ADMIN'] },
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

  // --- OpenID Connect clients: B's client id and look-alikes name nothing in A.
  getOidcClient: onOidcClient('', ADMINS, 200, () => A.oidcClient.clientId),
  updateOidcClient: onOidcClient('', ADMINS, 200, () => A.oidcClient.clientId, { name: 'Isolation changed' }),
  deleteOidcClient: onOidcClient('', ADMINS, 204, freshOidcClientOfA),
  // A client secret is a lasting credential: keys cannot rotate one (as they cannot make keys).
  rotateOidcClientSecret: onOidcClient('/secret', ['SUPER_ADMIN'], 200, freshOidcClientOfA),

  // --- the OpenID Provider's sign-in and sign-out pages: a pending request or logout of B is unknown to A.
  getAuthorizationRequest: onPending('request', '', ['anonymous'], 200),
  completeAuthorization: onPending('request', '/complete', ['member'], 200, {}),
  cancelAuthorization: onPending('request', '/cancel', ['anonymous'], 200, { error: 'login_required' }),
  completeLogout: onPending('logout', '/complete', ['anonymous'], 200, {}),

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

export const allRoutes: readonly RouteDef[] = [...identityRouteList, ...plantRouteList];

/** A field that names something stored: an id, a token, a cursor, a provider's result, or the tenant (`app`, `mid`). */
const ID_FIELD = /^(id|app|mid|cursor|result|[a-z]+Id|[a-z]*Token)$/;

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
export const bodyAndQueryIdFields = (route: RouteDef) =>
  [...fieldNames(route.body), ...fieldNames(route.query)].filter((name) => ID_FIELD.test(name)).sort();
const pathParameters = (route: RouteDef) => [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

/** The body and query id fields, listed by hand: the scan must find exactly these (a new one fails the test). */
export const ID_FIELDS_BY_HAND: Record<string, string[]> = {
  discovery: ['clientId'],
  lookupInvitation: ['invitationToken'],
  signup: ['app', 'invitationToken', 'mid'],
  signupVerify: ['challengeId'],
  loginVerify: ['challengeId'],
  refresh: ['refreshToken'],
  resetPassword: ['challengeId'],
  verifyEmailChange: ['challengeId'],
  reauthenticate: ['challengeId'],
  // A passkey's answer names its credential (`id`, `rawId`): found by the tenant's own key only.
  signInWithPasskey: ['id', 'rawId'],
  reauthenticateWithPasskey: ['id', 'rawId'],
  registerPasskey: ['id', 'rawId'],
  listMyActivity: ['cursor'],
  listUserActivity: ['cursor'],
  createRole: ['app', 'mid'],
  assignRole: ['app', 'mid', 'roleId', 'userId'],
  revokeRole: ['app', 'mid', 'roleId', 'userId'],
  createPlant: ['id'],
  // The merchant's names for its app at the provider (not ids of ours), and a provider of the tenant.
  createSignInProvider: ['clientId', 'keyId', 'teamId'],
  updateSignInProvider: ['clientId', 'keyId', 'teamId'],
  startIdentityLink: ['providerId'],
  // What a provider proved, found by its hash under the tenant's own key only.
  signInWithProvider: ['result'],
  linkIdentity: ['result'],
  reauthenticateWithProvider: ['result'],
  // An event of the tenant's log, and a position in an endpoint's delivery log.
  redeliverWebhookEvent: ['eventId'],
  listWebhookAttempts: ['cursor'],
};

// The $default routes (notFound, plantsNotFound) take no id and read nothing: no path parameter, no recipe.
export const takesIds = (route: RouteDef) =>
  pathParameters(route).length > 0 ||
  bodyAndQueryIdFields(route).length > 0 ||
  Object.hasOwn(ID_FIELDS_BY_HAND, route.operationId);
