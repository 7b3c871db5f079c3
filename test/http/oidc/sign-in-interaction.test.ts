import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { totpCodeAt } from '#shared/auth/totp.ts';
import { aUser, forgetMailsTo, latestCodeTo, type TestTenant, type TestUser } from '#test/support/auth.ts';
import { bearer, call, expectProblem, post } from '#test/support/http.ts';
import { authorizeAs } from '#test/support/oidc.ts';
import { addPasskeyThroughApi, passkeySignInBody } from '#test/support/passkeys.ts';
import { useLocalStack } from '#test/support/server.ts';
import { ageSignIn, atIssuer, CALLBACK, claimsOf, oidcApi, type Provider } from './helpers.ts';

/**
 * The hosted sign-in page's side of an authorization request (shared/oidc/README.md, The sign-in page),
 * driven through the API: a fresher sign-in for prompt=login and max_age, a third-party client's consent,
 * and how the user signed in (amr) as the ID token tells the client.
 */

const api = useLocalStack();
const { aProvider, authorizationUrl, redeem } = oidcApi(api);

const ELEVEN_MINUTES = 11 * 60_000;

const complete = (provider: Provider, requestId: string, token: string, body: Record<string, unknown> = {}) =>
  post(`${api.url}/oidc/authorization-requests/${requestId}/complete`, body, bearer(provider.tenant, token));

const reauthenticate = (tenant: TestTenant, token: string, body: Record<string, unknown>) =>
  post(`${api.url}/auth/reauthenticate`, body, bearer(tenant, token));

/** Starts a request and completes it once with the admin: the first answer, and what redeeming needs. */
async function begin(provider: Provider, extra: Record<string, string> = {}, body: Record<string, unknown> = {}) {
  const pending = await authorizationUrl(provider.config, extra);
  const first = await authorizeAs(api.url, provider.tenant, provider.userToken, pending.url, body);
  return { pending, first };
}

/** A password login of a TOTP user, finished with the code of the current step. */
async function signInWithTotp(tenant: TestTenant, user: TestUser): Promise<string> {
  const first = await post(`${api.url}/auth/login`, { email: user.email, password: user.password }, tenant.headers);
  expect(first.status, first.text).toBe(200);
  expect(first.body.data).toMatchObject({ challengeRequired: true, challengeType: 'TOTP' });
  const second = await post(
    `${api.url}/auth/login/verify`,
    { challengeId: first.body.data.challengeId, code: totpCodeAt(user.totpSecret as string, new Date()) },
    tenant.headers,
  );
  expect(second.status, second.text).toBe(200);
  return second.body.data.accessToken;
}

/** A login with a mailed code. */
async function signInWithMailedCode(tenant: TestTenant, user: TestUser): Promise<string> {
  await forgetMailsTo(tenant, 'LOGIN', user.email);
  const first = await post(`${api.url}/auth/login`, { email: user.email, loginMode: 'OTP_EMAIL' }, tenant.headers);
  expect(first.status, first.text).toBe(200);
  const code = await latestCodeTo(api.stack.sesUrl, user.email);
  const second = await post(
    `${api.url}/auth/login/verify`,
    { challengeId: first.body.data.challengeId, code },
    tenant.headers,
  );
  expect(second.status, second.text).toBe(200);
  return second.body.data.accessToken;
}

