import { describe, expect, it, vi } from 'vitest';
import { ApiError, IdentityClient, type IdentityClientOptions } from '../../client/src/index.ts';
import {
  aUserResponse,
  BASE_URL,
  fakeFetch,
  json,
  noContent,
  problem,
  type Responder,
  recordingCookies,
  type SentRequest,
  tenantConfig,
  tokens,
} from './support/fake-fetch.ts';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

/** Discovery and login answer as the service does; everything else goes to `respond`. */
function service(respond: Responder = () => problem(404, 'NOT_FOUND')): Responder {
  return (request) => {
    if (request.path === '/auth/discovery') return json(200, tenantConfig);
    if (request.path === '/auth/login') return tokens(1);
    return respond(request);
  };
}

function aClient(respond: Responder, options: Partial<IdentityClientOptions> = {}) {
  const fake = fakeFetch(respond);
  const cookies = recordingCookies();
  const client = new IdentityClient({
    baseUrl: BASE_URL,
    fetch: fake.fetch,
    cookies: cookies.store,
    now: () => NOW,
    ...options,
  });
  return { client, fake, cookies };
}

async function aSignedInClient(respond?: Responder, options: Partial<IdentityClientOptions> = {}) {
  const setup = aClient(service(respond), options);
  await setup.client.discover({ clientId: 'pk_1' });
  await setup.client.login({ email: 'fern@shop.test', password: 'Fern-fern-1' });
  return setup;
}

/** /users/me answers 401 to the first access token and the user to any other. */
const meRejectsFirstToken: Responder = (request) => {
  if (request.path === '/users/me') {
    return request.headers.authorization === 'Bearer at-1'
      ? problem(401, 'UNAUTHENTICATED')
      : json(200, aUserResponse());
  }
  return problem(404, 'NOT_FOUND');
};

function deferred() {
  let release!: () => void;
  const promise = new Promise<void>((done) => {
    release = done;
  });
  return { promise, release };
}

const settle = () => new Promise((done) => setTimeout(done, 20));

