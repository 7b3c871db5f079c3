import { describe, expect, it } from 'vitest';
import { ApiError, type AuthorizationRequest, IdentityClient } from '../../client/src/index.ts';
import {
  BASE_URL,
  fakeFetch,
  json,
  problem,
  type Responder,
  recordingCookies,
  tenantConfig,
  tokens,
} from './support/fake-fetch.ts';

/**
 * `client.oidc`: the hosted sign-in page's side of an OpenID Connect sign-in (shared/oidc/README.md). Only
 * `completeAuthorization` carries the session's bearer (and recovers from its 401 by one refresh); the others
 * carry the tenant's headers alone.
 */

const REQUEST: AuthorizationRequest = {
  requestId: 'areq_1',
  client: { clientId: 'cli_1', name: 'Plant Pal', firstParty: false },
  scopes: ['openid', 'email'],
  prompt: null,
  maxAge: null,
  loginHint: 'fern@shop.test',
  expiresAt: '2026-11-21T12:10:00.000Z',
};
const TO_CLIENT = 'http://127.0.0.1:8400/callback?code=c&state=s&iss=http%3A%2F%2Fshop.localhost%3A3000';

function service(respond: Responder): Responder {
  return (request) => {
    if (request.path === '/auth/discovery') return json(200, tenantConfig);
    if (request.path === '/auth/login') return tokens(1);
    if (request.path === '/auth/refresh') return tokens(2);
    return respond(request);
  };
}

async function aClient(respond: Responder, signedIn = true) {
  const fake = fakeFetch(service(respond));
  const client = new IdentityClient({ baseUrl: BASE_URL, fetch: fake.fetch, cookies: recordingCookies().store });
  await client.discover({ clientId: 'pk_1' });
  if (signedIn) await client.login({ email: 'fern@shop.test', password: 'Fern-fern-1' });
  fake.requests.length = 0;
  return { client, fake };
}

describe('client.oidc', () => {
  it('authorizationRequest reads the request with the tenant headers and no bearer', async () => {
    const { client, fake } = await aClient(() => json(200, REQUEST));
    await expect(client.oidc.authorizationRequest('areq/1')).resolves.toEqual(REQUEST);
    expect(fake.requests).toHaveLength(1);
    const [sent] = fake.requests;
    expect(sent?.method).toBe('GET');
    expect(sent?.path).toBe('/oidc/authorization-requests/areq%2F1');
    expect(sent?.headers).toMatchObject({ 'x-app-id': 'app_1', 'x-mid-key': 'mid_1' });
    expect(sent?.headers.authorization).toBeUndefined();
  });

  it('completeAuthorization sends the bearer and the consent, and answers where to go', async () => {
    const { client, fake } = await aClient(() => json(200, { redirectTo: TO_CLIENT }));
    await expect(client.oidc.completeAuthorization('areq_1')).resolves.toEqual({ redirectTo: TO_CLIENT });
    await client.oidc.completeAuthorization('areq_1', { consent: 'GRANTED' });
    expect(fake.requests.map((r) => [r.method, r.path, r.headers.authorization, r.body])).toEqual([
      ['POST', '/oidc/authorization-requests/areq_1/complete', 'Bearer at-1', {}],
      ['POST', '/oidc/authorization-requests/areq_1/complete', 'Bearer at-1', { consent: 'GRANTED' }],
    ]);
  });

  it('completeAuthorization recovers from a 401 by one refresh, as every bearer call does', async () => {
    const { client, fake } = await aClient((r) =>
      r.headers.authorization === 'Bearer at-1'
        ? problem(401, 'UNAUTHENTICATED')
        : json(200, { redirectTo: TO_CLIENT }),
    );
    await expect(client.oidc.completeAuthorization('areq_1')).resolves.toEqual({ redirectTo: TO_CLIENT });
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/oidc/authorization-requests/areq_1/complete',
      '/auth/refresh',
      '/oidc/authorization-requests/areq_1/complete',
    ]);
  });

  it.each([
    [403, 'REAUTHENTICATION_REQUIRED'],
    [403, 'CONSENT_REQUIRED'],
    [404, 'NOT_FOUND'],
  ])('completeAuthorization rejects %i %s as an ApiError, and never refreshes for it', async (status, code) => {
    const { client, fake } = await aClient(() => problem(status, code));
    const failure = await client.oidc.completeAuthorization('areq_1').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status, code });
    expect(fake.requests.map((r) => r.path)).toEqual(['/oidc/authorization-requests/areq_1/complete']);
  });

  it('cancelAuthorization sends the error for the client, without a bearer', async () => {
    const { client, fake } = await aClient(() => json(200, { redirectTo: `${TO_CLIENT}&error=login_required` }));
    await expect(client.oidc.cancelAuthorization('areq_1', 'login_required')).resolves.toEqual({
      redirectTo: `${TO_CLIENT}&error=login_required`,
    });
    const [sent] = fake.requests;
    expect([sent?.method, sent?.path, sent?.body]).toEqual([
      'POST',
      '/oidc/authorization-requests/areq_1/cancel',
      { error: 'login_required' },
    ]);
    expect(sent?.headers.authorization).toBeUndefined();
  });

  it('completeLogout sends an empty JSON body without a bearer, and passes a null redirect on', async () => {
    const { client, fake } = await aClient(() => json(200, { redirectTo: null }), false);
    await expect(client.oidc.completeLogout('lo_1')).resolves.toEqual({ redirectTo: null });
    const [sent] = fake.requests;
    expect([sent?.method, sent?.path, sent?.body, sent?.headers['content-type']]).toEqual([
      'POST',
      '/oidc/logout-requests/lo_1/complete',
      {},
      'application/json',
    ]);
    expect(sent?.headers.authorization).toBeUndefined();
  });
});
