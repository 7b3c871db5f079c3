import { describe, expect, it } from 'vitest';
import { httpHandler } from '#shared/http/handler.ts';
import type { RouteDef } from '#shared/http/route.ts';
import { createTenant } from '#shared/tenancy/create-tenant.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { aContext, anEvent } from '#test/support/events.ts';

const deps = makeTestDeps();
const route: RouteDef = {
  operationId: 'whichTenant',
  method: 'GET',
  path: '/which-tenant',
  entry: 'functions/which-tenant.ts',
  summary: 'test',
  tag: 'test',
  tenant: 'headers',
  auth: 'none',
  status: 200,
  table: [],
};
const handler = httpHandler(route, ({ tenant }) => ({ name: tenant.name, app: tenant.app }), { deps: () => deps });

async function call(headers: Record<string, string>) {
  const res = (await handler(anEvent({ headers }), aContext())) as { statusCode: number; body: string };
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

describe('tenant stage against DynamoDB Local', () => {
  it('resolves the tenant of X-App-ID + X-Mid-Key, and only that pair', async () => {
    const suffix = Date.now().toString(36);
    const a = await createTenant(deps, {
      name: 'Tenant A',
      adminEmail: 'a@a.test',
      origins: [],
      subdomain: `a-${suffix}`,
    });
    const b = await createTenant(deps, {
      name: 'Tenant B',
      adminEmail: 'b@b.test',
      origins: [],
      subdomain: `b-${suffix}`,
    });
    expect(await call({ 'x-app-id': a.app, 'x-mid-key': a.mid })).toEqual({
      status: 200,
      body: { name: 'Tenant A', app: a.app },
    });
    expect((await call({ 'x-app-id': b.app, 'x-mid-key': b.mid })).body.name).toBe('Tenant B');
    // A mixed pair names no tenant.
    expect(await call({ 'x-app-id': a.app, 'x-mid-key': b.mid })).toMatchObject({
      status: 404,
      body: { code: 'TENANT_NOT_FOUND' },
    });
    expect((await call({ 'x-app-id': a.app })).body.code).toBe('TENANT_REQUIRED');
  });
});
