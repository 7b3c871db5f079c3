import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { identityRouteList } from '#functions/routes.ts';
import { issueAccessToken } from '#shared/auth/tokens.ts';
import type { RouteDef } from '#shared/http/route.ts';
import { adminApi, type Caller, expectProblem } from '#test/support/admin.ts';
import type { TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { useLocalStack } from '#test/support/server.ts';

/**
 * The authorization matrix of the NON-admin bearer routes (issue 9, item 1),
 * generated from THE route list: each `auth: 'bearer'` route with tenant
 * headers × {anonymous, another tenant's token, expired token, revoked
 * session, tampered token, `alg: none`, HS256 keyed with the public key}, each
 * refused with its code; and a plain user admitted. A bearer route without a
 * request recipe fails the first test. The admin routes have their own matrix
 * (test/http/admin/authorization-matrix.test.ts).
 */

const api = useLocalStack();
const { call, aSuperAdmin, aSignedInUser } = adminApi(() => api.url);

const bearerRoutes = identityRouteList.filter((route) => route.auth === 'bearer' && route.tenant === 'headers');

/** A request recipe per bearer route: a body that passes validation (or none). Admitted means neither 401 nor 403. */
const recipes: Record<string, { body?: unknown }> = {
  logout: {},
  getMe: {},
  updateMe: { body: { firstName: 'Matrix' } },
  changePassword: { body: { currentPassword: 'wrong-Password-1', newPassword: 'Matrix-New-Pass-77' } },
  startEmailChange: { body: { newEmail: 'matrix-new@shop.test' } },
  verifyEmailChange: { body: { challengeId: 'chl_00000000000000000000', code: '000000' } },
  initTotp: {},
  verifyTotp: { body: { code: '000000' } },
  disableTotp: { body: { code: '000000' } },
  listMySessions: {},
  revokeMySession: {},
  revokeAllSessions: {},
};

/** The codes of the bearer check itself. */
const AUTH_REFUSALS = ['UNAUTHENTICATED', 'SESSION_REVOKED', 'TENANT_MISMATCH', 'FORBIDDEN'];

let tenant: TestTenant;
let otherTenantToken: string;
let revoked: Caller;
let tampered: string;
let algNone: string;
let hs256WithPublicKey: string;
let expired: string;
let freshlyCrafted: string;

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

beforeAll(async () => {
  const [owner, other] = await Promise.all([aSuperAdmin(), aSuperAdmin()]);
  tenant = owner.tenant;
  otherTenantToken = other.token;

  // A session logged out: its token is still unexpired and well signed.
  revoked = await aSignedInUser(tenant);
  const logout = await call('DELETE', '/auth/logout', revoked.headers);
  expect(logout.status, JSON.stringify(logout.body)).toBe(204);

  // A token of a live session with one claim changed and its signature kept.
  const [header, payload, signature] = owner.token.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  tampered = `${header}.${b64url({ ...claims, jti: `${claims.jti}x` })}.${signature}`;

  // alg none: the same claims, no signature.
  algNone = `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`;

  // HS256 keyed with the public key of the signing key the token names (as published in the JWKS).
  const kid = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')).kid as string;
  const jwks = (await (await fetch(`${api.url}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
  const jwk = jwks.keys.find((key) => key.kid === kid);
  expect(jwk, 'the token names a published key').toBeDefined();
  const hsHeader = b64url({ alg: 'HS256', typ: 'JWT', kid });
  const mac = createHmac('sha256', JSON.stringify(jwk)).update(`${hsHeader}.${payload}`).digest('base64url');
  hs256WithPublicKey = `${hsHeader}.${payload}.${mac}`;

  // An expired token, validly signed with the real key (the test shares the stack's table and key vault).
  const deps = makeTestDeps();
  const signer = (at: Date) => ({ ...deps, clock: { now: () => at }, config: { ...deps.config, issuerUrl: api.url } });
  const subject = { sub: claims.sub, sid: claims.sid, app: claims.app, mid: claims.mid, roles: claims.roles };
  expired = (await issueAccessToken(signer(new Date(Date.now() - 3_600_000)), subject)).accessToken;
  freshlyCrafted = (await issueAccessToken(signer(new Date()), subject)).accessToken;
});

function pathOf(route: RouteDef) {
  return route.path.replace('{sessionId}', 'ses_00000000000000000000');
}

const withToken = (token: string) => ({ ...tenant.headers, authorization: `Bearer ${token}` });

async function expectRefused(route: RouteDef, headers: Record<string, string>, status: number, code: string) {
  expectProblem(await call(route.method, pathOf(route), headers, recipes[route.operationId]?.body), status, code);
}

describe('the bearer routes of the route list', () => {
  it('each have a request recipe in this matrix', () => {
    const missing = bearerRoutes.map((route) => route.operationId).filter((id) => !(id in recipes));
    expect(missing, 'bearer routes without a recipe in bearer-matrix.test.ts').toEqual([]);
    expect(bearerRoutes.length).toBeGreaterThan(5);
  });

  it('a token crafted here with the real key and the current time is admitted (the expired one differs only in time)', async () => {
    const res = await call('GET', '/users/me', withToken(freshlyCrafted));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

for (const route of bearerRoutes) {
  describe(`${route.method} ${route.path} (${route.operationId})`, () => {
    it('answers 401 UNAUTHENTICATED without a token', async () => {
      await expectRefused(route, tenant.headers, 401, 'UNAUTHENTICATED');
    });

    it("answers 403 TENANT_MISMATCH to another tenant's token", async () => {
      await expectRefused(route, withToken(otherTenantToken), 403, 'TENANT_MISMATCH');
    });

    it('answers 401 UNAUTHENTICATED to an expired token', async () => {
      await expectRefused(route, withToken(expired), 401, 'UNAUTHENTICATED');
    });

    it('answers 401 SESSION_REVOKED to the token of a logged-out session', async () => {
      await expectRefused(route, revoked.headers, 401, 'SESSION_REVOKED');
    });

    it('answers 401 UNAUTHENTICATED to a tampered token', async () => {
      await expectRefused(route, withToken(tampered), 401, 'UNAUTHENTICATED');
    });

    it('answers 401 UNAUTHENTICATED to alg none', async () => {
      await expectRefused(route, withToken(algNone), 401, 'UNAUTHENTICATED');
    });

    it('answers 401 UNAUTHENTICATED to HS256 keyed with the public key', async () => {
      await expectRefused(route, withToken(hs256WithPublicKey), 401, 'UNAUTHENTICATED');
    });

    it('admits a signed-in plain user (no authentication refusal, never 5xx)', async () => {
      const caller = await aSignedInUser(tenant);
      const res = await call(route.method, pathOf(route), caller.headers, recipes[route.operationId]?.body);
      // Past the bearer check: a refusal may follow (a wrong current password, a wrong code), not an authentication one.
      expect(AUTH_REFUSALS, JSON.stringify(res.body)).not.toContain(res.body?.code);
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    });
  });
}
