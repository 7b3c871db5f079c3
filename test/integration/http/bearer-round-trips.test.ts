import { beforeAll, describe, expect, it } from 'vitest';
import { userRoutes } from '#functions/users/routes.ts';
import { identityAuthenticators } from '#shared/auth/authenticate.ts';
import { login } from '#shared/auth/login.ts';
import { userPrincipal } from '#shared/auth/principal.ts';
import { httpHandler } from '#shared/http/handler.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { getMe } from '#shared/users/me.ts';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { aContext, anEvent } from '#test/support/events.ts';

/**
 * The bearer check reads the tenant, the session and the user in ONE
 * DynamoDB round trip (issue 8's target for GET /users/me), while the answers
 * keep their order: unknown tenant 404, Origin 403, then the token's verdict.
 */

const deps = makeTestDeps();
const calls: string[] = [];
deps.store.doc.middlewareStack.add(
  (next, context) => async (args) => {
    calls.push(String(context.commandName));
    return next(args);
  },
  { step: 'initialize', name: 'countCalls' },
);

const getMeHandler = httpHandler(
  userRoutes.getMe,
  ({ tenant, auth }, routeDeps) => getMe(routeDeps, tenant, userPrincipal(auth)),
  { deps: () => deps, authenticators: identityAuthenticators },
);

async function getMeWith(headers: Record<string, string>) {
  calls.length = 0;
  const res = (await getMeHandler(anEvent({ path: '/api/v1/users/me', headers }), aContext())) as {
    statusCode: number;
    body: string;
  };
  return { status: res.statusCode, body: JSON.parse(res.body), calls: [...calls] };
}

let tenant: Merchant;
let tenantHeaders: Record<string, string>;
let accessToken: string;
let otherTenantToken: string;

async function signIn(of: Merchant) {
  const user = await aUser(of);
  const answer = (await login(
    deps,
    of,
    { email: user.email, password: user.password },
    { ip: '203.0.113.9', userAgent: 'vitest' },
  )) as { accessToken: string };
  return answer.accessToken;
}

beforeAll(async () => {
  const [created, other] = await Promise.all([aTenantWith(), aTenantWith()]);
  tenant = (await deps.merchants.get(created)) as Merchant;
  tenantHeaders = { 'x-app-id': created.app, 'x-mid-key': created.mid };
  accessToken = await signIn(tenant);
  otherTenantToken = await signIn((await deps.merchants.get(other)) as Merchant);
  // Warm: the signing key is read once per process, not per request.
  await getMeWith({ ...tenantHeaders, authorization: `Bearer ${accessToken}` });
});

describe('GET /users/me', () => {
  it('reads the tenant, the session and the user in one BatchGetItem', async () => {
    const res = await getMeWith({ ...tenantHeaders, authorization: `Bearer ${accessToken}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(JSON.stringify(res.body)).toMatch(/"id":"usr_/);
    expect(res.calls).toEqual(['BatchGetItemCommand']);
  });

  it('still answers 404 TENANT_NOT_FOUND for an unknown tenant with a good token of it', async () => {
    const res = await getMeWith({
      'x-app-id': tenant.app,
      'x-mid-key': 'mid_unknown',
      authorization: `Bearer ${accessToken}`,
    });
    expect(res).toMatchObject({ status: 404, body: { code: 'TENANT_NOT_FOUND' } });
  });

  it("answers 403 TENANT_MISMATCH to another tenant's token", async () => {
    const res = await getMeWith({ ...tenantHeaders, authorization: `Bearer ${otherTenantToken}` });
    expect(res).toMatchObject({ status: 403, body: { code: 'TENANT_MISMATCH' } });
  });

  it('refuses a disallowed Origin before looking at the token, even a good one', async () => {
    const res = await getMeWith({
      ...tenantHeaders,
      origin: 'https://evil.example',
      authorization: `Bearer ${accessToken}`,
    });
    expect(res).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } });
  });

  it('answers 401 SESSION_REVOKED once the session is revoked', async () => {
    const revokedToken = await signIn(tenant);
    const { sub, sid } = JSON.parse(Buffer.from(revokedToken.split('.')[1] as string, 'base64url').toString());
    await deps.sessions.revoke(tenant, sub, sid, deps.clock.now());
    const res = await getMeWith({ ...tenantHeaders, authorization: `Bearer ${revokedToken}` });
    expect(res).toMatchObject({ status: 401, body: { code: 'SESSION_REVOKED' } });
  });
});
