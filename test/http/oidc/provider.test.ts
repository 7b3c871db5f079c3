import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { aTenantWith, type TestTenant } from '#test/support/auth.ts';
import { bearer, identityApi, post } from '#test/support/http.ts';
import { authorizeAs, issuerOf, localhostFetch, registerClient, visit } from '#test/support/oidc.ts';
import { useLocalStack } from '#test/support/server.ts';

/**
 * The OpenID Provider through a real relying-party library, openid-client, against the local stack: the
 * code flow with PKCE and nonce, refresh, userinfo, revocation and logout. The sign-in page's part (a
 * signed-in user completing the request) is driven through the API here; test/web/journeys drive the page.
 */

const api = useLocalStack();
const { logIn } = identityApi(() => api.url);

const CALLBACK = 'http://127.0.0.1:50123/callback';
const AFTER_LOGOUT = 'http://127.0.0.1:50123/signed-out';

interface Setup {
  tenant: TestTenant;
  config: oidc.Configuration;
  clientId: string;
  /** The admin's API access token (a signed-in user of the tenant). */
  userToken: string;
}

async function aProvider(client: Record<string, unknown> = {}): Promise<Setup> {
  const tenant = await aTenantWith();
  const admin = await logIn(tenant, tenant.adminEmail, tenant.adminPassword);
  const registered = await registerClient(
    api.url,
    { headers: bearer(tenant, admin.accessToken) },
    {
      name: 'Shop web',
      type: 'confidential',
      redirectUris: [CALLBACK],
      postLogoutRedirectUris: [AFTER_LOGOUT],
      firstParty: true,
      ...client,
    },
  );
  const issuer = new URL(issuerOf(api.stack, tenant));
  const config = await oidc.discovery(
    issuer,
    registered.clientId,
    undefined,
    registered.clientSecret ? oidc.ClientSecretBasic(registered.clientSecret) : oidc.None(),
    { execute: [oidc.allowInsecureRequests], [oidc.customFetch]: localhostFetch },
  );
  return { tenant, config, clientId: registered.clientId, userToken: admin.accessToken };
}

/**
 * The whole front channel: an authorization URL from the library, the user completing it, the callback URL. By
 * default the scopes of a client that shows the user's roles and stays signed in.
 */
async function signIn(setup: Setup, extra: Record<string, string> = {}) {
  const verifier = oidc.randomPKCECodeVerifier();
  const nonce = oidc.randomNonce();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(setup.config, {
    redirect_uri: CALLBACK,
    scope: 'openid email profile roles offline_access',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    nonce,
    state,
    ...extra,
  });
  const done = await authorizeAs(api.url, setup.tenant, setup.userToken, url);
  expect(done.status, JSON.stringify(done.problem)).toBe(200);
  return { callback: done.redirectTo as URL, verifier, nonce, state };
}

