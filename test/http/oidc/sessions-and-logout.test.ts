import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { aUser } from '#test/support/auth.ts';
import { bearer, call, expectProblem, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';
import {
  AFTER_LOGOUT,
  atIssuer,
  basic,
  CALLBACK,
  claimsOf,
  expectOAuthError,
  oidcApi,
  type Provider,
  postForm,
  userinfoWith,
} from './helpers.ts';

/**
 * A client's session as the user and the client see it (shared/oidc/README.md, Codes and tokens; Logout):
 * listed in the account page's sessions under the client's name, ended there, by "sign out everywhere", a
 * password change or a disabled account, and by RP-initiated logout, which never sends the browser to a
 * URI the client did not register.
 */

const api = useLocalStack();
const { aProvider, anotherClient, signIn, tokensFor, logIn } = oidcApi(api);

const listSessions = (provider: Provider, token: string) =>
  call(api.url, 'GET', '/users/me/sessions', bearer(provider.tenant, token));

/** The client's session is over: userinfo 401, refresh invalid_grant. */
async function expectEnded(provider: Provider, tokens: { access_token: string; refresh_token?: string }) {
  const info = await userinfoWith(provider.issuer, tokens.access_token);
  expectOAuthError(info, 401, 'invalid_token');
  await expect(oidc.refreshTokenGrant(provider.config, tokens.refresh_token as string)).rejects.toMatchObject({
    error: 'invalid_grant',
  });
}

/** The client's session is live: userinfo 200 (refresh is left alone, so as not to rotate the token). */
async function expectLive(provider: Provider, tokens: { access_token: string }) {
  const info = await userinfoWith(provider.issuer, tokens.access_token);
  expect(info.status, info.text).toBe(200);
}

describe("the client's session in the account page", () => {
  it("is listed in GET /users/me/sessions under the client's name, not as the caller's own", async () => {
    const provider = await aProvider({ name: 'Shop web' });
    const tokens = await tokensFor(provider);
    const sid = tokens.claims()?.sid as string;
    const res = await listSessions(provider, provider.userToken);
    expect(res.status, res.text).toBe(200);
    const listed = res.body as { id: string; current: boolean; clientName: string | null }[];
    expect(listed.find((s) => s.id === sid)).toMatchObject({ id: sid, current: false, clientName: 'Shop web' });
    expect(listed.find((s) => s.current)).toMatchObject({ clientName: null });
  });

  it('revoking it there (DELETE /users/me/sessions/{id}) ends its refresh token and userinfo', async () => {
    const provider = await aProvider();
    const tokens = await tokensFor(provider);
    const sid = tokens.claims()?.sid as string;
    const res = await call(api.url, 'DELETE', `/users/me/sessions/${sid}`, bearer(provider.tenant, provider.userToken));
    expect(res.status, res.text).toBe(204);
    await expectEnded(provider, tokens);
    expect((await listSessions(provider, provider.userToken)).body.map((s: { id: string }) => s.id)).not.toContain(sid);
  });

  it('POST /sessions/revoke-all ends it too', async () => {
    const provider = await aProvider();
    const tokens = await tokensFor(provider);
    const res = await call(api.url, 'POST', '/sessions/revoke-all', bearer(provider.tenant, provider.userToken));
    expect(res.status, res.text).toBeLessThan(300);
    await expectEnded(provider, tokens);
  });

  it('a password change ends it', async () => {
    const provider = await aProvider();
    const user = await aUser(provider.tenant);
    const { accessToken } = await logIn(provider.tenant, user.email, user.password);
    const tokens = await tokensFor(provider, { token: accessToken });
    await expectLive(provider, tokens);
    const res = await post(
      `${api.url}/users/me/password`,
      { currentPassword: user.password, newPassword: 'Another-Fern-77-long' },
      bearer(provider.tenant, accessToken),
    );
    expect(res.status, res.text).toBe(204);
    await expectEnded(provider, tokens);
  });

  it("a disabled user's client session ends, and a code issued before is refused at the token endpoint", async () => {
    const provider = await aProvider();
    const user = await aUser(provider.tenant);
    const { accessToken } = await logIn(provider.tenant, user.email, user.password);
    const tokens = await tokensFor(provider, { token: accessToken });
    const pending = await signIn(provider, { token: accessToken });

    const disabled = await call(
      api.url,
      'PATCH',
      `/users/${user.id}/status`,
      bearer(provider.tenant, provider.userToken),
      {
        status: 'DISABLED',
      },
    );
    expect(disabled.status, disabled.text).toBe(200);

    const res = await postForm(
      provider.issuer,
      '/oidc/token',
      { grant_type: 'authorization_code', code: pending.code, redirect_uri: CALLBACK, code_verifier: pending.verifier },
      { authorization: basic(provider.clientId, provider.clientSecret as string) },
    );
    expectOAuthError(res, 400, 'invalid_grant');
    await expectEnded(provider, tokens);
  });

  it("ending one client's session leaves the user's other sessions alone", async () => {
    const provider = await aProvider();
    const first = await tokensFor(provider);
    const other = { ...provider, ...(await anotherClient(provider, { name: 'Other app' })) };
    const second = await tokensFor(other);
    await oidc.tokenRevocation(provider.config, first.refresh_token as string);
    await expectEnded(provider, first);
    await expectLive(other, second);
    expect((await call(api.url, 'GET', '/users/me', bearer(provider.tenant, provider.userToken))).status).toBe(200);
  });
});

/** GET end-session with these parameters, then the sign-out page's next step: where it sends the browser. */
async function logOut(provider: Pick<Provider, 'issuer' | 'tenant'>, params: Record<string, string>) {
  const res = await atIssuer(provider.issuer, `/api/v1/oidc/end-session?${new URLSearchParams(params)}`);
  expect(res.status, res.text).toBe(302);
  const page = new URL(res.headers.get('location') as string);
  expect(`${page.origin}${page.pathname}`).toBe(`${provider.issuer}/sign-out`);
  const logoutId = page.searchParams.get('logout') as string;
  const next = await post(`${api.url}/oidc/logout-requests/${logoutId}/complete`, {}, provider.tenant.headers);
  expect(next.status, next.text).toBe(200);
  return { redirectTo: next.body.redirectTo as string | null, logoutId };
}

/** An ID token with its payload changed and the signature kept: no longer this issuer's. */
function tampered(idToken: string, change: Record<string, unknown>): string {
  const [header, payload, signature] = idToken.split('.');
  const claims = { ...JSON.parse(Buffer.from(payload as string, 'base64url').toString()), ...change };
  return [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
}

describe('GET /oidc/end-session (RP-Initiated Logout)', () => {
  it("a good hint ends the client's session (not the user's others) and returns to the registered URI with the state; the step is used once", async () => {
    const provider = await aProvider();
    const tokens = await tokensFor(provider);
    const { redirectTo, logoutId } = await logOut(provider, {
      id_token_hint: tokens.id_token as string,
      post_logout_redirect_uri: AFTER_LOGOUT,
      state: 'bye & = ü',
    });
    expect(redirectTo).not.toBeNull();
    const back = new URL(redirectTo as string);
    expect(`${back.origin}${back.pathname}`).toBe(AFTER_LOGOUT);
    expect(back.searchParams.get('state')).toBe('bye & = ü');
    await expectEnded(provider, tokens);
    expect((await call(api.url, 'GET', '/users/me', bearer(provider.tenant, provider.userToken))).status).toBe(200);
    expectProblem(
      await post(`${api.url}/oidc/logout-requests/${logoutId}/complete`, {}, provider.tenant.headers),
      404,
      'NOT_FOUND',
    );
  });

  it.each([
    ['an unregistered URI', 'https://attacker.example/after'],
    ['a trailing slash', `${AFTER_LOGOUT}/`],
    ['the login callback (registered, but not for logout)', CALLBACK],
  ])('a good hint with %s ends the session but never redirects there', async (_, uri) => {
    const provider = await aProvider();
    const tokens = await tokensFor(provider);
    const { redirectTo } = await logOut(provider, {
      id_token_hint: tokens.id_token as string,
      post_logout_redirect_uri: uri,
    });
    expect(redirectTo).toBeNull();
    await expectEnded(provider, tokens);
  });

  it('a forged hint (payload changed, signature kept) neither redirects nor ends the session it names', async () => {
    const provider = await aProvider();
    const tokens = await tokensFor(provider);
    const forged = tampered(tokens.id_token as string, { email: 'someone@else.test' });
    const { redirectTo } = await logOut(provider, { id_token_hint: forged, post_logout_redirect_uri: AFTER_LOGOUT });
    expect(redirectTo).toBeNull();
    await expectLive(provider, tokens);
  });

  it('an unsigned hint (alg none) neither redirects nor ends the session it names', async () => {
    const provider = await aProvider();
    const tokens = await tokensFor(provider);
    const claims = claimsOf(tokens.id_token as string);
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(
      JSON.stringify(claims),
    ).toString('base64url')}.`;
    const { redirectTo } = await logOut(provider, { id_token_hint: none, post_logout_redirect_uri: AFTER_LOGOUT });
    expect(redirectTo).toBeNull();
    await expectLive(provider, tokens);
  });

  it("another tenant's ID token as the hint neither redirects nor ends that session", async () => {
    const home = await aProvider();
    const elsewhere = await aProvider();
    const tokens = await tokensFor(home);
    const { redirectTo } = await logOut(elsewhere, {
      id_token_hint: tokens.id_token as string,
      post_logout_redirect_uri: AFTER_LOGOUT,
    });
    expect(redirectTo).toBeNull();
    await expectLive(home, tokens);
  });

  it("another tenant's ID token with this tenant's client_id neither redirects nor ends the other tenant's session", async () => {
    const home = await aProvider();
    const elsewhere = await aProvider();
    const tokens = await tokensFor(home);
    const { redirectTo } = await logOut(elsewhere, {
      id_token_hint: tokens.id_token as string,
      client_id: elsewhere.clientId,
      post_logout_redirect_uri: AFTER_LOGOUT,
    });
    expect(redirectTo).toBeNull();
    await expectLive(home, tokens);
  });

  it('a hint whose client differs from client_id never redirects', async () => {
    const provider = await aProvider();
    const other = await anotherClient(provider, { name: 'Other app' });
    const tokens = await tokensFor(provider);
    const { redirectTo } = await logOut(provider, {
      id_token_hint: tokens.id_token as string,
      client_id: other.clientId,
      post_logout_redirect_uri: AFTER_LOGOUT,
    });
    expect(redirectTo).toBeNull();
  });

  it('no hint and no client: the sign-out page just says signed out', async () => {
    const provider = await aProvider();
    const { redirectTo } = await logOut(provider, { post_logout_redirect_uri: AFTER_LOGOUT, state: 'x' });
    expect(redirectTo).toBeNull();
  });

  it('openid-client builds an end-session URL the provider follows', async () => {
    const provider = await aProvider();
    const tokens = await tokensFor(provider);
    const url = oidc.buildEndSessionUrl(provider.config, {
      id_token_hint: tokens.id_token as string,
      post_logout_redirect_uri: AFTER_LOGOUT,
      state: 's1',
    });
    expect(url.origin).toBe(provider.issuer);
    const { redirectTo } = await logOut(provider, Object.fromEntries(url.searchParams));
    expect(redirectTo).toBe(`${AFTER_LOGOUT}?state=s1`);
  });
});
