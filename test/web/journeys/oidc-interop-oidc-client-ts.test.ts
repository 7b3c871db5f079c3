import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import type { UserManagerSettings } from 'oidc-client-ts';
import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import {
  landedAt,
  openFreshAt,
  registerClientAsOwner,
  signInWithPassword,
  useLoopbackClient,
} from '../support/oidc-interop.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';

/**
 * oidc-client-ts in Chromium, as a single-page app and a public client: a page served by the test's loopback
 * server (http://127.0.0.1:<port>) loads the library's own browser bundle from node_modules (no CDN), its
 * UserManager sends the browser to the issuer, the user signs in on the hosted page, and the SPA's callback
 * page redeems the code at the token endpoint (cross-origin, PKCE, no secret) and calls userinfo from its own
 * origin: the provider's protocol endpoints answer CORS `*`.
 */

const web = useWebStack();

const SPA_FILES = resolve(import.meta.dirname, '../support/oidc-spa');
const BUNDLE = resolve(
  dirname(createRequire(import.meta.url).resolve('oidc-client-ts/package.json')),
  'dist/browser/oidc-client-ts.js',
);
const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: resolve(SPA_FILES, 'index.html'), type: 'text/html; charset=utf-8' },
  '/callback.html': { file: resolve(SPA_FILES, 'callback.html'), type: 'text/html; charset=utf-8' },
  '/app.js': { file: resolve(SPA_FILES, 'app.js'), type: 'text/javascript; charset=utf-8' },
  '/callback.js': { file: resolve(SPA_FILES, 'callback.js'), type: 'text/javascript; charset=utf-8' },
  '/signed-out.html': { file: resolve(SPA_FILES, 'signed-out.html'), type: 'text/html; charset=utf-8' },
  '/signed-out.js': { file: resolve(SPA_FILES, 'signed-out.js'), type: 'text/javascript; charset=utf-8' },
  '/oidc-client-ts.js': { file: BUNDLE, type: 'text/javascript; charset=utf-8' },
};

/** The UserManager's settings for the journey running now, served as /config.js. */
let settings: UserManagerSettings | undefined;

const spa = useLoopbackClient((_req, res, url) => {
  if (url.pathname === '/config.js') {
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`window.SPA_CONFIG = ${JSON.stringify(settings)};\n`);
    return true;
  }
  const served = FILES[url.pathname];
  if (!served) return false;
  res.writeHead(200, { 'content-type': served.type, 'cache-control': 'no-store' });
  res.end(readFileSync(served.file));
  return true;
});

