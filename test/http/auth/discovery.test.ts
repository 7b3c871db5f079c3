import { describe, expect, it } from 'vitest';
import { bodyOf } from '#test/support/http.ts';
import { aTenant, useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();

function discover(query: string, origin?: string) {
  return fetch(`${api.url}/auth/discovery${query}`, { headers: origin ? { origin } : {} });
}

describe('GET /auth/discovery', () => {
  it("returns the tenant's public configuration to an allowed Origin, with CORS for it", async () => {
    const tenant = await aTenant({ name: 'Fern & Co', origins: ['https://fern.example', 'http://localhost:5173'] });
    const res = await discover(`?clientId=${tenant.publicApiKey}&slug=${tenant.subdomain}`, 'http://localhost:5173');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('vary')).toContain('Origin');
    expect(await bodyOf(res)).toEqual({
      name: 'Fern & Co',
      app: tenant.app,
      mid: tenant.mid,
      publicApiKey: tenant.publicApiKey,
      subdomain: tenant.subdomain,
      logoUrl: null,
      primaryColor: null,
      secondaryColor: null,
      darkPrimaryColor: null,
      darkSecondaryColor: null,
      privacyPolicyUrl: null,
      termsUrl: null,
      defaultLanguage: 'en',
      loginMode: 'PASSWORD',
      signupMode: 'OPEN',
      totpAllowed: true,
      allowUserDisableTotp: true,
      passkeysAllowed: true,
      signInProviders: [],
    });
  });

  it('returns 403 ORIGIN_NOT_ALLOWED to a foreign Origin, without CORS headers', async () => {
    const tenant = await aTenant({ origins: ['https://fern.example'] });
    const res = await discover(`?clientId=${tenant.publicApiKey}`, 'https://evil.example');
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(await bodyOf(res)).toEqual({
      type: 'about:blank',
      title: 'Forbidden',
      status: 403,
      code: 'ORIGIN_NOT_ALLOWED',
    });
  });

  it("refuses one tenant's origin for another tenant's client id", async () => {
    const a = await aTenant({ origins: ['https://a-shop.example'] });
    const b = await aTenant({ origins: ['https://b-shop.example'] });
    expect((await discover(`?clientId=${b.publicApiKey}`, 'https://a-shop.example')).status).toBe(403);
    expect((await discover(`?clientId=${a.publicApiKey}`, 'https://a-shop.example')).status).toBe(200);
  });

  it('returns 403 ORIGIN_NOT_ALLOWED without an Origin: discovery is for browsers of allowed origins', async () => {
    const tenant = await aTenant();
    const res = await discover(`?clientId=${tenant.publicApiKey}`);
    expect(res.status).toBe(403);
    expect((await bodyOf(res)).code).toBe('ORIGIN_NOT_ALLOWED');
  });

  it('returns 404 TENANT_NOT_FOUND for an unknown client id', async () => {
    for (const clientId of ['pk_unknown', 'pk%23x', '%00']) {
      const res = await discover(`?clientId=${clientId}`, 'https://shop.example');
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect((await bodyOf(res)).code).toBe('TENANT_NOT_FOUND');
    }
  });

  it('returns 400 VALIDATION_FAILED naming clientId when it is missing', async () => {
    const res = await discover('', 'https://shop.example');
    expect(res.status).toBe(400);
    const problem = await bodyOf(res);
    expect(problem.code).toBe('VALIDATION_FAILED');
    expect(problem.errors).toEqual([{ path: 'clientId', message: 'is required' }]);
  });
});
