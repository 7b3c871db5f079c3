import * as oidc from 'openid-client';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser, type TestTenant, type TestUser } from '#test/support/auth.ts';
import { localhostFetch } from '#test/support/oidc.ts';
import {
  landedAt,
  registerClientAsOwner,
  signInWithPassword,
  useLoopbackClient,
  verifyWithTotp,
} from '../support/oidc-interop.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';

/**
 * openid-client (a confidential client's back end, in Node) with the tenant's real hosted sign-in page (in
 * Chromium): the library builds the authorization URL (PKCE S256, state, nonce), the browser signs in on the
 * page and lands on the client's loopback redirect URI, and the library redeems the code, refreshes, reads
 * userinfo, revokes, and logs the browser out through the end-session endpoint.
 */

const web = useWebStack();
const client = useLoopbackClient();
const callbackUri = () => `${client.origin}/callback`;
const signedOutUri = () => `${client.origin}/signed-out`;

interface Relying {
  tenant: TestTenant;
  user: TestUser;
  issuer: string;
  clientId: string;
  config: oidc.Configuration;
}

async function aRelyingParty(options: { firstParty: boolean; totp?: boolean }): Promise<Relying> {
  const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
  const user = await aUser(tenant, { totp: options.totp ?? false });
  const registered = await registerClientAsOwner(web, tenant, {
    name: 'Shop back office',
    type: 'confidential',
    redirectUris: [callbackUri()],
    postLogoutRedirectUris: [signedOutUri()],
    firstParty: options.firstParty,
  });
  expect(registered.clientSecret).toEqual(expect.any(String));
  const issuer = web.origin(tenant);
  const config = await oidc.discovery(
    new URL(issuer),
    registered.clientId,
    undefined,
    oidc.ClientSecretBasic(registered.clientSecret as string),
    { execute: [oidc.allowInsecureRequests], [oidc.customFetch]: localhostFetch },
  );
  return { tenant, user, issuer, clientId: registered.clientId, config };
}