describe('oidc-client-ts in the browser, a public client', () => {
  it('signinRedirect to the hosted sign-in page, signinRedirectCallback back in the SPA with the user, userinfo called from the SPA origin, signinSilent with the refresh token, then signoutRedirect back to the SPA', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const redirectUri = `${spa.origin}/callback.html`;
    const signedOutUri = `${spa.origin}/signed-out.html`;
    const client = await registerClientAsOwner(web, tenant, {
      name: 'Plant Pal',
      type: 'public',
      redirectUris: [redirectUri],
      postLogoutRedirectUris: [signedOutUri],
      firstParty: true,
    });
    expect(client.clientSecret).toBeNull();
    const issuer = web.origin(tenant);
    settings = {
      authority: issuer,
      client_id: client.clientId,
      redirect_uri: redirectUri,
      // signinSilent renews with a refresh token, which the provider issues for offline_access only.
      scope: 'openid email profile offline_access',
      response_type: 'code',
      post_logout_redirect_uri: signedOutUri,
    };

    const page = await openFreshAt(web, tenant, `${spa.origin}/`);
    // What the library sends to the authorize endpoint.
    const authorizeRequests: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === issuer && url.pathname === '/api/v1/oidc/authorize') authorizeRequests.push(url);
    });
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in to continue to Plant Pal' }).waitFor();
    expect(new URL(page.url()).origin).toBe(issuer);
    await expectAccessible(page);
    await screenshot(page, 'oidc-interop-oidc-client-ts-sign-in');

    expect(authorizeRequests).toHaveLength(1);
    const sent = authorizeRequests[0]?.searchParams;
    expect(sent?.get('client_id')).toBe(client.clientId);
    expect(sent?.get('redirect_uri')).toBe(redirectUri);
    expect(sent?.get('response_type')).toBe('code');
    expect(sent?.get('code_challenge_method')).toBe('S256');
    expect(sent?.get('state')).toEqual(expect.any(String));

    await signInWithPassword(page, user);
    const callback = await landedAt(page, spa.origin, '/callback.html');
    expect(callback.searchParams.get('iss')).toBe(issuer);
    await page
      .getByRole('status')
      .filter({ hasText: /^(Signed in as|Sign-in failed)/ })
      .waitFor();
    await expect(page.locator('#error').textContent()).resolves.toBe('');
    await expect(page.locator('#sub').textContent()).resolves.toBe(user.id);
    await expect(page.locator('#email').textContent()).resolves.toBe(user.email);
    await expect(page.locator('#iss').textContent()).resolves.toBe(issuer);
    await expect(page.locator('#access-token').textContent()).resolves.toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
    await expect(page.locator('#userinfo-status').textContent()).resolves.toBe('200');
    expect(JSON.parse((await page.locator('#userinfo').textContent()) ?? '')).toMatchObject({
      sub: user.id,
      email: user.email,
      email_verified: true,
    });
    await screenshot(page, 'oidc-interop-oidc-client-ts-callback');

    // Signed in to the hosted pages now: the SPA's next sign-in goes straight through, no form.
    await page.goto(`${spa.origin}/`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await landedAt(page, spa.origin, '/callback.html');
    await page
      .getByRole('status')
      .filter({ hasText: /^(Signed in as|Sign-in failed)/ })
      .waitFor();
    await expect(page.locator('#error').textContent()).resolves.toBe('');
    await expect(page.locator('#sub').textContent()).resolves.toBe(user.id);
    expect(authorizeRequests).toHaveLength(2);
    const firstAccessToken = (await page.locator('#access-token').textContent()) as string;

    // signinSilent with the stored refresh token: a public client's refresh_token grant, from the SPA's origin.
    await expect(page.locator('#has-refresh-token').textContent()).resolves.toBe('yes');
    await page.getByRole('button', { name: 'Renew' }).click();
    const renewed = page.locator('#renewed-access-token');
    await renewed
      .filter({ hasText: /^ey/ })
      .or(page.locator('#error').filter({ hasText: /./ }))
      .waitFor();
    await expect(page.locator('#error').textContent()).resolves.toBe('');
    const accessToken = (await renewed.textContent()) as string;
    expect(accessToken).not.toBe(firstAccessToken);

    // signoutRedirect: the end-session endpoint ends the client's session and the hosted sign-out page sends
    // the browser back to the SPA, whose signoutRedirectCallback finds the state it sent.
    await page.getByRole('button', { name: 'Sign out' }).click();
    const back = await landedAt(page, spa.origin, '/signed-out.html');
    expect(back.searchParams.get('state')).toEqual(expect.any(String));
    await page
      .getByRole('status')
      .filter({ hasText: /^(Signed out|Sign-out failed)$/ })
      .waitFor();
    await expect(page.locator('#error').textContent()).resolves.toBe('');
    await expect(page.locator('#user').textContent()).resolves.toBe('No user stored');
    await expect(page.locator('#carried').textContent()).resolves.toBe('back-to-the-garden');
    await screenshot(page, 'oidc-interop-oidc-client-ts-signed-out');

    // The client's session ended: its access token no longer reads userinfo, even from the SPA's origin.
    const refused = await page.evaluate(
      async ({ endpoint, token }) => (await fetch(endpoint, { headers: { authorization: `Bearer ${token}` } })).status,
      { endpoint: `${issuer}/api/v1/oidc/userinfo`, token: accessToken },
    );
    expect(refused).toBe(401);
    // And the hosted pages signed out: the account page asks to sign in.
    await page.goto(`${issuer}/account`);
    await page.waitForURL(/\/sign-in\?next=/);
  });
});
