import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { type Answer, call } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';
import { expectPlantError, plantsApi } from './helpers.ts';

/**
 * CORS of the plant store (README, Plant store): for the origins the identity's tenants allow,
 * read from the identity's ORIGIN index, so that a tenant's browser app can call POST /plants.
 */

const api = useLocalStack();
const { createPlant, logIn } = plantsApi(api);

const anOrigin = () => `https://app-${randomUUID().slice(0, 8)}.shop.example`;
let nextId = 5000;

/** A fresh tenant allowing `origin`, and a signed-in user of it. */
async function aUserOfATenantAllowing(origin: string) {
  const tenant = await aTenantWith({ origins: [origin] });
  const user = await aUser(tenant);
  const { accessToken } = await logIn(tenant, user.email, user.password);
  return { tenant, token: accessToken };
}

const preflight = (origin: string | undefined, path = '/plants') =>
  call(api.plantsUrl, 'OPTIONS', path, {
    ...(origin === undefined ? {} : { origin }),
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'authorization, content-type',
  });

function expectNoCors(res: Answer) {
  expect(res.headers.get('access-control-allow-origin')).toBeNull();
  expect(res.headers.get('access-control-allow-methods')).toBeNull();
  expect(res.headers.get('access-control-allow-credentials')).toBeNull();
}

describe('OPTIONS (CORS preflight) on the plant store', () => {
  it('answers 204 echoing an origin a tenant allows, with POST and the headers POST /plants needs', async () => {
    const origin = anOrigin();
    await aTenantWith({ origins: [origin] });
    const res = await preflight(origin);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type']));
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('vary')).toContain('Origin');
    // Bearer tokens only: never an invitation to send cookies.
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('answers 204 without CORS headers for an origin no tenant allows, and for a request without Origin', async () => {
    await aTenantWith({ origins: [anOrigin()] });
    for (const origin of [anOrigin(), 'null', 'https://shop.example.evil.test', undefined]) {
      const res = await preflight(origin);
      expect(res.status, String(origin)).toBe(204);
      expectNoCors(res);
    }
  });

  it('takes the origin exactly: another scheme, port or case of an allowed one is foreign', async () => {
    const origin = 'https://exact.shop.example';
    await aTenantWith({ origins: [origin] });
    expect((await preflight(origin)).headers.get('access-control-allow-origin')).toBe(origin);
    for (const lookAlike of [
      'http://exact.shop.example',
      'https://exact.shop.example:8443',
      'https://EXACT.shop.example',
    ]) {
      expectNoCors(await preflight(lookAlike));
    }
  });

  it('answers any path, as the identity service does', async () => {
    const origin = anOrigin();
    await aTenantWith({ origins: [origin] });
    const res = await preflight(origin, '/no/such/path');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
  });
});

describe('POST /plants from a browser (Origin)', () => {
  it('answers with Access-Control-Allow-Origin for an origin the tenants allow', async () => {
    const origin = anOrigin();
    const { token } = await aUserOfATenantAllowing(origin);
    const id = nextId++;
    const res = await createPlant({ id, name: 'Calathea' }, token, { origin });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ id, name: 'Calathea' });
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
    expect(res.headers.get('vary')).toContain('Origin');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('echoes the origin on errors too, so that the app can read its 401 or 400', async () => {
    const origin = anOrigin();
    const { token } = await aUserOfATenantAllowing(origin);
    const unauthenticated = await createPlant({ id: nextId++, name: 'Fern' }, undefined, { origin });
    expectPlantError(unauthenticated, 401);
    expect(unauthenticated.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(unauthenticated.headers.get('access-control-allow-origin')).toBe(origin);
    const invalid = await createPlant({ id: 'one', name: 'Fern' }, token, { origin });
    expectPlantError(invalid, 400);
    expect(invalid.headers.get('access-control-allow-origin')).toBe(origin);
  });

  it('answers a foreign origin without CORS headers (the browser keeps the answer from the page)', async () => {
    const { token } = await aUserOfATenantAllowing(anOrigin());
    const res = await createPlant({ id: nextId++, name: 'Pothos' }, token, { origin: anOrigin() });
    expect(res.status, res.text).toBe(200);
    expectNoCors(res);
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it('sends no CORS headers to a client without Origin (curl, a server)', async () => {
    const { token } = await aUserOfATenantAllowing(anOrigin());
    const res = await createPlant({ id: nextId++, name: 'Ivy' }, token);
    expect(res.status, res.text).toBe(200);
    expectNoCors(res);
  });
});

describe('the other plant routes', () => {
  it('echo no origin: GET /openapi.json and unknown routes ($default) answer CORS to nobody', async () => {
    const origin = anOrigin();
    await aTenantWith({ origins: [origin] });
    for (const [method, path] of [
      ['GET', '/openapi.json'],
      ['GET', '/plants'],
    ] as const) {
      const res = await call(api.plantsUrl, method, path, { origin });
      expectNoCors(res);
    }
  });
});
