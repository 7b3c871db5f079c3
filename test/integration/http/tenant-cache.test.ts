import { beforeAll, describe, expect, it } from 'vitest';
import { handler as loginHandler } from '#functions/auth/login.ts';
import { handler as getMyMerchantHandler } from '#functions/merchants/get-my-merchant.ts';
import { handler as getMeHandler } from '#functions/users/get-me.ts';
import type { Deps } from '#shared/deps.ts';
import { keys } from '#shared/store/keys.ts';
import { aTenantWith, aUser, setLoginPolicy, type TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { aContext, anEvent } from '#test/support/events.ts';

/**
 * The functions' copies of their tenant (shared/store/tenant-cache.ts), through the functions themselves with the
 * deployment's 5 seconds on a clock the test moves: a users' route reads its tenant once in that time, a settings
 * change reaches it within that time, and an admin's route always reads it fresh.
 */

let now = Date.now();
const base = makeTestDeps({ clock: { now: () => new Date(now) } });
const deps: Deps = { ...base, config: { ...base.config, tenantCacheSeconds: 5 } };
/** The keys each BatchGetItem and GetItem asked for, since the list was last emptied. */
const read: string[] = [];
deps.store.doc.middlewareStack.add(
  (next, context) => async (args) => {
    const input = args.input as { Key?: { pk: string }; RequestItems?: Record<string, { Keys: { pk: unknown }[] }> };
    if (context.commandName === 'GetItemCommand' || context.commandName === 'GetCommand') {
      read.push(String(input.Key?.pk));
    }
    if (context.commandName === 'BatchGetItemCommand') {
      for (const { Keys } of Object.values(input.RequestItems ?? {})) {
        for (const key of Keys) read.push(String((key.pk as { S?: string }).S ?? key.pk));
      }
    }
    return next(args);
  },
  { step: 'initialize', name: 'countTenantReads' },
);

/** The functions themselves, given these deps with each invocation as the local gateway gives its stack's. */
const context = () => ({ ...aContext(), deps });

async function call(
  handler: (event: ReturnType<typeof anEvent>, context: ReturnType<typeof aContext>) => Promise<unknown>,
  tenant: { app: string; mid: string },
  request: { method?: string; path: string; token?: string; body?: unknown },
) {
  read.length = 0;
  const res = (await handler(
    anEvent({
      method: request.method ?? 'GET',
      path: request.path,
      headers: {
        'x-app-id': tenant.app,
        'x-mid-key': tenant.mid,
        'content-type': 'application/json',
        ...(request.token ? { authorization: `Bearer ${request.token}` } : {}),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    }),
    context(),
  )) as { statusCode: number; body: string };
  return {
    status: res.statusCode,
    body: JSON.parse(res.body),
    tenantReads: read.filter((pk) => pk === tenantPk(tenant)).length,
  };
}

const tenantPk = (tenant: { app: string; mid: string }) => keys.merchant(tenant).pk;

let tenant: TestTenant;
let user: { email: string; password: string };
let accessToken: string;

beforeAll(async () => {
  tenant = await aTenantWith({}, deps);
  const made = await aUser(tenant, {}, deps);
  user = { email: made.email, password: made.password };
  const signedIn = await call(loginHandler, tenant, { method: 'POST', path: '/api/v1/auth/login', body: user });
  expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
  accessToken = signedIn.body.data.accessToken;
});

describe("a users' route", () => {
  it('reads its tenant once in 5 seconds: the bearer check then reads only the session and the user', async () => {
    const first = await call(getMeHandler, tenant, { path: '/api/v1/users/me', token: accessToken });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.tenantReads).toBe(1);
    now += 4_000;
    const copied = await call(getMeHandler, tenant, { path: '/api/v1/users/me', token: accessToken });
    expect(copied.status).toBe(200);
    expect(copied.tenantReads).toBe(0);
    expect(read).toHaveLength(2);
    now += 1_000;
    const again = await call(getMeHandler, tenant, { path: '/api/v1/users/me', token: accessToken });
    expect(again.tenantReads).toBe(1);
  });

  it('sees a settings change within 5 seconds, while an admin route sees it at once', async () => {
    const admin = await call(loginHandler, tenant, {
      method: 'POST',
      path: '/api/v1/auth/login',
      body: { email: tenant.adminEmail, password: tenant.adminPassword },
    });
    expect(admin.status, JSON.stringify(admin.body)).toBe(200);
    const adminToken = admin.body.data.accessToken;
    const before = await call(getMyMerchantHandler, tenant, { path: '/api/v1/merchants/me', token: adminToken });
    expect(before.body.loginMode).toBe('PASSWORD');
    // The login function now holds the tenant as it was: passwords allowed.
    await setLoginPolicy(tenant, { loginMode: 'OTP_EMAIL' }, deps);
    const shown = await call(getMyMerchantHandler, tenant, { path: '/api/v1/merchants/me', token: adminToken });
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(shown.body.loginMode).toBe('OTP_EMAIL');
    expect(shown.tenantReads).toBe(1);

    // The price of the copy: for up to 5 seconds the login function still takes a password.
    now += 4_000;
    const stale = await call(loginHandler, tenant, { method: 'POST', path: '/api/v1/auth/login', body: user });
    expect(stale.status, JSON.stringify(stale.body)).toBe(200);
    expect(stale.tenantReads).toBe(0);
    now += 1_000;
    const refused = await call(loginHandler, tenant, { method: 'POST', path: '/api/v1/auth/login', body: user });
    expect(refused).toMatchObject({ status: 403, body: { code: 'LOGIN_MODE_NOT_ALLOWED' } });
    await setLoginPolicy(tenant, { loginMode: 'PASSWORD' }, deps);
  });

  it('reads an unknown tenant each time: nothing is kept of it', async () => {
    const unknown = { app: tenant.app, mid: 'mid_unknown' };
    for (let i = 0; i < 2; i++) {
      const res = await call(getMeHandler, unknown, { path: '/api/v1/users/me', token: accessToken });
      expect(res).toMatchObject({ status: 404, body: { code: 'TENANT_NOT_FOUND' } });
      expect(res.tenantReads).toBe(1);
    }
  });
});