/** The library's authorization URL, opened in a fresh browser context: the hosted sign-in page for the client. */
async function startSignIn(rp: Relying, options: { page?: Page; expectForm?: boolean } = {}) {
  const verifier = oidc.randomPKCECodeVerifier();
  const nonce = oidc.randomNonce();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(rp.config, {
    redirect_uri: callbackUri(),
    // A client that stays signed in asks for a refresh token.
    scope: 'openid email profile offline_access',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    nonce,
    state,
  });
  expect(url.origin).toBe(rp.issuer);
  let page = options.page;
  if (page) await page.goto(String(url));
  else page = await web.open(rp.tenant, `${url.pathname}${url.search}`);
  if (options.expectForm ?? true) {
    await page.getByRole('heading', { name: 'Sign in to continue to Shop back office' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/authorize');
  }
  return { page, verifier, nonce, state };
}

/** The back end's part once the browser is back: the code for tokens, checked by the library. */
async function redeem(rp: Relying, page: Page, checks: { verifier: string; nonce: string; state: string }) {
  const callback = await landedAt(page, client.origin, '/callback');
  expect(callback.searchParams.get('iss')).toBe(rp.issuer);
  // The URL the loopback server itself received (what a real back end gets), not only what the browser shows.
  expect(client.received.map(String)).toContain(String(callback));
  return oidc.authorizationCodeGrant(rp.config, callback, {
    pkceCodeVerifier: checks.verifier,
    expectedNonce: checks.nonce,
    expectedState: checks.state,
    idTokenExpected: true,
  });
}

describe('openid-client with the hosted sign-in page', () => {
  it('a first-party client: password sign-in, the code redeemed with PKCE, refresh, userinfo, a second sign-in without the form, revocation of that session, and logout back to the client', async () => {
    const rp = await aRelyingParty({ firstParty: true });
    const { page, ...checks } = await startSignIn(rp);
    await expectAccessible(page);
    await screenshot(page, 'oidc-interop-openid-client-sign-in');
    await signInWithPassword(page, rp.user);

    const tokens = await redeem(rp, page, checks);
    const claims = tokens.claims();
    expect(claims).toMatchObject({
      iss: rp.issuer,
      sub: rp.user.id,
      aud: rp.clientId,
      nonce: checks.nonce,
      amr: ['pwd'],
      email: rp.user.email,
      email_verified: true,
      name: 'Test User',
      given_name: 'Test',
      family_name: 'User',
    });
    expect(claims?.auth_time).toEqual(expect.any(Number));
    expect(tokens.refresh_token).toEqual(expect.any(String));

    const refreshed = await oidc.refreshTokenGrant(rp.config, tokens.refresh_token as string);
    expect(refreshed.refresh_token).toEqual(expect.any(String));
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.claims()).toMatchObject({ iss: rp.issuer, sub: rp.user.id, aud: rp.clientId });

    const info = await oidc.fetchUserInfo(rp.config, refreshed.access_token, rp.user.id);
    expect(info).toMatchObject({
      sub: rp.user.id,
      email: rp.user.email,
      email_verified: true,
      given_name: 'Test',
      family_name: 'User',
    });

    // Signed in to the hosted pages now: the library's next authorization goes straight back, no form, and its
    // code starts a second session of the client (another sid).
    const again = await startSignIn(rp, { page, expectForm: false });
    const second = await redeem(rp, again.page, again);
    expect(second.claims()).toMatchObject({ iss: rp.issuer, sub: rp.user.id, nonce: again.nonce, amr: ['pwd'] });
    expect(second.claims()?.sid).not.toBe(claims?.sid);

    // Revoking the second session's refresh token ends that session only: its tokens die, the first one's live.
    await oidc.tokenRevocation(rp.config, second.refresh_token as string);
    await expect(oidc.refreshTokenGrant(rp.config, second.refresh_token as string)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(oidc.fetchUserInfo(rp.config, second.access_token, rp.user.id)).rejects.toMatchObject({
      status: 401,
    });
    await expect(oidc.fetchUserInfo(rp.config, refreshed.access_token, rp.user.id)).resolves.toMatchObject({
      sub: rp.user.id,
    });

    // RP-initiated logout in the browser, with the first ID token as the hint: the hosted sign-out page, then
    // back at the client with the state; the first session ends (its rotated tokens too).
    const logout = oidc.buildEndSessionUrl(rp.config, {
      id_token_hint: tokens.id_token as string,
      post_logout_redirect_uri: signedOutUri(),
      state: 'bye-after-openid-client',
    });
    expect(logout.origin).toBe(rp.issuer);
    await page.goto(String(logout));
    const back = await landedAt(page, client.origin, '/signed-out');
    expect(back.searchParams.get('state')).toBe('bye-after-openid-client');
    await expect(oidc.fetchUserInfo(rp.config, refreshed.access_token, rp.user.id)).rejects.toMatchObject({
      status: 401,
    });
    await expect(oidc.refreshTokenGrant(rp.config, refreshed.refresh_token as string)).rejects.toMatchObject({
      error: 'invalid_grant',
    });

    // The hosted pages signed out too: the account page asks to sign in.
    await page.goto(`${rp.issuer}/account`);
    await page.waitForURL(/\/sign-in\?next=/);
    await page.getByLabel('E-mail address').waitFor();
    await expectAccessible(page);
  });

  it('a user with TOTP: password, then the authenticator code; the ID token says pwd, otp and mfa', async () => {
    const rp = await aRelyingParty({ firstParty: true, totp: true });
    const { page, ...checks } = await startSignIn(rp);
    await signInWithPassword(page, rp.user);
    await verifyWithTotp(page, rp.user, async () => {
      await expectAccessible(page);
      await screenshot(page, 'oidc-interop-openid-client-totp');
    });

    const tokens = await redeem(rp, page, checks);
    expect(tokens.claims()).toMatchObject({
      iss: rp.issuer,
      sub: rp.user.id,
      aud: rp.clientId,
      nonce: checks.nonce,
      amr: ['pwd', 'otp', 'mfa'],
      email: rp.user.email,
    });
    const info = await oidc.fetchUserInfo(rp.config, tokens.access_token, rp.user.id);
    expect(info).toMatchObject({ sub: rp.user.id, email: rp.user.email });
  });

  it('a third-party client: the consent page names it and what it asks; Allow sends the code the library redeems', async () => {
    const rp = await aRelyingParty({ firstParty: false });
    const { page, ...checks } = await startSignIn(rp);
    await signInWithPassword(page, rp.user);
    const consent = page.getByRole('heading', { name: /^Allow Shop back office to use your .* account\?$/ });
    await consent.waitFor();
    await expect(
      page.getByRole('list', { name: 'Shop back office asks for:' }).getByRole('listitem').allTextContents(),
    ).resolves.toEqual([
      'Know who you are (your account id)',
      'Your name',
      'Your e-mail address',
      'Stay signed in when you are away',
    ]);
    await expectAccessible(page);
    await screenshot(page, 'oidc-interop-openid-client-consent');
    await page.getByRole('button', { name: 'Allow' }).click();

    const tokens = await redeem(rp, page, checks);
    expect(tokens.claims()).toMatchObject({
      iss: rp.issuer,
      sub: rp.user.id,
      aud: rp.clientId,
      azp: rp.clientId,
      nonce: checks.nonce,
      amr: ['pwd'],
      email: rp.user.email,
    });
  });
});
