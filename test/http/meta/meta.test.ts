import { describe, expect, it } from 'vitest';
import { bodyOf } from '#test/support/http.ts';
import { aTenant, useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();

describe('GET /health', () => {
  it('answers 200 { status: "ok" } without tenant headers', async () => {
    const res = await fetch(`${api.url}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await bodyOf(res)).toEqual({ status: 'ok' });
  });
});

describe('GET /openapi.json', () => {
  it('serves the OpenAPI 3.1 document with this server as its base', async () => {
    const res = await fetch(`${api.url}/openapi.json`);
    expect(res.status).toBe(200);
    const document = await bodyOf(res);
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: api.url }]);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/health', '/auth/discovery', '/openapi.json']),
    );
  });
});

describe('OPTIONS (CORS preflight)', () => {
  it('answers 204 on any path and echoes an origin that some tenant allows', async () => {
    const origin = `https://preflight-${Date.now()}.example`;
    await aTenant({ origins: [origin] });
    const res = await fetch(`${api.url}/users/me/sessions/ses_1`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'DELETE' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    const allowed = res.headers
      .get('access-control-allow-headers')
      ?.split(',')
      .map((h) => h.trim());
    expect(allowed).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'x-app-id', 'x-mid-key', 'x-api-key']),
    );
    expect(res.headers.get('access-control-allow-methods')).toContain('DELETE');
    expect(await res.text()).toBe('');
  });

  it('answers 204 without CORS headers for an origin no tenant allows', async () => {
    const res = await fetch(`${api.url}/auth/discovery`, {
      method: 'OPTIONS',
      headers: { origin: 'https://nobody-allows-me.example', 'access-control-request-method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-headers')).toBeNull();
  });
});

describe('unknown routes ($default)', () => {
  it('answer 404 problem+json NOT_FOUND for an unknown path, a known path with a method it does not have, and outside the base path', async () => {
    const origin = new URL(api.url).origin;
    for (const [method, url] of [
      ['GET', `${api.url}/no/such/route`],
      ['POST', `${api.url}/no/such/route`],
      ['PUT', `${api.url}/users/me`],
      ['DELETE', `${api.url}/health`],
      ['PATCH', `${api.url}/auth/login`],
      ['GET', `${origin}/health`],
    ] as const) {
      const res = await fetch(url, { method });
      const what = `${method} ${url}`;
      expect(res.status, what).toBe(404);
      expect(res.headers.get('content-type'), what).toBe('application/problem+json');
      expect(res.headers.get('cache-control'), what).toBe('no-store');
      expect(await bodyOf(res), what).toMatchObject({ type: 'about:blank', status: 404, code: 'NOT_FOUND' });
    }
  });

  it('leave CORS preflight alone: OPTIONS on an unknown path still answers 204', async () => {
    const res = await fetch(`${api.url}/no/such/route`, {
      method: 'OPTIONS',
      headers: { origin: 'https://anyone.example', 'access-control-request-method': 'PUT' },
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });
});

describe('the local gateway routes', () => {
  it('every route of the list to its handler (none answers 404 NOT_FOUND of the $default route), and nothing else', async () => {
    const { identityRouteList } = await import('#functions/routes.ts');
    const { isDefaultRoute } = await import('#shared/http/route.ts');
    // The $default route has no method and path of its own: the tests above send it what nothing else matches.
    for (const route of identityRouteList.filter((r) => !isDefaultRoute(r))) {
      const path = route.path.replace(/\{(\w+)\+?\}/g, 'x');
      const res = await fetch(`${api.url}${path}`, { method: route.method });
      const text = await res.text();
      expect(text, `${route.method} ${route.path}`).not.toContain('"code":"NOT_FOUND"');
      expect(text, `${route.method} ${route.path}`).not.toBe('{"message":"Not Found"}');
      expect(res.headers.get('apigw-requestid'), `${route.method} ${route.path}`).toBeTruthy();
    }
    const notListed = await fetch(`${api.url}/health`, { method: 'POST' });
    expect(notListed.status).toBe(404);
    expect((await bodyOf(notListed)).code).toBe('NOT_FOUND');
  });
});

describe('made-up values that cannot name a stored item', () => {
  it('answer as unknown, never 500: an Origin with # at preflight, a challenge id with # at verify', async () => {
    const preflight = await fetch(`${api.url}/users/me`, {
      method: 'OPTIONS',
      headers: { origin: 'https://a#b.example' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const tenant = await aTenant();
    const verify = await fetch(`${api.url}/auth/login/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': tenant.app, 'x-mid-key': tenant.mid },
      body: JSON.stringify({ challengeId: 'chl_#T#x', code: '123456' }),
    });
    expect(verify.status).toBe(401);
    expect((await bodyOf(verify)).code).toBe('INVALID_CODE');
  });
});