describe('prompt=login and max_age', () => {
  it('prompt=login: a session signed in before the request gets 403 REAUTHENTICATION_REQUIRED; after re-authenticating, the code, and auth_time is the new sign-in', async () => {
    const provider = await aProvider();
    await ageSignIn(provider.tenant, provider.userToken, ELEVEN_MINUTES);
    const { pending, first } = await begin(provider, { prompt: 'login' });
    expect(first.status).toBe(403);
    expect(first.problem).toMatchObject({ code: 'REAUTHENTICATION_REQUIRED' });

    const before = Math.floor(Date.now() / 1000);
    const reauth = await reauthenticate(provider.tenant, provider.userToken, {
      password: provider.tenant.adminPassword,
    });
    expect(reauth.status, reauth.text).toBe(204);
    const again = await complete(provider, first.requestId, provider.userToken);
    expect(again.status, again.text).toBe(200);
    const tokens = await redeem(provider.config, { ...pending, callback: new URL(again.body.redirectTo) });
    const authTime = tokens.claims()?.auth_time as number;
    expect(authTime).toBeGreaterThanOrEqual(before - 1);
    expect(authTime).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
  });

  it('prompt=login: the page shows prompt "login" (select_account too)', async () => {
    const provider = await aProvider();
    for (const prompt of ['login', 'select_account', 'login consent']) {
      const { first } = await begin(provider, { prompt });
      const shown = await call(
        api.url,
        'GET',
        `/oidc/authorization-requests/${first.requestId}`,
        provider.tenant.headers,
      );
      expect(shown.body.prompt).toBe('login');
    }
  });

  it('max_age: a sign-in older than max_age gets 403 REAUTHENTICATION_REQUIRED; after re-authenticating, the code with the new auth_time', async () => {
    const provider = await aProvider();
    await ageSignIn(provider.tenant, provider.userToken, ELEVEN_MINUTES);
    const { pending, first } = await begin(provider, { max_age: '300' });
    expect(first.status).toBe(403);
    expect(first.problem).toMatchObject({ code: 'REAUTHENTICATION_REQUIRED' });
    const shown = await call(
      api.url,
      'GET',
      `/oidc/authorization-requests/${first.requestId}`,
      provider.tenant.headers,
    );
    expect(shown.body.maxAge).toBe(300);

    const before = Math.floor(Date.now() / 1000);
    expect(
      (await reauthenticate(provider.tenant, provider.userToken, { password: provider.tenant.adminPassword })).status,
    ).toBe(204);
    const again = await complete(provider, first.requestId, provider.userToken);
    expect(again.status, again.text).toBe(200);
    const tokens = await redeem(provider.config, { ...pending, callback: new URL(again.body.redirectTo) });
    expect(tokens.claims()?.auth_time).toBeGreaterThanOrEqual(before - 1);
  });

  it('max_age: a sign-in within max_age completes at once', async () => {
    const provider = await aProvider();
    const { first } = await begin(provider, { max_age: '300' });
    expect(first.status, JSON.stringify(first.problem)).toBe(200);
  });

  it('max_age=0 asks always: even a session signed in a moment ago is asked', async () => {
    const provider = await aProvider();
    const { first } = await begin(provider, { max_age: '0' });
    expect(first.status).toBe(403);
    expect(first.problem).toMatchObject({ code: 'REAUTHENTICATION_REQUIRED' });
  });

  // Server bug: shared/oidc/interaction.ts authenticationFitsRequest compares `now - authenticatedAt > maxAge * 1000`
  // in milliseconds, so with max_age=0 any sign-in a millisecond old is too old: re-authenticating (a request of
  // its own, always before `complete`) never satisfies it, and the user is asked forever. max_age=0 must be
  // satisfiable by a sign-in made for this request (OIDC Core 3.1.2.1: it acts as prompt=login).
  it('max_age=0: after re-authenticating for the request, complete gives the code', async () => {
    const provider = await aProvider();
    const { pending, first } = await begin(provider, { max_age: '0' });
    expect(first.status).toBe(403);
    expect(
      (await reauthenticate(provider.tenant, provider.userToken, { password: provider.tenant.adminPassword })).status,
    ).toBe(204);
    const again = await complete(provider, first.requestId, provider.userToken);
    expect(again.status, again.text).toBe(200);
    await redeem(provider.config, { ...pending, callback: new URL(again.body.redirectTo) });
  });
});

describe('one request, one answer', () => {
  it('of two tabs completing the same request at once, one gets the code and the other 404 NOT_FOUND', async () => {
    const provider = await aProvider();
    const pending = await authorizationUrl(provider.config);
    const page = await atIssuer(provider.issuer, `${pending.url.pathname}${pending.url.search}`);
    const requestId = new URL(page.headers.get('location') as string).searchParams.get('request') as string;
    const answers = await Promise.all([
      complete(provider, requestId, provider.userToken),
      complete(provider, requestId, provider.userToken),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404]);
  });
});

