import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, IdentityClient } from '../../client/src/index.ts';
import {
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

/**
 * Signing in with a provider in the SDK, outside a browser: the page's globals the SDK uses (sessionStorage, location,
 * history) stood in for, Web Crypto Node's own. What it sends, what it keeps, and that the verifier it presents is the
 * one whose challenge started the flow. The whole round trip through a real provider runs in Chromium
 * (test/web/journeys/sign-in-providers.test.ts).
 */

const PAGE = 'https://shop.id.example.test/sign-in?next=%2Faccount';
const AT_PROVIDER = 'https://provider.example/authorize?client_id=c&state=s';

class MemoryStorage {
  readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

let storage: MemoryStorage;
let location: { href: string; assign: ReturnType<typeof vi.fn> };
let history: { state: unknown; replaceState: ReturnType<typeof vi.fn> };

beforeEach(() => {
  storage = new MemoryStorage();
  location = { href: PAGE, assign: vi.fn() };
  history = {
    state: null,
    replaceState: vi.fn((_state: unknown, _unused: string, url: string) => {
      location.href = url;
    }),
  };
  vi.stubGlobal('sessionStorage', storage);
  vi.stubGlobal('location', location);
  vi.stubGlobal('history', history);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

const identity = {
  providerId: 'sip_demo',
  kind: 'OIDC',
  displayName: 'Demo ID',
  email: 'ada@demo-id.example',
  linkedAt: '2026-11-21T12:00:00.000Z',
  lastUsedAt: null,
};

/** The service: discovery, login, start (an authorization URL), and whatever `respond` says of the rest. */
function aClient(respond: Responder = () => problem(404, 'NOT_FOUND')) {
  const fake = fakeFetch((request) => {
    if (request.path === '/auth/discovery') return json(200, { ...tenantConfig, signInProviders: [] });
    if (request.path === '/auth/login') return tokens('login');
    if (request.path.endsWith('/start')) return json(200, { authorizationUrl: AT_PROVIDER });
    return respond(request);
  });
  const cookies = recordingCookies();
  const client = new IdentityClient({ baseUrl: BASE_URL, fetch: fake.fetch, cookies: cookies.store });
  return { client, fake, cookies };
}

/** Where the service's callback sends the browser back: the start's `returnTo` with the provider's answer. */
function backFromProvider(start: SentRequest, params: Record<string, string>): string {
  const url = new URL(start.body.returnTo);
  for (const [name, value] of Object.entries(params)) url.searchParams.append(name, value);
  location.href = url.toString();
  return location.href;
}

const aResult = (n = 1) => `result-${n}-0123456789abcdef`;

describe('signInWith', () => {
  it('starts with a fresh S256 challenge, keeps its verifier in this tab, and leaves for the provider', async () => {
    const { client, fake } = aClient();
    await client.discover({ clientId: tenantConfig.publicApiKey });
    await client.signInWith('sip_demo/1', { loginHint: 'ada@demo-id.example' });

    const [start] = fake.to('POST', '/auth/providers/sip_demo%2F1/start');
    expect(start?.headers).toMatchObject({ 'x-app-id': tenantConfig.app, 'x-mid-key': tenantConfig.mid });
    expect(start?.headers.authorization).toBeUndefined();
    expect(start?.body.codeChallenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(start?.body.loginHint).toBe('ada@demo-id.example');
    // Back to this very page by default, its own query kept, the flow named.
    const returnTo = new URL(start?.body.returnTo);
    expect(returnTo.origin + returnTo.pathname).toBe('https://shop.id.example.test/sign-in');
    expect(returnTo.searchParams.get('next')).toBe('/account');
    expect(returnTo.searchParams.get('provider_flow')).toBe(start?.body.codeChallenge);
    expect(location.assign).toHaveBeenCalledWith(AT_PROVIDER);

    // The verifier kept is 43+ base64url characters, and the challenge sent is its S256.
    const kept = [...storage.items.values()].map((value) => JSON.parse(value).verifier as string);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(s256(kept[0] ?? '')).toBe(start?.body.codeChallenge);
  });

  it('makes a new pair for every start', async () => {
    const { client, fake } = aClient();
    await client.signInWith('sip_demo');
    await client.signInWith('sip_demo');
    const [first, second] = fake.to('POST', '/auth/providers/sip_demo/start');
    expect(first?.body.codeChallenge).not.toBe(second?.body.codeChallenge);
    expect(storage.items.size).toBe(2);
  });

  it('keeps nothing and goes nowhere when the service refuses the start', async () => {
    const fake = fakeFetch(() => problem(404, 'NOT_FOUND'));
    const client = new IdentityClient({ baseUrl: BASE_URL, fetch: fake.fetch, cookies: recordingCookies().store });
    await expect(client.signInWith('sip_gone')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(storage.items.size).toBe(0);
    expect(location.assign).not.toHaveBeenCalled();
  });
});

describe('completeProviderSignIn', () => {
  it('presents the result with the verifier of the challenge that started it, keeps the tokens, and cleans the address bar', async () => {
    const { client, fake, cookies } = aClient((request) =>
      request.path === '/auth/providers/sign-in' ? tokens('provider') : problem(404, 'NOT_FOUND'),
    );
    await client.discover({ clientId: tenantConfig.publicApiKey });
    await client.signInWith('sip_demo');
    const [start] = fake.to('POST', '/auth/providers/sip_demo/start');
    const url = backFromProvider(start as SentRequest, { provider_result: aResult() });

    const answer = await client.completeProviderSignIn();
    expect(answer).toEqual({ user: expect.objectContaining({ id: 'usr_1' }) });
    const [signIn] = fake.to('POST', '/auth/providers/sign-in');
    expect(signIn?.body.result).toBe(aResult());
    expect(s256(signIn?.body.codeVerifier)).toBe(start?.body.codeChallenge);
    expect(signIn?.headers.authorization).toBeUndefined();

    // Stored exactly as login stores them: the access token in memory, the refresh token in svc_rt.
    expect(client.getAccessToken()).toBe('at-provider');
    expect(cookies.jar.get('svc_rt')?.value).toBe('rt-provider');
    expect(cookies.jar.get('svc_rt')?.options).toMatchObject({ path: '/', sameSite: 'Lax' });

    // The address bar loses the provider's parameters, and keeps the rest.
    expect(history.replaceState).toHaveBeenCalledTimes(1);
    expect(location.href).toBe(PAGE);
    expect(url).not.toBe(PAGE);
    // The verifier was used: nothing is left to present a second time.
    expect(storage.items.size).toBe(0);
  });

  it('finds the verifier of the flow a result belongs to when one tab started two', async () => {
    const { client, fake } = aClient(() => tokens('provider'));
    await client.signInWith('sip_google');
    await client.signInWith('sip_github');
    const [google] = fake.to('POST', '/auth/providers/sip_google/start');
    backFromProvider(google as SentRequest, { provider_result: aResult() });
    await client.completeProviderSignIn();
    const [signIn] = fake.to('POST', '/auth/providers/sign-in');
    expect(s256(signIn?.body.codeVerifier)).toBe(google?.body.codeChallenge);
    // GitHub's flow is still waiting for its own return.
    expect(storage.items.size).toBe(1);
  });

  it('takes a URL given, and answers null when it carries no provider parameter', async () => {
    const { client, fake } = aClient();
    expect(await client.completeProviderSignIn('https://shop.id.example.test/sign-in?next=%2Faccount')).toBeNull();
    expect(await client.completeProviderSignIn()).toBeNull();
    expect(history.replaceState).not.toHaveBeenCalled();
    expect(fake.requests).toHaveLength(0);
  });

  it('answers the TOTP step as login does, finished by verifyLogin', async () => {
    const step = { challengeRequired: true, challengeType: 'TOTP', challengeId: 'chl_1', expiresAt: 'later' };
    const { client, fake } = aClient((request) =>
      request.path === '/auth/providers/sign-in'
        ? json(200, { success: true, data: step })
        : request.path === '/auth/login/verify'
          ? tokens('totp')
          : problem(404, 'NOT_FOUND'),
    );
    await client.signInWith('sip_demo');
    backFromProvider(fake.requests[0] as SentRequest, { provider_result: aResult() });
    expect(await client.completeProviderSignIn()).toEqual(step);
    expect(client.isAuthenticated()).toBe(false);
    expect(await client.verifyLogin({ challengeId: 'chl_1', code: '123456' })).toMatchObject({ user: { id: 'usr_1' } });
    expect(client.getAccessToken()).toBe('at-totp');
  });

  it('rejects with the callback’s code, sends nothing, and cleans the address bar', async () => {
    const { client, fake } = aClient();
    await client.signInWith('sip_demo');
    backFromProvider(fake.requests[0] as SentRequest, { provider_error: 'PROVIDER_SIGN_IN_CANCELLED' });
    const cancelled = await client.completeProviderSignIn().catch((error: unknown) => error);
    expect(cancelled).toBeInstanceOf(ApiError);
    expect(cancelled).toMatchObject({ code: 'PROVIDER_SIGN_IN_CANCELLED', status: 403 });
    expect(location.href).toBe(PAGE);
    expect(storage.items.size).toBe(0);

    // A code the SDK does not know is a failure, never passed on as it came.
    location.href = `${PAGE}&provider_error=%3Cscript%3E`;
    await expect(client.completeProviderSignIn()).rejects.toMatchObject({ code: 'PROVIDER_SIGN_IN_FAILED' });
    expect(fake.requests.map((r) => r.path)).toEqual(['/auth/providers/sip_demo/start']);
  });

  it('refuses a result this tab holds no verifier for, without sending it', async () => {
    const { client, fake } = aClient();
    location.href = `${PAGE}&provider_result=${aResult()}&provider_flow=unknown`;
    await expect(client.completeProviderSignIn()).rejects.toMatchObject({ code: 'PROVIDER_SIGN_IN_FAILED' });
    expect(fake.requests).toHaveLength(0);
    expect(location.href).toBe(PAGE);
  });

  it('passes on the service’s refusal (an unverified address)', async () => {
    const { client, fake } = aClient(() => problem(403, 'PROVIDER_EMAIL_NOT_VERIFIED'));
    await client.signInWith('sip_demo');
    backFromProvider(fake.requests[0] as SentRequest, { provider_result: aResult() });
    await expect(client.completeProviderSignIn()).rejects.toMatchObject({
      status: 403,
      code: 'PROVIDER_EMAIL_NOT_VERIFIED',
    });
    expect(client.isAuthenticated()).toBe(false);
  });
});

describe('linkRequired, then linkPending', () => {
  const linkRequired = {
    linkRequired: true,
    email: 'ada@shop.test',
    providerName: 'Demo ID',
    expiresAt: new Date(Date.now() + 600_000).toISOString(),
  };

  it('keeps the result and its verifier, and links them once the user has signed in another way', async () => {
    const { client, fake } = aClient((request) => {
      if (request.path === '/auth/providers/sign-in') return json(200, { success: true, data: linkRequired });
      if (request.method === 'POST' && request.path === '/users/me/identities') return json(201, identity);
      return problem(404, 'NOT_FOUND');
    });
    await client.signInWith('sip_demo');
    const start = fake.requests[0] as SentRequest;
    backFromProvider(start, { provider_result: aResult(7) });
    expect(await client.completeProviderSignIn()).toEqual(linkRequired);
    expect(client.isAuthenticated()).toBe(false);

    await client.login({ email: 'ada@shop.test', password: 'Monstera-42-leaf' });
    expect(await client.me.identities.linkPending()).toEqual(identity);
    const [link] = fake.to('POST', '/users/me/identities');
    expect(link?.headers.authorization).toBe('Bearer at-login');
    expect(link?.body.result).toBe(aResult(7));
    expect(s256(link?.body.codeVerifier)).toBe(start.body.codeChallenge);

    // Linked once: nothing more is pending.
    expect(await client.me.identities.linkPending()).toBeNull();
    expect(fake.to('POST', '/users/me/identities')).toHaveLength(1);
  });

  it('keeps the pending link for another try after REAUTHENTICATION_REQUIRED, drops it after a refusal', async () => {
    const answers = [problem(403, 'REAUTHENTICATION_REQUIRED'), problem(401, 'PROVIDER_SIGN_IN_FAILED')];
    const { client, fake } = aClient((request) => {
      if (request.path === '/auth/providers/sign-in') return json(200, { success: true, data: linkRequired });
      if (request.path === '/users/me/identities') return answers.shift() ?? problem(500, 'INTERNAL');
      return problem(404, 'NOT_FOUND');
    });
    await client.signInWith('sip_demo');
    backFromProvider(fake.requests[0] as SentRequest, { provider_result: aResult() });
    await client.completeProviderSignIn();
    await client.login({ email: 'ada@shop.test', password: 'Monstera-42-leaf' });
    await expect(client.me.identities.linkPending()).rejects.toMatchObject({ code: 'REAUTHENTICATION_REQUIRED' });
    await expect(client.me.identities.linkPending()).rejects.toMatchObject({ code: 'PROVIDER_SIGN_IN_FAILED' });
    expect(await client.me.identities.linkPending()).toBeNull();
    expect(fake.to('POST', '/users/me/identities')).toHaveLength(2);
    // That 401 refused the result, not the token: no refresh, and the session stands.
    expect(fake.to('POST', '/auth/refresh')).toHaveLength(0);
    expect(client.isAuthenticated()).toBe(true);
  });

  it('forgets a pending link once it has expired', async () => {
    const expired = { ...linkRequired, expiresAt: new Date(Date.now() - 1000).toISOString() };
    const { client, fake } = aClient(() => json(200, { success: true, data: expired }));
    await client.signInWith('sip_demo');
    backFromProvider(fake.requests[0] as SentRequest, { provider_result: aResult() });
    await client.completeProviderSignIn();
    expect(await client.me.identities.linkPending()).toBeNull();
    expect(fake.to('POST', '/users/me/identities')).toHaveLength(0);
  });
});

describe('me.identities', () => {
  async function signedIn(respond: Responder) {
    const made = aClient(respond);
    await made.client.discover({ clientId: tenantConfig.publicApiKey });
    await made.client.login({ email: 'ada@shop.test', password: 'Monstera-42-leaf' });
    return made;
  }

  it('lists and unlinks with the bearer, the id encoded', async () => {
    const { client, fake } = await signedIn((request) =>
      request.method === 'GET' ? json(200, [identity]) : noContent(),
    );
    expect(await client.me.identities.list()).toEqual([identity]);
    await client.me.identities.unlink('sip_a/b');
    expect(fake.to('DELETE', '/users/me/identities/sip_a%2Fb')[0]?.headers.authorization).toBe('Bearer at-login');
  });

  it('passes on LAST_SIGN_IN_METHOD', async () => {
    const { client } = await signedIn(() => problem(409, 'LAST_SIGN_IN_METHOD'));
    await expect(client.me.identities.unlink('sip_demo')).rejects.toMatchObject({
      status: 409,
      code: 'LAST_SIGN_IN_METHOD',
    });
  });

  it('links: starts with the bearer and a challenge, leaves, and completes with that challenge’s verifier', async () => {
    const { client, fake } = await signedIn((request) =>
      request.path === '/users/me/identities' ? json(201, identity) : problem(404, 'NOT_FOUND'),
    );
    location.href = 'https://shop.id.example.test/account';
    await client.me.identities.link('sip_demo');
    const [start] = fake.to('POST', '/users/me/identities/start');
    expect(start?.headers.authorization).toBe('Bearer at-login');
    expect(start?.body).toMatchObject({ providerId: 'sip_demo', codeChallenge: expect.any(String) });
    expect(new URL(start?.body.returnTo).pathname).toBe('/account');
    expect(location.assign).toHaveBeenCalledWith(AT_PROVIDER);

    backFromProvider(start as SentRequest, { provider_result: aResult(3) });
    expect(await client.me.identities.completeLink()).toEqual(identity);
    const [link] = fake.to('POST', '/users/me/identities');
    expect(link?.body.result).toBe(aResult(3));
    expect(s256(link?.body.codeVerifier)).toBe(start?.body.codeChallenge);
    expect(location.href).toBe('https://shop.id.example.test/account');
    expect(await client.me.identities.completeLink()).toBeNull();
  });

  it('keeps the result when completeLink is refused REAUTHENTICATION_REQUIRED, for linkPending once proven', async () => {
    const answers = [problem(403, 'REAUTHENTICATION_REQUIRED'), json(201, identity)];
    const { client, fake } = await signedIn((request) =>
      request.path === '/users/me/identities' ? (answers.shift() ?? problem(500, 'INTERNAL')) : noContent(),
    );
    await client.me.identities.link('sip_demo');
    const [start] = fake.to('POST', '/users/me/identities/start');
    backFromProvider(start as SentRequest, { provider_result: aResult(5) });
    await expect(client.me.identities.completeLink()).rejects.toMatchObject({ code: 'REAUTHENTICATION_REQUIRED' });
    expect(await client.me.identities.completeLink()).toBeNull();
    await client.reauthenticate({ password: 'Monstera-42-leaf' });
    expect(await client.me.identities.linkPending()).toEqual(identity);
    const [first, second] = fake.to('POST', '/users/me/identities');
    expect(second?.body).toEqual(first?.body);
    expect(s256(second?.body.codeVerifier)).toBe(start?.body.codeChallenge);
  });

  it('completeLink rejects with the callback’s code', async () => {
    const { client } = await signedIn(() => problem(404, 'NOT_FOUND'));
    location.href = 'https://shop.id.example.test/account?provider_error=PROVIDER_SIGN_IN_FAILED';
    await expect(client.me.identities.completeLink()).rejects.toMatchObject({ code: 'PROVIDER_SIGN_IN_FAILED' });
    expect(location.href).toBe('https://shop.id.example.test/account');
  });
});

describe('reauthenticateWithProvider, then completeProviderReauthentication', () => {
  const ACCOUNT = 'https://shop.id.example.test/account';
  const totpMissing = () =>
    json(400, {
      type: 'about:blank',
      title: 'Error',
      status: 400,
      code: 'VALIDATION_FAILED',
      errors: [{ path: 'totpCode', message: 'is required while TOTP is on' }],
    });

  async function signedIn(respond: Responder) {
    const made = aClient(respond);
    await made.client.discover({ clientId: tenantConfig.publicApiKey });
    await made.client.login({ email: 'ada@shop.test', password: 'Monstera-42-leaf' });
    location.href = ACCOUNT;
    return made;
  }

  /** A re-authentication started, at the provider, and back on the account page with `params`. */
  async function backFromReauthentication(made: Awaited<ReturnType<typeof signedIn>>, params: Record<string, string>) {
    await made.client.reauthenticateWithProvider('sip_demo');
    const start = made.fake.to('POST', '/auth/providers/sip_demo/start').at(-1) as SentRequest;
    backFromProvider(start, params);
    return start;
  }

  it('starts as a sign-in does (no bearer), and back, proves it with the bearer; sign-in and link leave its result alone', async () => {
    const made = await signedIn(() => noContent());
    const { client, fake } = made;
    const start = await backFromReauthentication(made, { provider_result: aResult(9) });
    expect(start.headers).toMatchObject({ 'x-app-id': tenantConfig.app, 'x-mid-key': tenantConfig.mid });
    expect(start.headers.authorization).toBeUndefined();
    expect(new URL(start.body.returnTo).pathname).toBe('/account');
    expect(location.assign).toHaveBeenCalledWith(AT_PROVIDER);
    const back = location.href;

    // The page asks first (to ask for a TOTP code, say): nothing is sent, nothing taken.
    expect(client.pendingProviderReauthentication()).toEqual({ providerId: 'sip_demo' });
    // A result for a re-authentication is not a sign-in's, nor a link's.
    expect(await client.completeProviderSignIn()).toBeNull();
    expect(await client.me.identities.completeLink()).toBeNull();
    expect(location.href).toBe(back);
    expect(fake.to('POST', '/auth/providers/sign-in')).toHaveLength(0);
    expect(fake.to('POST', '/users/me/identities')).toHaveLength(0);

    await expect(client.completeProviderReauthentication()).resolves.toBe(true);
    const [proof] = fake.to('POST', '/auth/reauthenticate/provider');
    expect(proof?.headers.authorization).toBe('Bearer at-login');
    expect(proof?.body).toEqual({ result: aResult(9), codeVerifier: expect.any(String) });
    expect(s256(proof?.body.codeVerifier)).toBe(start.body.codeChallenge);
    expect(location.href).toBe(ACCOUNT);
    // Used: nothing is left to finish, or to present again.
    expect(client.pendingProviderReauthentication()).toBeNull();
    await expect(client.completeProviderReauthentication()).resolves.toBe(false);
    expect(fake.to('POST', '/auth/reauthenticate/provider')).toHaveLength(1);
    expect(storage.items.size).toBe(0);
  });

  it('keeps the result when the TOTP code was missing, and sends it again with the code', async () => {
    const answers = [totpMissing(), noContent()];
    const made = await signedIn((request) =>
      request.path === '/auth/reauthenticate/provider' ? (answers.shift() ?? problem(500, 'INTERNAL')) : noContent(),
    );
    await backFromReauthentication(made, { provider_result: aResult(4) });
    await expect(made.client.completeProviderReauthentication()).rejects.toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
    });
    // Out of the address bar, still waiting in this tab.
    expect(location.href).toBe(ACCOUNT);
    expect(made.client.pendingProviderReauthentication()).toEqual({ providerId: 'sip_demo' });
    await expect(made.client.completeProviderReauthentication({ totpCode: '123456' })).resolves.toBe(true);
    const [first, second] = made.fake.to('POST', '/auth/reauthenticate/provider');
    expect(second?.body).toEqual({ ...first?.body, totpCode: '123456' });
    expect(made.client.pendingProviderReauthentication()).toBeNull();
  });

  it('keeps the result through a wrong TOTP code (the service takes it only with a right one), drops one not linked to this user (no refresh)', async () => {
    const answers = [problem(401, 'INVALID_CODE'), problem(401, 'PROVIDER_SIGN_IN_FAILED')];
    const made = await signedIn((request) =>
      request.path === '/auth/reauthenticate/provider' ? (answers.shift() ?? problem(500, 'INTERNAL')) : noContent(),
    );
    await backFromReauthentication(made, { provider_result: aResult(1) });
    await expect(made.client.completeProviderReauthentication({ totpCode: '000000' })).rejects.toMatchObject({
      code: 'INVALID_CODE',
    });
    expect(made.client.pendingProviderReauthentication()).toEqual({ providerId: 'sip_demo' });

    await backFromReauthentication(made, { provider_result: aResult(2) });
    await expect(made.client.completeProviderReauthentication()).rejects.toMatchObject({
      status: 401,
      code: 'PROVIDER_SIGN_IN_FAILED',
    });
    expect(made.client.pendingProviderReauthentication()).toBeNull();
    // Those 401s refused the proof, not the token: no refresh, and the session stands.
    expect(made.fake.to('POST', '/auth/refresh')).toHaveLength(0);
    expect(made.client.isAuthenticated()).toBe(true);
  });

  it('rejects with the callback’s code and sends nothing; a sign-in’s result is not one to finish', async () => {
    const made = await signedIn(() => noContent());
    await backFromReauthentication(made, { provider_error: 'PROVIDER_SIGN_IN_CANCELLED' });
    expect(made.client.pendingProviderReauthentication()).toEqual({ providerId: 'sip_demo' });
    await expect(made.client.completeProviderReauthentication()).rejects.toMatchObject({
      code: 'PROVIDER_SIGN_IN_CANCELLED',
    });
    expect(location.href).toBe(ACCOUNT);
    expect(storage.items.size).toBe(0);

    await made.client.signInWith('sip_demo');
    backFromProvider(made.fake.to('POST', '/auth/providers/sip_demo/start')[1] as SentRequest, {
      provider_result: aResult(6),
    });
    expect(made.client.pendingProviderReauthentication()).toBeNull();
    await expect(made.client.completeProviderReauthentication()).resolves.toBe(false);
    expect(made.fake.to('POST', '/auth/reauthenticate/provider')).toHaveLength(0);
    expect(location.href).not.toBe(ACCOUNT);
  });

  it('keeps nothing and goes nowhere when the service refuses the start', async () => {
    const made = await signedIn(() => noContent());
    const fake = fakeFetch(() => problem(404, 'NOT_FOUND'));
    const client = new IdentityClient({ baseUrl: BASE_URL, fetch: fake.fetch, cookies: recordingCookies().store });
    await expect(client.reauthenticateWithProvider('sip_gone')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(storage.items.size).toBe(0);
    expect(location.assign).not.toHaveBeenCalled();
    expect(made.fake.to('POST', '/auth/reauthenticate/provider')).toHaveLength(0);
  });
});

describe('admin', () => {
  it('reads and changes the tenant’s sign-in providers, and a user’s linked accounts', async () => {
    const provider = { id: 'sip_1', kind: 'OIDC', displayName: 'Demo ID' };
    const { client, fake } = aClient((request) => {
      if (request.method === 'DELETE') return noContent();
      if (request.method === 'POST') return json(201, provider);
      if (request.path === '/sign-in-providers') return json(200, [provider]);
      if (request.path === '/users/usr_1/identities') return json(200, [identity]);
      return json(200, provider);
    });
    await client.discover({ clientId: tenantConfig.publicApiKey });
    await client.login({ email: 'owner@shop.test', password: 'Monstera-42-leaf' });
    const body = { kind: 'OIDC', clientId: 'c', clientSecret: 's', issuer: 'https://id.example' } as const;
    expect(await client.admin.signInProviders.list()).toEqual([provider]);
    expect(await client.admin.signInProviders.create(body)).toEqual(provider);
    expect(await client.admin.signInProviders.get('sip_1')).toEqual(provider);
    expect(await client.admin.signInProviders.update('sip_1', { enabled: false })).toEqual(provider);
    await client.admin.signInProviders.remove('sip_1');
    expect(await client.admin.users.identities('usr_1')).toEqual([identity]);
    expect(fake.requests.slice(2).map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /sign-in-providers',
      'POST /sign-in-providers',
      'GET /sign-in-providers/sip_1',
      'PATCH /sign-in-providers/sip_1',
      'DELETE /sign-in-providers/sip_1',
      'GET /users/usr_1/identities',
    ]);
    expect(fake.to('POST', '/sign-in-providers')[0]?.body).toEqual(body);
    expect(fake.to('PATCH', '/sign-in-providers/sip_1')[0]?.body).toEqual({ enabled: false });
    expect(fake.requests.slice(2).every((r) => r.headers.authorization === 'Bearer at-login')).toBe(true);
  });
});