describe('IdentityClient transport', () => {
  it('calls fetch as a plain function, never as a method of an object', async () => {
    const { client, fake } = aClient(service());
    await client.discover({ clientId: 'pk_1' });
    expect(fake.requests[0]?.thisArg).toBeUndefined();
  });

  it('defaults to globalThis.fetch', async () => {
    const fake = fakeFetch(service());
    vi.stubGlobal('fetch', fake.fetch);
    try {
      await new IdentityClient({ baseUrl: `${BASE_URL}/`, cookies: recordingCookies().store }).discover({
        clientId: 'pk_1',
      });
      expect(fake.requests.map((r) => r.path)).toEqual(['/auth/discovery']);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('discover() sends GET /auth/discovery with clientId and slug, keeps the tenant, and later requests carry X-App-ID and X-Mid-Key', async () => {
    const { client, fake } = aClient(service(() => json(200, aUserResponse())));
    expect(client.tenant).toBeNull();
    const tenant = await client.discover({ clientId: 'pk_1', slug: 'shop' });
    expect(tenant).toEqual(tenantConfig);
    expect(client.tenant).toEqual(tenantConfig);
    const [discovery] = fake.requests;
    expect(discovery).toMatchObject({ method: 'GET', query: { clientId: 'pk_1', slug: 'shop' } });
    expect(discovery?.headers['x-app-id']).toBeUndefined();
    expect(discovery?.headers.authorization).toBeUndefined();

    await client.login({ email: 'fern@shop.test', password: 'Fern-fern-1' });
    await client.me.get();
    for (const request of fake.requests.slice(1)) {
      expect(request.headers).toMatchObject({ 'x-app-id': 'app_1', 'x-mid-key': 'mid_1' });
    }
  });

  it('sends JSON bodies with a JSON content type', async () => {
    const { client, fake } = await aSignedInClient(() => json(200, aUserResponse()));
    await client.me.update({ firstName: 'Ivy' });
    const [patch] = fake.to('PATCH', '/users/me');
    expect(patch?.headers['content-type']).toBe('application/json');
    expect(patch?.body).toEqual({ firstName: 'Ivy' });
  });
});

describe('login and the public auth endpoints', () => {
  it('login() unwraps the envelope, returns { user } and keeps the access token in memory', async () => {
    const { client, fake } = aClient(service());
    await client.discover({ clientId: 'pk_1' });
    expect(client.isAuthenticated()).toBe(false);
    const result = await client.login({ email: 'fern@shop.test', password: 'Fern-fern-1' });
    expect(result).toEqual({ user: aUserResponse() });
    expect(client.isAuthenticated()).toBe(true);
    expect(client.getAccessToken()).toBe('at-1');
    const [login] = fake.to('POST', '/auth/login');
    expect(login?.body).toEqual({ email: 'fern@shop.test', password: 'Fern-fern-1' });
    expect(login?.headers.authorization).toBeUndefined();
  });

  it('login() returns the challenge when another step is needed, and keeps no tokens', async () => {
    const challenge = {
      challengeRequired: true,
      challengeType: 'TOTP',
      challengeId: 'chl_1',
      expiresAt: '2026-11-21T12:10:00Z',
    };
    const { client, cookies } = aClient((r) =>
      r.path === '/auth/login' ? json(200, { success: true, data: challenge }) : service()(r),
    );
    await client.discover({ clientId: 'pk_1' });
    expect(await client.login({ email: 'fern@shop.test', password: 'Fern-fern-1' })).toEqual(challenge);
    expect(client.isAuthenticated()).toBe(false);
    expect(cookies.log).toEqual([]);
  });

  it('verifyLogin() finishes the challenge with the same result shape', async () => {
    const { client, fake } = aClient(
      service((r) => (r.path === '/auth/login/verify' ? tokens(7) : problem(404, 'NOT_FOUND'))),
    );
    await client.discover({ clientId: 'pk_1' });
    expect(await client.verifyLogin({ challengeId: 'chl_1', code: '123456' })).toEqual({ user: aUserResponse() });
    expect(client.getAccessToken()).toBe('at-7');
    expect(fake.to('POST', '/auth/login/verify')[0]?.body).toEqual({ challengeId: 'chl_1', code: '123456' });
  });

  it("signup() names the discovered tenant's app and mid, and verifySignup() logs in", async () => {
    const { client, fake } = aClient(
      service((r) => {
        if (r.path === '/auth/signup') return json(201, { success: true, data: { challengeId: 'chl_s' } });
        if (r.path === '/auth/signup/verify') return tokens(3);
        return problem(404, 'NOT_FOUND');
      }),
    );
    await client.discover({ clientId: 'pk_1' });
    expect(
      await client.signup({ email: 'new@shop.test', password: 'Fern-fern-1', firstName: 'N', lastName: 'U' }),
    ).toEqual({
      challengeId: 'chl_s',
    });
    expect(fake.to('POST', '/auth/signup')[0]?.body).toEqual({
      app: 'app_1',
      mid: 'mid_1',
      email: 'new@shop.test',
      password: 'Fern-fern-1',
      firstName: 'N',
      lastName: 'U',
    });
    expect(await client.verifySignup({ challengeId: 'chl_s', code: '654321' })).toEqual({ user: aUserResponse() });
    expect(client.getAccessToken()).toBe('at-3');
  });

  it("lookupInvitation() sends the token in the body with the tenant's headers and no bearer, and answers the invitation", async () => {
    const invitation = {
      tenantName: 'Fern Shop',
      email: 'ivy@shop.test',
      firstName: 'Ivy',
      lastName: null,
      inviterName: 'Ana Admin',
      expiresAt: '2025-03-14T09:30:00.000Z',
    };
    const { client, fake } = await aSignedInClient((r) =>
      r.path === '/auth/invitations/lookup' ? json(200, invitation) : problem(404, 'NOT_FOUND'),
    );
    expect(await client.lookupInvitation('inv_abc')).toEqual(invitation);
    const [sent] = fake.to('POST', '/auth/invitations/lookup');
    expect(sent?.body).toEqual({ invitationToken: 'inv_abc' });
    expect(sent?.headers['x-app-id']).toBe('app_1');
    expect(sent?.headers.authorization).toBeUndefined();
  });

  it('forgotPassword() and resetPassword() send their bodies without a bearer', async () => {
    const { client, fake } = await aSignedInClient((r) =>
      r.path === '/auth/forgot-password' ? json(202, { challengeId: 'chl_f' }) : noContent(),
    );
    expect(await client.forgotPassword({ email: 'fern@shop.test' })).toEqual({ challengeId: 'chl_f' });
    await client.resetPassword({ challengeId: 'chl_f', code: '111111', newPassword: 'Fern-fern-2' });
    const [forgot] = fake.to('POST', '/auth/forgot-password');
    const [reset] = fake.to('POST', '/auth/reset-password');
    expect(forgot?.body).toEqual({ email: 'fern@shop.test' });
    expect(reset?.body).toEqual({ challengeId: 'chl_f', code: '111111', newPassword: 'Fern-fern-2' });
    expect(forgot?.headers.authorization).toBeUndefined();
    expect(reset?.headers.authorization).toBeUndefined();
  });
});

describe('the svc_rt cookie', () => {
  it('keeps the URL-encoded refresh token for 7 days from login, on path /, SameSite Lax', async () => {
    const { client, cookies } = aClient((r) =>
      r.path === '/auth/login' ? tokens(1, 'rt1.a+b/c=d;e f%') : service()(r),
    );
    await client.discover({ clientId: 'pk_1' });
    await client.login({ email: 'fern@shop.test', password: 'Fern-fern-1' });
    expect(cookies.log).toEqual([
      {
        op: 'set',
        name: 'svc_rt',
        value: 'rt1.a%2Bb%2Fc%3Dd%3Be%20f%25',
        options: { expires: new Date(NOW.getTime() + SEVEN_DAYS_MS), path: '/', sameSite: 'Lax' },
      },
    ]);
  });

  it('does not keep the access token anywhere but memory', async () => {
    const { cookies } = await aSignedInClient();
    expect(JSON.stringify(cookies.log)).not.toContain('at-1');
  });

  it('a refresh rotates the value but keeps the expiry of the login (the lifetime is absolute)', async () => {
    let now = NOW;
    const { client, cookies } = await aSignedInClient(
      (r) => (r.path === '/auth/refresh' ? tokens(2) : problem(404, 'NOT_FOUND')),
      {
        now: () => now,
      },
    );
    now = new Date(NOW.getTime() + 3 * 60 * 60 * 1000);
    await client.refresh();
    expect(cookies.jar.get('svc_rt')).toEqual({
      value: 'rt-2',
      options: { expires: new Date(NOW.getTime() + SEVEN_DAYS_MS), path: '/', sameSite: 'Lax' },
    });
  });

  it('logging in again starts a new 7-day lifetime', async () => {
    let now = NOW;
    const { client, cookies } = await aSignedInClient(undefined, { now: () => now });
    now = new Date(NOW.getTime() + 60_000);
    await client.login({ email: 'fern@shop.test', password: 'Fern-fern-1' });
    expect(cookies.jar.get('svc_rt')?.options.expires).toEqual(new Date(now.getTime() + SEVEN_DAYS_MS));
  });

  it('in a browser, writes document.cookie by default: no HttpOnly, no Secure; clearing writes an expiry in the past', async () => {
    const written: string[] = [];
    vi.stubGlobal('document', {
      get cookie() {
        return written.length ? 'other=1; svc_rt=rt-1' : '';
      },
      set cookie(value: string) {
        written.push(value);
      },
    });
    try {
      const fake = fakeFetch(service(() => noContent()));
      const client = new IdentityClient({ baseUrl: BASE_URL, fetch: fake.fetch, now: () => NOW });
      await client.discover({ clientId: 'pk_1' });
      await client.login({ email: 'fern@shop.test', password: 'Fern-fern-1' });
      expect(written[0]).toBe(
        `svc_rt=rt-1; expires=${new Date(NOW.getTime() + SEVEN_DAYS_MS).toUTCString()}; path=/; SameSite=Lax`,
      );
      expect(written[0]).not.toMatch(/httponly|secure/i);
      await client.logout();
      expect(written[1]).toMatch(/^svc_rt=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=\/; SameSite=Lax$/);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('outside a browser, keeps the refresh token in memory by default', async () => {
    const fake = fakeFetch(service((r) => (r.path === '/auth/refresh' ? tokens(2) : problem(404, 'NOT_FOUND'))));
    const client = new IdentityClient({ baseUrl: BASE_URL, fetch: fake.fetch });
    await client.discover({ clientId: 'pk_1' });
    await client.login({ email: 'fern@shop.test', password: 'Fern-fern-1' });
    await client.refresh();
    expect(fake.to('POST', '/auth/refresh')[0]?.body).toEqual({ refreshToken: 'rt-1' });
  });
});

describe('refresh', () => {
  it('sends POST /auth/refresh with the decoded refresh token in the body, never a Cookie header, and keeps the new pair', async () => {
    const { client, fake, cookies } = aClient((r) => {
      if (r.path === '/auth/login') return tokens(1, 'rt1.a+b/c=');
      if (r.path === '/auth/refresh') return tokens(2, 'rt1.x+y/z=');
      return service()(r);
    });
    await client.discover({ clientId: 'pk_1' });
    await client.login({ email: 'fern@shop.test', password: 'Fern-fern-1' });
    expect(await client.refresh()).toEqual({ user: aUserResponse() });
    const [refresh] = fake.to('POST', '/auth/refresh');
    expect(refresh?.body).toEqual({ refreshToken: 'rt1.a+b/c=' });
    expect(Object.keys(refresh?.headers ?? {}).map((h) => h.toLowerCase())).not.toContain('cookie');
    expect(refresh?.headers.authorization).toBeUndefined();
    expect(refresh?.headers).toMatchObject({ 'x-app-id': 'app_1', 'x-mid-key': 'mid_1' });
    expect(client.getAccessToken()).toBe('at-2');
    expect(cookies.jar.get('svc_rt')?.value).toBe('rt1.x%2By%2Fz%3D');
  });

  it('resumes a session from a stored refresh token (after a reload)', async () => {
    const cookies = recordingCookies();
    cookies.store.set('svc_rt', 'rt-9', { expires: new Date(NOW.getTime() + 1000), path: '/', sameSite: 'Lax' });
    const fake = fakeFetch(service((r) => (r.path === '/auth/refresh' ? tokens(10) : problem(404, 'NOT_FOUND'))));
    const client = new IdentityClient({ baseUrl: BASE_URL, fetch: fake.fetch, cookies: cookies.store, now: () => NOW });
    await client.discover({ clientId: 'pk_1' });
    await client.refresh();
    expect(fake.to('POST', '/auth/refresh')[0]?.body).toEqual({ refreshToken: 'rt-9' });
    expect(client.isAuthenticated()).toBe(true);
  });

  it('shares one attempt between callers of refresh() at the same time', async () => {
    const gate = deferred();
    const { client, fake } = await aSignedInClient((r) =>
      r.path === '/auth/refresh' ? gate.promise.then(() => tokens(2)) : problem(404, 'NOT_FOUND'),
    );
    const all = Promise.all([client.refresh(), client.refresh(), client.refresh()]);
    await settle();
    gate.release();
    expect(await all).toHaveLength(3);
    expect(fake.to('POST', '/auth/refresh')).toHaveLength(1);
  });

  it('refresh() with no stored refresh token rejects NO_REFRESH_TOKEN without a request or a session-expired signal', async () => {
    const expired = vi.fn();
    const { client, fake } = aClient(service(), { onSessionExpired: expired });
    await expect(client.refresh()).rejects.toMatchObject({ status: 401, code: 'NO_REFRESH_TOKEN' });
    expect(fake.requests).toEqual([]);
    expect(expired).not.toHaveBeenCalled();
  });
});

/**
 * Tabs of one origin: several clients over one cookie jar, as browser tabs
 * share `svc_rt`. The service here rotates as the real one does: the current
 * token gets the next; a token already rotated out gets 401 REFRESH_TOKEN_INVALID
 * (the strictest answer: no grace successor).
 */
function tabsOfOneOrigin(count: number) {
  const cookies = recordingCookies();
  cookies.store.set('svc_rt', 'rt-1', { expires: new Date(NOW.getTime() + SEVEN_DAYS_MS), path: '/', sameSite: 'Lax' });
  let current = 1;
  const presented: string[] = [];
  const gate = deferred();
  const respond = service(async (request) => {
    if (request.path !== '/auth/refresh') return problem(404, 'NOT_FOUND');
    const token = (request.body as { refreshToken: string }).refreshToken;
    presented.push(token);
    await gate.promise;
    if (token !== `rt-${current}`) return problem(401, 'REFRESH_TOKEN_INVALID');
    current++;
    return tokens(current);
  });
  const expired = vi.fn();
  const tabs = Array.from({ length: count }, () => {
    const fake = fakeFetch(respond);
    const client = new IdentityClient({ baseUrl: BASE_URL, fetch: fake.fetch, cookies: cookies.store, now: () => NOW });
    client.onSessionExpired(expired);
    return client;
  });
  return { tabs, cookies, presented, expired, release: gate.release, current: () => current };
}

/** A Web Locks stand-in: one holder at a time per name, in request order (what navigator.locks guarantees). */
function serialLocks() {
  const tails = new Map<string, Promise<unknown>>();
  const names: string[] = [];
  return {
    names,
    locks: {
      request<T>(name: string, callback: () => Promise<T>): Promise<T> {
        names.push(name);
        const run = (tails.get(name) ?? Promise.resolve()).then(callback);
        tails.set(
          name,
          run.catch(() => undefined),
        );
        return run;
      },
    },
  };
}

describe('refresh across tabs of one origin (one svc_rt cookie)', () => {
  it('serialises the refreshes of three tabs with navigator.locks: each presents the token the tab before it stored; all stay signed in', async () => {
    const { locks, names } = serialLocks();
    vi.stubGlobal('navigator', { locks });
    try {
      const { tabs, presented, expired, release, cookies } = tabsOfOneOrigin(3);
      for (const tab of tabs) await tab.discover({ clientId: 'pk_1' });
      const all = Promise.all(tabs.map((tab) => tab.refresh()));
      await settle();
      release();
      await all;
      // One chain: no token presented twice, so the service never saw a race.
      expect(presented).toEqual(['rt-1', 'rt-2', 'rt-3']);
      expect(tabs.every((tab) => tab.isAuthenticated())).toBe(true);
      expect(cookies.jar.get('svc_rt')?.value).toBe('rt-4');
      expect(expired).not.toHaveBeenCalled();
      expect(new Set(names)).toEqual(new Set(['identity-client:svc_rt:refresh']));
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('without Web Locks, a tab refused REFRESH_TOKEN_INVALID while the cookie holds a newer token tries again with it', async () => {
    const { tabs, presented, expired, release } = tabsOfOneOrigin(3);
    for (const tab of tabs) await tab.discover({ clientId: 'pk_1' });
    const all = Promise.all(tabs.map((tab) => tab.refresh()));
    await settle();
    release();
    await all;
    // All three raced with rt-1; the two refused went again with the token the winner stored, and so on.
    expect(presented.slice(0, 3)).toEqual(['rt-1', 'rt-1', 'rt-1']);
    expect(presented.filter((token) => token === 'rt-1')).toHaveLength(3);
    expect(tabs.every((tab) => tab.isAuthenticated())).toBe(true);
    expect(expired).not.toHaveBeenCalled();
  });

  it('a refusal while the cookie still holds the token it sent ends the session: the signal fires once per tab that held one', async () => {
    const { tabs, expired, release, cookies } = tabsOfOneOrigin(1);
    const [tab] = tabs as [IdentityClient];
    await tab.discover({ clientId: 'pk_1' });
    cookies.store.set('svc_rt', 'rt-0', { expires: new Date(NOW.getTime() + 1000), path: '/', sameSite: 'Lax' });
    release();
    await expect(tab.refresh()).rejects.toMatchObject({ status: 401, code: 'REFRESH_TOKEN_INVALID' });
    expect(expired).toHaveBeenCalledTimes(1);
    expect(cookies.jar.get('svc_rt')).toBeUndefined();
  });
});

describe('a 401 to a request that carried the access token', () => {
  it('5 parallel requests answered 401 cause exactly one POST /auth/refresh, then each is retried once with the new token', async () => {
    const gate = deferred();
    const { client, fake } = await aSignedInClient((r) =>
      r.path === '/auth/refresh' ? gate.promise.then(() => tokens(2)) : meRejectsFirstToken(r),
    );
    const calls = Array.from({ length: 5 }, () => client.me.get());
    await vi.waitFor(() => expect(fake.to('POST', '/auth/refresh')).toHaveLength(1));
    await settle();
    expect(fake.to('GET', '/users/me')).toHaveLength(5);
    gate.release();

    expect(await Promise.all(calls)).toEqual(Array.from({ length: 5 }, () => aUserResponse()));
    const me = fake.to('GET', '/users/me');
    expect(me.map((r) => r.headers.authorization)).toEqual([
      ...Array(5).fill('Bearer at-1'),
      ...Array(5).fill('Bearer at-2'),
    ]);
    expect(fake.to('POST', '/auth/refresh')).toHaveLength(1);
    expect(client.getAccessToken()).toBe('at-2');
  });

  it('a request whose 401 arrives after another caller refreshed is retried with the new token, without another refresh', async () => {
    const late = deferred();
    const { client, fake } = await aSignedInClient((r) => {
      if (r.path === '/auth/refresh') return tokens(2);
      if (r.path === '/users/me/sessions' && r.headers.authorization === 'Bearer at-1') {
        return late.promise.then(() => problem(401, 'UNAUTHENTICATED'));
      }
      if (r.path === '/users/me/sessions') return json(200, []);
      return meRejectsFirstToken(r);
    });
    const slow = client.me.sessions.list();
    await client.me.get();
    late.release();
    expect(await slow).toEqual([]);
    expect(fake.to('POST', '/auth/refresh')).toHaveLength(1);
    expect(fake.to('GET', '/users/me/sessions').map((r) => r.headers.authorization)).toEqual([
      'Bearer at-1',
      'Bearer at-2',
    ]);
  });

  it('when the refresh is refused, all 5 reject, the tokens are cleared and the session-expired signal fires exactly once', async () => {
    const gate = deferred();
    const fromOption = vi.fn();
    const fromListener = vi.fn();
    const { client, fake, cookies } = await aSignedInClient(
      (r) =>
        r.path === '/auth/refresh'
          ? gate.promise.then(() => problem(401, 'REFRESH_TOKEN_INVALID'))
          : meRejectsFirstToken(r),
      { onSessionExpired: fromOption },
    );
    client.onSessionExpired(fromListener);
    const calls = Array.from({ length: 5 }, () => client.me.get());
    await vi.waitFor(() => expect(fake.to('POST', '/auth/refresh')).toHaveLength(1));
    await settle();
    gate.release();

    const results = await Promise.allSettled(calls);
    expect(results.map((r) => r.status)).toEqual(Array(5).fill('rejected'));
    for (const result of results) {
      expect(result.status === 'rejected' && result.reason).toMatchObject({
        status: 401,
        code: 'REFRESH_TOKEN_INVALID',
      });
      expect(result.status === 'rejected' && result.reason).toBeInstanceOf(ApiError);
    }
    expect(fake.to('POST', '/auth/refresh')).toHaveLength(1);
    expect(fake.to('GET', '/users/me')).toHaveLength(5);
    expect(client.isAuthenticated()).toBe(false);
    expect(client.getAccessToken()).toBeNull();
    expect(cookies.jar.has('svc_rt')).toBe(false);
    expect(fromOption).toHaveBeenCalledTimes(1);
    expect(fromListener).toHaveBeenCalledTimes(1);
  });

  it('a retry answered 401 again is final: no second refresh', async () => {
    const { client, fake } = await aSignedInClient((r) =>
      r.path === '/auth/refresh' ? tokens(2) : problem(401, 'SESSION_REVOKED'),
    );
    await expect(client.me.get()).rejects.toMatchObject({ status: 401, code: 'SESSION_REVOKED' });
    expect(fake.to('GET', '/users/me')).toHaveLength(2);
    expect(fake.to('POST', '/auth/refresh')).toHaveLength(1);
  });

  it('a refresh that fails for a passing reason (no answer, 503) rejects but keeps the session for the next try', async () => {
    const expired = vi.fn();
    let refreshAnswer: () => Response = () => problem(503, 'UNAVAILABLE');
    const { client, fake, cookies } = await aSignedInClient(
      (r) => (r.path === '/auth/refresh' ? refreshAnswer() : meRejectsFirstToken(r)),
      { onSessionExpired: expired },
    );
    await expect(client.me.get()).rejects.toMatchObject({ status: 503, code: 'UNAVAILABLE' });
    refreshAnswer = () => {
      throw new TypeError('fetch failed');
    };
    await expect(client.me.get()).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
    expect(expired).not.toHaveBeenCalled();
    expect(cookies.jar.get('svc_rt')?.value).toBe('rt-1');

    refreshAnswer = () => tokens(2);
    expect(await client.me.get()).toEqual(aUserResponse());
    expect(fake.to('POST', '/auth/refresh')).toHaveLength(3);
  });

  it('onSessionExpired() returns an unsubscribe function', async () => {
    const kept = vi.fn();
    const dropped = vi.fn();
    const { client } = await aSignedInClient((r) =>
      r.path === '/auth/refresh' ? problem(401, 'REFRESH_TOKEN_REUSED') : meRejectsFirstToken(r),
    );
    client.onSessionExpired(kept);
    const unsubscribe = client.onSessionExpired(dropped);
    unsubscribe();
    await expect(client.me.get()).rejects.toMatchObject({ code: 'REFRESH_TOKEN_REUSED' });
    expect(kept).toHaveBeenCalledTimes(1);
    expect(dropped).not.toHaveBeenCalled();
  });
});

describe('a 401 to a request without a bearer is final', () => {
  const cases: Array<[string, (client: IdentityClient) => Promise<unknown>, string]> = [
    ['login', (c) => c.login({ email: 'fern@shop.test', password: 'wrong-1' }), '/auth/login'],
    ['verifyLogin', (c) => c.verifyLogin({ challengeId: 'chl_1', code: '000000' }), '/auth/login/verify'],
    ['discover', (c) => c.discover({ clientId: 'pk_1' }), '/auth/discovery'],
    ['signup', (c) => c.signup({ email: 'a@shop.test', firstName: 'A', lastName: 'B' }), '/auth/signup'],
    ['verifySignup', (c) => c.verifySignup({ challengeId: 'chl_1', code: '000000' }), '/auth/signup/verify'],
    ['forgotPassword', (c) => c.forgotPassword({ email: 'a@shop.test' }), '/auth/forgot-password'],
    ['lookupInvitation', (c) => c.lookupInvitation('inv_1'), '/auth/invitations/lookup'],
    [
      'resetPassword',
      (c) => c.resetPassword({ challengeId: 'c', code: '000000', newPassword: 'Fern-fern-2' }),
      '/auth/reset-password',
    ],
  ];

  it.each(cases)('%s: rejects with the 401, sends no refresh and keeps the session', async (_name, call, path) => {
    const expired = vi.fn();
    let refuseAll = false;
    // Signed in first: even while tokens are held, the public endpoints carry no bearer and never refresh.
    const { client, fake } = aClient((r) => (refuseAll ? problem(401, 'INVALID_CREDENTIALS') : service()(r)), {
      onSessionExpired: expired,
    });
    await client.discover({ clientId: 'pk_1' });
    await client.login({ email: 'fern@shop.test', password: 'Fern-fern-1' });
    refuseAll = true;
    fake.requests.length = 0;

    await expect(call(client)).rejects.toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    expect(fake.requests.map((r: SentRequest) => r.path)).toEqual([path]);
    expect(fake.requests[0]?.headers.authorization).toBeUndefined();
    expect(client.getAccessToken()).toBe('at-1');
    expect(expired).not.toHaveBeenCalled();
  });

  it('refresh: a 401 to the refresh itself does not refresh again', async () => {
    const { client, fake } = await aSignedInClient(() => problem(401, 'REFRESH_TOKEN_INVALID'));
    await expect(client.refresh()).rejects.toMatchObject({ code: 'REFRESH_TOKEN_INVALID' });
    expect(fake.to('POST', '/auth/refresh')).toHaveLength(1);
    expect(client.isAuthenticated()).toBe(false);
  });

  it('a request made before login gets its 401 as the answer: no refresh, no signal', async () => {
    const expired = vi.fn();
    const { client, fake } = aClient(
      service(() => problem(401, 'UNAUTHENTICATED')),
      { onSessionExpired: expired },
    );
    await client.discover({ clientId: 'pk_1' });
    await expect(client.me.get()).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(fake.requests.map((r) => r.path)).toEqual(['/auth/discovery', '/users/me']);
    expect(expired).not.toHaveBeenCalled();
  });
});

describe('reauthenticate', () => {
  it('sends { password, totpCode } with the bearer to POST /auth/reauthenticate and resolves with nothing on 204', async () => {
    const { client, fake } = await aSignedInClient(() => noContent());
    await expect(client.reauthenticate({ password: 'Fern-fern-1', totpCode: '123456' })).resolves.toBeUndefined();
    const [sent] = fake.to('POST', '/auth/reauthenticate');
    expect(sent?.body).toEqual({ password: 'Fern-fern-1', totpCode: '123456' });
    expect(sent?.headers.authorization).toBe('Bearer at-1');
    expect(sent?.headers['x-app-id']).toBe('app_1');
  });

  it('asks for an e-mail code with { loginMode: "OTP_EMAIL" } (resolves with the challengeId), then sends { challengeId, code }', async () => {
    const { client, fake } = await aSignedInClient((r) =>
      r.body?.loginMode === 'OTP_EMAIL' ? json(200, { challengeId: 'chl_r' }) : noContent(),
    );
    expect(await client.reauthenticate({ loginMode: 'OTP_EMAIL' })).toEqual({ challengeId: 'chl_r' });
    await expect(client.reauthenticate({ challengeId: 'chl_r', code: '654321' })).resolves.toBeUndefined();
    expect(fake.to('POST', '/auth/reauthenticate').map((r) => r.body)).toEqual([
      { loginMode: 'OTP_EMAIL' },
      { challengeId: 'chl_r', code: '654321' },
    ]);
  });

  it('a 403 REAUTHENTICATION_REQUIRED rejects at once: no refresh, no retry, the session kept', async () => {
    const expired = vi.fn();
    const { client, fake } = await aSignedInClient(
      (r) => (r.path === '/users/me/totp/init' ? problem(403, 'REAUTHENTICATION_REQUIRED') : tokens(2)),
      { onSessionExpired: expired },
    );
    const error = await client.me.totp.init().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, code: 'REAUTHENTICATION_REQUIRED' });
    expect(fake.to('POST', '/users/me/totp/init')).toHaveLength(1);
    expect(fake.to('POST', '/auth/refresh')).toHaveLength(0);
    expect(client.getAccessToken()).toBe('at-1');
    expect(expired).not.toHaveBeenCalled();
  });

  it('a 401 INVALID_CREDENTIALS or INVALID_CODE refuses the proof, not the token: final, no refresh, sent once (one lockout count)', async () => {
    for (const code of ['INVALID_CREDENTIALS', 'INVALID_CODE']) {
      const { client, fake } = await aSignedInClient((r) =>
        r.path === '/auth/reauthenticate' ? problem(401, code) : tokens(2),
      );
      await expect(client.reauthenticate({ password: 'Wrong-1-pass' })).rejects.toMatchObject({ status: 401, code });
      expect(fake.to('POST', '/auth/reauthenticate')).toHaveLength(1);
      expect(fake.to('POST', '/auth/refresh')).toHaveLength(0);
      expect(client.getAccessToken()).toBe('at-1');
    }
  });

  it('a 401 UNAUTHENTICATED (an expired access token) is refreshed once and the proof sent again', async () => {
    const { client, fake } = await aSignedInClient((r) => {
      if (r.path === '/auth/refresh') return tokens(2);
      return r.headers.authorization === 'Bearer at-1' ? problem(401, 'UNAUTHENTICATED') : noContent();
    });
    await expect(client.reauthenticate({ password: 'Fern-fern-1' })).resolves.toBeUndefined();
    expect(fake.to('POST', '/auth/refresh')).toHaveLength(1);
    expect(fake.to('POST', '/auth/reauthenticate').map((r) => r.headers.authorization)).toEqual([
      'Bearer at-1',
      'Bearer at-2',
    ]);
  });
});

describe('logout', () => {
  it('sends DELETE /auth/logout with the bearer, then clears the tokens', async () => {
    const { client, fake, cookies } = await aSignedInClient(() => noContent());
    await client.logout();
    const [logout] = fake.to('DELETE', '/auth/logout');
    expect(logout?.headers.authorization).toBe('Bearer at-1');
    expect(client.isAuthenticated()).toBe(false);
    expect(client.getAccessToken()).toBeNull();
    expect(cookies.log.at(-1)).toEqual({ op: 'remove', name: 'svc_rt' });
  });

  it.each([
    ['answers 500', () => problem(500, 'INTERNAL')],
    ['gets no answer', () => Promise.reject(new TypeError('fetch failed'))],
    ['answers HTML', () => new Response('<h1>Bad gateway</h1>', { status: 502 })],
  ])('clears the tokens when the service %s, and resolves', async (_name, answer) => {
    const expired = vi.fn();
    const { client, cookies } = await aSignedInClient(answer, { onSessionExpired: expired });
    await expect(client.logout()).resolves.toBeUndefined();
    expect(client.isAuthenticated()).toBe(false);
    expect(cookies.jar.has('svc_rt')).toBe(false);
    expect(expired).not.toHaveBeenCalled();
  });
});

describe('ApiError', () => {
  it('carries the problem details: status, code, detail and errors', async () => {
    const body = {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      code: 'VALIDATION_FAILED',
      detail: 'newPassword: needs a digit',
      errors: [{ path: 'newPassword', message: 'needs a digit' }],
    };
    const { client } = await aSignedInClient(
      () =>
        new Response(JSON.stringify(body), { status: 400, headers: { 'content-type': 'application/problem+json' } }),
    );
    const error = await client.me
      .changePassword({ currentPassword: 'x', newPassword: 'abcdefgh' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 400,
      code: 'VALIDATION_FAILED',
      detail: 'newPassword: needs a digit',
      errors: [{ path: 'newPassword', message: 'needs a digit' }],
      message: 'VALIDATION_FAILED: newPassword: needs a digit',
    });
  });

  it('a problem without detail or errors has an undefined detail and no errors', async () => {
    const { client } = await aSignedInClient(() => problem(404, 'NOT_FOUND'));
    await expect(client.admin.users.get('usr_x')).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      detail: undefined,
      errors: [],
    });
  });

  it('a network failure becomes status 0, NETWORK_ERROR', async () => {
    const { client } = aClient(() => Promise.reject(new TypeError('fetch failed')));
    await expect(client.discover({ clientId: 'pk_1' })).rejects.toMatchObject({
      status: 0,
      code: 'NETWORK_ERROR',
      detail: 'fetch failed',
    });
  });

  it('an error answer that is not problem+json becomes INVALID_RESPONSE with its status', async () => {
    const { client } = aClient(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(client.discover({ clientId: 'pk_1' })).rejects.toMatchObject({
      status: 502,
      code: 'INVALID_RESPONSE',
    });
    const other = aClient(() => json(404, { message: 'Not Found' }));
    await expect(other.client.discover({ clientId: 'pk_1' })).rejects.toMatchObject({
      status: 404,
      code: 'INVALID_RESPONSE',
    });
  });

  it('a success answer that is not JSON becomes INVALID_RESPONSE', async () => {
    const { client } = aClient(() => new Response('ok', { status: 200 }));
    await expect(client.discover({ clientId: 'pk_1' })).rejects.toMatchObject({
      status: 200,
      code: 'INVALID_RESPONSE',
    });
  });
});