describe('consent to a third-party client', () => {
  const thirdParty = { firstParty: false, name: 'Partner app' };

  it('asks with 403 CONSENT_REQUIRED; the page shows the client as third party with its name and scopes', async () => {
    const provider = await aProvider(thirdParty);
    const { first } = await begin(provider, { scope: 'openid email' });
    expect(first.status).toBe(403);
    expect(first.problem).toMatchObject({ code: 'CONSENT_REQUIRED' });
    const shown = await call(
      api.url,
      'GET',
      `/oidc/authorization-requests/${first.requestId}`,
      provider.tenant.headers,
    );
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      client: { clientId: provider.clientId, name: 'Partner app', firstParty: false },
      scopes: ['openid', 'email'],
    });
  });

  it('DENIED sends access_denied with the state and iss to the client, and uses the request up', async () => {
    const provider = await aProvider(thirdParty);
    const { pending, first } = await begin(provider);
    expect(first.problem).toMatchObject({ code: 'CONSENT_REQUIRED' });
    const denied = await complete(provider, first.requestId, provider.userToken, { consent: 'DENIED' });
    expect(denied.status, denied.text).toBe(200);
    const back = new URL(denied.body.redirectTo);
    expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe(pending.state);
    expect(back.searchParams.get('iss')).toBe(provider.issuer);
    expect(back.searchParams.has('code')).toBe(false);
    expectProblem(
      await complete(provider, first.requestId, provider.userToken, { consent: 'GRANTED' }),
      404,
      'NOT_FOUND',
    );
  });

  it('GRANTED gives the code; the same scopes next time need no consent; more scopes (roles, offline_access too) ask again', async () => {
    const provider = await aProvider(thirdParty);
    const { pending, first } = await begin(provider, { scope: 'openid email' });
    expect(first.problem).toMatchObject({ code: 'CONSENT_REQUIRED' });
    const granted = await complete(provider, first.requestId, provider.userToken, { consent: 'GRANTED' });
    expect(granted.status, granted.text).toBe(200);
    const tokens = await redeem(provider.config, { ...pending, callback: new URL(granted.body.redirectTo) });
    expect(tokens.claims()?.email).toBe(provider.tenant.adminEmail);

    const same = await begin(provider, { scope: 'openid email' });
    expect(same.first.status, JSON.stringify(same.first.problem)).toBe(200);
    const fewer = await begin(provider, { scope: 'openid' });
    expect(fewer.first.status, JSON.stringify(fewer.first.problem)).toBe(200);

    // The user's roles, and a refresh token, are scopes of their own the user is asked for.
    for (const scope of ['openid email phone', 'openid email roles', 'openid email offline_access']) {
      const more = await begin(provider, { scope });
      expect(more.first.status, scope).toBe(403);
      expect(more.first.problem).toMatchObject({ code: 'CONSENT_REQUIRED' });
    }
  });

  it('prompt=consent asks even when consent is remembered', async () => {
    const provider = await aProvider(thirdParty);
    const { first } = await begin(provider, { scope: 'openid email' }, { consent: 'GRANTED' });
    expect(first.status, JSON.stringify(first.problem)).toBe(200);
    const remembered = await begin(provider, { scope: 'openid email' });
    expect(remembered.first.status).toBe(200);

    const asked = await begin(provider, { scope: 'openid email', prompt: 'consent' });
    expect(asked.first.status).toBe(403);
    expect(asked.first.problem).toMatchObject({ code: 'CONSENT_REQUIRED' });
  });

  it('prompt="login consent": both apply, a fresh sign-in and then consent, though consent is remembered', async () => {
    const provider = await aProvider(thirdParty);
    await begin(provider, { scope: 'openid email' }, { consent: 'GRANTED' });
    await ageSignIn(provider.tenant, provider.userToken, ELEVEN_MINUTES);
    const { pending, first } = await begin(provider, { scope: 'openid email', prompt: 'login consent' });
    expect(first.problem).toMatchObject({ code: 'REAUTHENTICATION_REQUIRED' });
    const reauth = await reauthenticate(provider.tenant, provider.userToken, {
      password: provider.tenant.adminPassword,
    });
    expect(reauth.status, reauth.text).toBe(204);

    const again = await complete(provider, first.requestId, provider.userToken);
    expect(again.status).toBe(403);
    expect(again.body.code).toBe('CONSENT_REQUIRED');
    const granted = await complete(provider, first.requestId, provider.userToken, { consent: 'GRANTED' });
    expect(granted.status, granted.text).toBe(200);
    const tokens = await redeem(provider.config, { ...pending, callback: new URL(granted.body.redirectTo) });
    expect(tokens.claims()?.email).toBe(provider.tenant.adminEmail);
  });

  it("one user's consent is not another's", async () => {
    const provider = await aProvider(thirdParty);
    await begin(provider, { scope: 'openid email' }, { consent: 'GRANTED' });
    const user = await aUser(provider.tenant);
    const { accessToken } = await oidcApi(api).logIn(provider.tenant, user.email, user.password);
    const pending = await authorizationUrl(provider.config, { scope: 'openid email' });
    const other = await authorizeAs(api.url, provider.tenant, accessToken, pending.url);
    expect(other.status).toBe(403);
    expect(other.problem).toMatchObject({ code: 'CONSENT_REQUIRED' });
  });

  it('a first-party client never asks', async () => {
    const provider = await aProvider({ firstParty: true });
    const { first } = await begin(provider, { scope: 'openid email phone profile' });
    expect(first.status, JSON.stringify(first.problem)).toBe(200);
  });
});