describe('openid-client: the code flow with PKCE and nonce', () => {
  it('discovers the issuer, signs in, and gets an ID token with the user, nonce, amr and auth_time', async () => {
    const setup = await aProvider();
    const { callback, verifier, nonce, state } = await signIn(setup);
    expect(callback.origin + callback.pathname).toBe(CALLBACK);
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('iss')).toBe(issuerOf(api.stack, setup.tenant));

    const tokens = await oidc.authorizationCodeGrant(setup.config, callback, {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: state,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    expect(claims).toMatchObject({
      iss: issuerOf(api.stack, setup.tenant),
      sub: setup.tenant.adminUserId,
      aud: setup.clientId,
      nonce,
      amr: ['pwd'],
      email: setup.tenant.adminEmail,
      email_verified: true,
      roles: ['DEFAULT', 'SUPER_ADMIN'],
    });
    expect(claims?.auth_time).toEqual(expect.any(Number));
    expect(claims?.sid).toEqual(expect.stringMatching(/^ses_/));
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.refresh_token).toEqual(expect.stringMatching(/^rt2\./));
  });

  it('releases roles only for the scope roles, and a refresh token only for offline_access, whatever the client’s grants', async () => {
    const setup = await aProvider();
    const { callback, verifier, nonce, state } = await signIn(setup, { scope: 'openid email' });
    const tokens = await oidc.authorizationCodeGrant(setup.config, callback, {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: state,
    });
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'openid']);
    expect(tokens.claims()).not.toHaveProperty('roles');
    const accessClaims = JSON.parse(Buffer.from(tokens.access_token.split('.')[1] ?? '', 'base64url').toString());
    expect(accessClaims).toMatchObject({ scope: 'openid email', sid: expect.stringMatching(/^ses_/) });
    expect(accessClaims).not.toHaveProperty('roles');
    const sub = tokens.claims()?.sub as string;
    await expect(oidc.fetchUserInfo(setup.config, tokens.access_token, sub)).resolves.toEqual({
      sub,
      email: setup.tenant.adminEmail,
      email_verified: true,
    });

    // Asked for, the same user's roles are in all three.
    const withRoles = await signIn(setup, { scope: 'openid roles' });
    const granted = await oidc.authorizationCodeGrant(setup.config, withRoles.callback, {
      pkceCodeVerifier: withRoles.verifier,
      expectedNonce: withRoles.nonce,
      expectedState: withRoles.state,
    });
    expect(granted.refresh_token).toBeUndefined();
    expect(granted.claims()?.roles).toEqual(['DEFAULT', 'SUPER_ADMIN']);
    const grantedAccess = JSON.parse(Buffer.from(granted.access_token.split('.')[1] ?? '', 'base64url').toString());
    expect(grantedAccess.roles).toEqual(['DEFAULT', 'SUPER_ADMIN']);
    await expect(oidc.fetchUserInfo(setup.config, granted.access_token, sub)).resolves.toEqual({
      sub,
      roles: ['DEFAULT', 'SUPER_ADMIN'],
    });
  });

  it('refreshes (a new refresh token, the same auth_time), reads userinfo, revokes, and userinfo then refuses', async () => {
    const setup = await aProvider();
    const { callback, verifier, nonce, state } = await signIn(setup);
    const first = await oidc.authorizationCodeGrant(setup.config, callback, {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: state,
    });
    const sub = first.claims()?.sub as string;

    const refreshed = await oidc.refreshTokenGrant(setup.config, first.refresh_token as string);
    expect(refreshed.refresh_token).not.toBe(first.refresh_token);
    expect(refreshed.claims()?.auth_time).toBe(first.claims()?.auth_time);
    expect(refreshed.claims()?.nonce).toBeUndefined();

    const info = await oidc.fetchUserInfo(setup.config, refreshed.access_token, sub);
    expect(info).toEqual({
      sub,
      email: setup.tenant.adminEmail,
      email_verified: true,
      roles: ['DEFAULT', 'SUPER_ADMIN'],
    });

    await oidc.tokenRevocation(setup.config, refreshed.refresh_token as string);
    await expect(oidc.fetchUserInfo(setup.config, refreshed.access_token, sub)).rejects.toMatchObject({
      status: 401,
    });
    await expect(oidc.refreshTokenGrant(setup.config, refreshed.refresh_token as string)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('logs out: the end-session URL ends the client session and the sign-out page returns to the registered URI', async () => {
    const setup = await aProvider();
    const { callback, verifier, nonce, state } = await signIn(setup);
    const tokens = await oidc.authorizationCodeGrant(setup.config, callback, {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: state,
    });
    const logout = oidc.buildEndSessionUrl(setup.config, {
      id_token_hint: tokens.id_token as string,
      post_logout_redirect_uri: AFTER_LOGOUT,
      state: 'bye-123',
    });
    const page = await visit(logout);
    expect(page.status).toBe(302);
    expect(page.location?.origin).toBe(issuerOf(api.stack, setup.tenant));
    expect(page.location?.pathname).toBe('/sign-out');
    const logoutId = page.location?.searchParams.get('logout');
    const next = await post(`${api.url}/oidc/logout-requests/${logoutId}/complete`, {}, setup.tenant.headers);
    expect(next.status, next.text).toBe(200);
    expect(next.body).toEqual({ redirectTo: `${AFTER_LOGOUT}?state=bye-123` });

    await expect(
      oidc.fetchUserInfo(setup.config, tokens.access_token, tokens.claims()?.sub as string),
    ).rejects.toMatchObject({ status: 401 });
    await expect(oidc.refreshTokenGrant(setup.config, tokens.refresh_token as string)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('a public client (no secret) uses PKCE alone', async () => {
    const setup = await aProvider({ type: 'public', redirectUris: [CALLBACK] });
    const { callback, verifier, nonce, state } = await signIn(setup);
    const tokens = await oidc.authorizationCodeGrant(setup.config, callback, {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: state,
    });
    expect(tokens.claims()?.aud).toBe(setup.clientId);
  });

  it('an RS256 client gets RS256 ID and access tokens, verified by the library against the JWKS', async () => {
    const setup = await aProvider({ idTokenSigningAlg: 'RS256' });
    const { callback, verifier, nonce, state } = await signIn(setup);
    const tokens = await oidc.authorizationCodeGrant(setup.config, callback, {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: state,
    });
    const header = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[0] as string, 'base64url').toString());
    expect(header(tokens.id_token as string)).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    expect(header(tokens.access_token)).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
  });

  it('client_credentials: a confidential client gets a token for itself', async () => {
    const setup = await aProvider({ grantTypes: ['authorization_code', 'client_credentials'] });
    const tokens = await oidc.clientCredentialsGrant(setup.config);
    const claims = JSON.parse(Buffer.from(tokens.access_token.split('.')[1] as string, 'base64url').toString());
    expect(claims).toMatchObject({ sub: setup.clientId, client_id: setup.clientId, aud: setup.clientId });
    expect(claims.sid).toBeUndefined();
    expect(tokens.refresh_token).toBeUndefined();
  });
});
