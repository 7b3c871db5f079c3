import { describe, expect, it } from 'vitest';
import { bodyOf } from '#test/support/http.ts';
import { aTenant, useLocalStack } from '#test/support/server.ts';

/**
 * The hosted pages (web/) live at `<subdomain>.<hosted domain>`, the API
 * same-origin under /api. Each tenant's own hosted origin passes its Origin
 * check and may name its tenant by slug in discovery; another tenant's hosted
 * origin is as foreign as any site.
 */
const api = useLocalStack();
const hosted = (subdomain: string) => api.stack.hostedPagesOrigin.replace('{subdomain}', subdomain);

function discoverBySlug(slug: string, headers: Record<string, string>) {
  return fetch(`${api.url}/auth/discovery?slug=${encodeURIComponent(slug)}`, { headers });
}

describe('discovery from a hosted page', () => {
  it('names its tenant by slug from its own hosted origin (a cross-origin request carries that Origin)', async () => {
    const tenant = await aTenant({ name: 'Moss Ltd' });
    const res = await discoverBySlug(tenant.subdomain, { origin: hosted(tenant.subdomain) });
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toMatchObject({ name: 'Moss Ltd', app: tenant.app, subdomain: tenant.subdomain });
  });

  it('names its tenant by slug in a same-origin GET, which browsers send with Sec-Fetch-Site and no Origin', async () => {
    const tenant = await aTenant();
    const res = await discoverBySlug(tenant.subdomain, { 'sec-fetch-site': 'same-origin' });
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toMatchObject({ publicApiKey: tenant.publicApiKey });
  });

  it('refuses a slug from another tenant’s hosted origin, from any other site, and from a cross-site page', async () => {
    const [mine, theirs] = await Promise.all([aTenant(), aTenant()]);
    const refused: Record<string, string>[] = [
      { origin: hosted(theirs.subdomain) },
      { origin: 'https://evil.example' },
      { origin: 'https://shop.example' },
      { 'sec-fetch-site': 'cross-site' },
      {},
    ];
    for (const headers of refused) {
      const res = await discoverBySlug(mine.subdomain, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await bodyOf(res)).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
    }
  });

  it('answers 404 TENANT_NOT_FOUND for a subdomain no tenant holds', async () => {
    const res = await discoverBySlug('no-such-shop', { origin: hosted('no-such-shop') });
    expect(res.status).toBe(404);
    expect(await bodyOf(res)).toMatchObject({ code: 'TENANT_NOT_FOUND' });
  });

  it('still needs clientId or slug', async () => {
    const res = await fetch(`${api.url}/auth/discovery`, { headers: { origin: 'https://shop.example' } });
    expect(res.status).toBe(400);
    expect(await bodyOf(res)).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('the Origin check and the hosted origins', () => {
  const login = (tenant: { app: string; mid: string }, origin: string) =>
    fetch(`${api.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': tenant.app, 'x-mid-key': tenant.mid, origin },
      body: JSON.stringify({ email: 'nobody@shop.test', password: 'wrong-password-1' }),
    });

  it('lets a tenant’s own hosted origin through (the answer is the login’s own: 401)', async () => {
    const tenant = await aTenant();
    const res = await login(tenant, hosted(tenant.subdomain));
    expect(res.status).toBe(401);
    // CORS echoes only the tenant's origins: its own hosted origin is one of them.
    expect(res.headers.get('access-control-allow-origin')).toBe(hosted(tenant.subdomain));
  });

  it('refuses another tenant’s hosted origin with 403 ORIGIN_NOT_ALLOWED, without CORS headers', async () => {
    const [mine, theirs] = await Promise.all([aTenant(), aTenant()]);
    const res = await login(mine, hosted(theirs.subdomain));
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(await bodyOf(res)).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
  });
});