describe('amr: how the user signed in', () => {
  it("a TOTP user who signed in with password then TOTP: amr ['pwd', 'otp', 'mfa']", async () => {
    const provider = await aProvider();
    const user = await aUser(provider.tenant, { totp: true });
    const token = await signInWithTotp(provider.tenant, user);
    const pending = await authorizationUrl(provider.config);
    const done = await authorizeAs(api.url, provider.tenant, token, pending.url);
    expect(done.status, JSON.stringify(done.problem)).toBe(200);
    const tokens = await redeem(provider.config, { ...pending, callback: done.redirectTo as URL });
    expect(tokens.claims()).toMatchObject({ sub: user.id, amr: ['pwd', 'otp', 'mfa'] });
    // A refresh keeps how the user signed in.
    const refreshed = await oidc.refreshTokenGrant(provider.config, tokens.refresh_token as string);
    expect(claimsOf(refreshed.id_token as string).amr).toEqual(['pwd', 'otp', 'mfa']);
  });

  it("a login with a mailed code: amr ['otp']", async () => {
    const provider = await aProvider({}, { loginMode: 'PASSWORD_OR_OTP_EMAIL' });
    const user = await aUser(provider.tenant);
    const token = await signInWithMailedCode(provider.tenant, user);
    const pending = await authorizationUrl(provider.config);
    const done = await authorizeAs(api.url, provider.tenant, token, pending.url);
    expect(done.status, JSON.stringify(done.problem)).toBe(200);
    const tokens = await redeem(provider.config, { ...pending, callback: done.redirectTo as URL });
    expect(tokens.claims()).toMatchObject({ sub: user.id, amr: ['otp'] });
  });

  it("a TOTP user who signed in with a passkey kept on one device: amr ['hwk', 'user', 'mfa'], no TOTP step", async () => {
    const provider = await aProvider();
    const user = await aUser(provider.tenant, { totp: true });
    const { credential } = await addPasskeyThroughApi(
      api.url,
      api.stack,
      provider.tenant,
      await signInWithTotp(provider.tenant, user),
    );
    const body = await passkeySignInBody(api.url, api.stack, provider.tenant, credential);
    const signedIn = await post(`${api.url}/auth/passkeys/sign-in`, body, provider.tenant.headers);
    expect(signedIn.status, signedIn.text).toBe(200);
    const pending = await authorizationUrl(provider.config);
    const done = await authorizeAs(api.url, provider.tenant, signedIn.body.data.accessToken, pending.url);
    expect(done.status, JSON.stringify(done.problem)).toBe(200);
    const tokens = await redeem(provider.config, { ...pending, callback: done.redirectTo as URL });
    expect(tokens.claims()).toMatchObject({ sub: user.id, amr: ['hwk', 'user', 'mfa'] });
  });
});
