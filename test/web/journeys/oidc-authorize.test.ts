import { createHash, randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aTenantWith, aUser, type TestTenant } from '#test/support/auth.ts';
import { expectAccessible, screenshot, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';

/**
 * An OpenID Connect client's sign-in through the tenant's hosted pages (shared/oidc/README.md): the client
 * sends the browser to the issuer's authorize endpoint, the hosted page `/authorize` signs the user in (or asks
 * for consent), and the browser lands on the client's redirect URI: here a loopback server of this test,
 * which records every query it receives.
 */

const web = useWebStack();

/** The client's side: `http://127.0.0.1:<port>/…` (a valid loopback redirect URI), recording what arrives. */
const callbacks: URL[] = [];
let server: Server | undefined;
let clientOrigin = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    callbacks.push(new URL(req.url ?? '/', clientOrigin));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>The client</title><main><h1>Back at the client</h1></main></html>');
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  clientOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

const redirectUri = () => `${clientOrigin}/callback`;
const loggedOutUri = () => `${clientOrigin}/signed-out`;

/** The identity API beside the pages, for the journeys' own setup (as another client would). */
const apiUrl = (tenant: TestTenant) => `${web.origin(tenant).replace(/\/\/[^/]+\.localhost:/, '//localhost:')}/api/v1`;

async function call(tenant: TestTenant, method: string, path: string, token: string | null, body?: unknown) {
  return fetch(`${apiUrl(tenant)}${path}`, {
    method,
    headers: { ...tenant.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

interface RegisteredClient {
  clientId: string;
  name: string;
}

/** A public client registered by the tenant's owner through the admin API (a sign-in within 10 minutes). */
async function registerClient(
  tenant: TestTenant,
  body: { name: string; firstParty: boolean; postLogoutRedirectUris?: string[] },
): Promise<RegisteredClient> {
  const login = await call(tenant, 'POST', '/auth/login', null, {
    email: tenant.adminEmail,
    password: tenant.adminPassword,
  });
  expect(login.status).toBe(200);
  const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;
  const res = await call(tenant, 'POST', '/oidc/clients', accessToken, {
    type: 'public',
    redirectUris: [redirectUri()],
    ...body,
  });
  const created = (await res.json()) as RegisteredClient;
  expect(res.status, JSON.stringify(created)).toBe(201);
  return created;
}

/** An authorization request as a client library sends it: PKCE S256, a state and a nonce of its own. */
function authorization(client: { clientId: string }, extra: Record<string, string> = {}) {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(12).toString('base64url');
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: redirectUri(),
    scope: 'openid email',
    state,
    nonce: randomBytes(12).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...extra,
  };
  // Spaces as %20 (`scope=openid%20email`), as client libraries send them.
  const query = Object.entries(params)
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&');
  return { path: `/api/v1/oidc/authorize?${query}`, state, verifier };
}

/** The browser back at the client: the query its redirect URI received. */
async function landedAtClient(page: Page, path = '/callback'): Promise<URLSearchParams> {
  await page.waitForURL((url) => url.origin === clientOrigin && url.pathname === path);
  return new URL(page.url()).searchParams;
}

/** The tenant's name, as its pages show it beside the logo. */
const tenantName = (page: Page) => page.locator('.brand-name').first().innerText();

async function signInOnThePage(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/**
 * The token endpoint, as a client's back end calls it: a form body on the issuer's host. Node's fetch does
 * not resolve `*.localhost`, so the request goes to loopback with the issuer's Host header.
 */
function postForm(
  tenant: TestTenant,
  path: string,
  form: Record<string, string>,
): Promise<{ status: number; body: any }> {
  const origin = new URL(web.origin(tenant));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: origin.port,
        path: `/api/v1${path}`,
        method: 'POST',
        headers: { host: origin.host, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(new URLSearchParams(form).toString());
  });
}

describe('signing in to an OpenID Connect client on the hosted page', () => {
  it('a first-party client: the page names the client, the login hint is filled in, and the browser lands on the redirect URI with code, state and iss; signed in, a second request goes straight through', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const client = await registerClient(tenant, { name: 'Shop app', firstParty: true });
    const first = authorization(client, { login_hint: user.email });
    const page = await web.open(tenant, first.path);
    await page.getByRole('heading', { name: 'Sign in to continue to Shop app' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/authorize');
    await expect(page.getByLabel('E-mail address').inputValue()).resolves.toBe(user.email);
    await expectAccessible(page);
    await screenshot(page, 'oidc-authorize-sign-in');

    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const answer = await landedAtClient(page);
    expect(answer.get('code')).toEqual(expect.any(String));
    expect(answer.get('state')).toBe(first.state);
    expect(answer.get('iss')).toBe(web.origin(tenant));
    expect(answer.get('error')).toBeNull();

    // The browser's hosted session stands: the next request of the client asks nothing.
    const second = authorization(client);
    await page.goto(`${web.origin(tenant)}${second.path}`);
    const again = await landedAtClient(page);
    expect(again.get('state')).toBe(second.state);
    expect(again.get('code')).toEqual(expect.any(String));
    expect(again.get('code')).not.toBe(answer.get('code'));
  });

  it('a new user signs up from the app’s sign-in (name, address, password, the mailed code) and lands at the app with a code', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD', signupMode: 'OPEN' });
    const client = await registerClient(tenant, { name: 'Shop app', firstParty: true });
    const request = authorization(client);
    const page = await web.open(tenant, request.path);
    await page.getByRole('heading', { name: 'Sign in to continue to Shop app' }).waitFor();
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL((url) => url.pathname === '/sign-up');
    const email = `new-${randomBytes(6).toString('hex')}@shop.test`;
    await page.getByLabel('First name').fill('Fern');
    await page.getByLabel('Last name').fill('Gully');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill('Sprout-leaf-42');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await page.getByLabel('Code from the e-mail').fill(await web.latestCode(email));
    const answer = await landedAtClient(page);
    expect(answer.get('state')).toBe(request.state);
    expect(answer.get('code')).toEqual(expect.any(String));
  });

  it('a user who forgot their password resets it from the app’s sign-in, is signed in with the new one and lands at the app', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const client = await registerClient(tenant, { name: 'Shop app', firstParty: true });
    const request = authorization(client, { login_hint: user.email });
    const page = await web.open(tenant, request.path);
    await page.getByRole('heading', { name: 'Sign in to continue to Shop app' }).waitFor();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('Code from the e-mail').fill(await web.latestCode(user.email));
    await page.getByLabel('New password').fill('Fresh-start-2027');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    const answer = await landedAtClient(page);
    expect(answer.get('state')).toBe(request.state);
    expect(answer.get('code')).toEqual(expect.any(String));
  });

  it('a third-party client asks for consent, every scope named: Allow sends a code; asked again (prompt=consent), Deny sends access_denied', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const client = await registerClient(tenant, { name: 'Plant Pal', firstParty: false });
    const scope = 'openid email roles offline_access';
    const first = authorization(client, { scope });
    const page = await web.open(tenant, first.path);
    await page.getByRole('heading', { name: 'Sign in to continue to Plant Pal' }).waitFor();
    const name = await tenantName(page);
    await signInOnThePage(page, user.email, user.password);

    const consent = page.getByRole('heading', { name: `Allow Plant Pal to use your ${name} account?` });
    await consent.waitFor();
    // The heading takes focus, so that a screen reader starts at the question.
    await expect(consent.evaluate((h) => h === h.ownerDocument.activeElement)).resolves.toBe(true);
    const scopes = page.getByRole('list', { name: 'Plant Pal asks for:' });
    await expect(scopes.getByRole('listitem').allTextContents()).resolves.toEqual([
      'Know who you are (your account id)',
      'Your e-mail address',
      'Your roles (what your account may do here)',
      'Stay signed in when you are away',
    ]);
    await page.getByText(`Signed in as ${user.email}.`).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'oidc-authorize-consent');
    // On a phone too, and with a dark colour scheme asked for: every scope's sentence stays whole and legible.
    await screenshotsOnPhoneAndDark(page, 'oidc-authorize-consent', expectAccessible);

    // By keyboard: Allow is a button reached by Tab and pressed with Enter.
    await page.getByRole('button', { name: 'Not you? Use another account' }).focus();
    await page.keyboard.press('Tab');
    const allow = page.getByRole('button', { name: 'Allow' });
    await expect(allow.evaluate((button) => button === button.ownerDocument.activeElement)).resolves.toBe(true);
    await page.keyboard.press('Enter');
    const allowed = await landedAtClient(page);
    expect(allowed.get('code')).toEqual(expect.any(String));
    expect(allowed.get('state')).toBe(first.state);
    expect(allowed.get('iss')).toBe(web.origin(tenant));

    const second = authorization(client, { prompt: 'consent', scope });
    await page.goto(`${web.origin(tenant)}${second.path}`);
    await consent.waitFor();
    await page.getByRole('button', { name: 'Deny' }).click();
    const denied = await landedAtClient(page);
    expect(denied.get('error')).toBe('access_denied');
    expect(denied.get('state')).toBe(second.state);
    expect(denied.get('code')).toBeNull();
  });

  it('"Not you?" on the consent card signs out and shows the form for another account', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const [user, other] = [await aUser(tenant), await aUser(tenant)];
    const client = await registerClient(tenant, { name: 'Plant Pal', firstParty: false });
    const request = authorization(client);
    const page = await web.open(tenant, request.path);
    await signInOnThePage(page, user.email, user.password);
    await page.getByRole('button', { name: 'Not you? Use another account' }).click();
    await page.getByRole('heading', { name: 'Sign in to continue to Plant Pal' }).waitFor();
    await expect(page.getByLabel('E-mail address').inputValue()).resolves.toBe('');
    await signInOnThePage(page, other.email, other.password);
    await page.getByText(`Signed in as ${other.email}.`).waitFor();
    await page.getByRole('button', { name: 'Allow' }).click();
    const answer = await landedAtClient(page);
    expect(answer.get('state')).toBe(request.state);
    expect(answer.get('code')).toEqual(expect.any(String));
  });

  it('prompt=login with a session asks the signed-in user to confirm it is them, then sends the code', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const client = await registerClient(tenant, { name: 'Shop app', firstParty: true });
    const page = await web.open(tenant, '/sign-in');
    await signInOnThePage(page, user.email, user.password);
    await page.waitForURL(/\/account$/);

    const request = authorization(client, { prompt: 'login' });
    await page.goto(`${web.origin(tenant)}${request.path}`);
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.waitFor();
    await dialog.getByText('Shop app asks you to confirm it is you before going on.').waitFor();
    const password = dialog.getByLabel('Password');
    await expect(password.evaluate((input) => input === input.ownerDocument.activeElement)).resolves.toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'oidc-authorize-reauth');
    await password.fill(user.password);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const answer = await landedAtClient(page);
    expect(answer.get('state')).toBe(request.state);
    expect(answer.get('code')).toEqual(expect.any(String));
  });

  it('prompt=none with a session but no consent shows nothing: the client gets consent_required', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const client = await registerClient(tenant, { name: 'Plant Pal', firstParty: false });
    const page = await web.open(tenant, '/sign-in');
    await signInOnThePage(page, user.email, user.password);
    await page.waitForURL(/\/account$/);
    const request = authorization(client, { prompt: 'none' });
    await page.goto(`${web.origin(tenant)}${request.path}`);
    const answer = await landedAtClient(page);
    expect(answer.get('error')).toBe('consent_required');
    expect(answer.get('state')).toBe(request.state);
    expect(answer.get('code')).toBeNull();
  });

  it('prompt=none without a session shows no form: the client gets login_required', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const client = await registerClient(tenant, { name: 'Shop app', firstParty: true });
    const request = authorization(client, { prompt: 'none' });
    const page = await web.open(tenant, request.path);
    const answer = await landedAtClient(page);
    expect(answer.get('error')).toBe('login_required');
    expect(answer.get('state')).toBe(request.state);
    expect(answer.get('iss')).toBe(web.origin(tenant));
    expect(answer.get('code')).toBeNull();
  });

  it('an unknown client and an unregistered redirect URI are said on the hosted page, and the browser is never sent to the redirect URI', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    // Arrivals at the redirect URI only: a page of an earlier test may still ask the server for its favicon.
    const arrivals = () => callbacks.filter((url) => url.pathname === '/callback').length;
    const before = arrivals();
    const page = await web.open(tenant, authorization({ clientId: 'cli_00000000000000000000' }).path);
    await page.getByRole('heading', { name: 'This sign-in cannot go on' }).waitFor();
    const name = await tenantName(page);
    expect(new URL(page.url()).pathname).toBe('/authorize');
    expect(new URL(page.url()).searchParams.get('error')).toBe('UNKNOWN_CLIENT');
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      `The app that sent you here is not registered with ${name}, so you cannot sign in to it with your ${name} account.`,
    );
    await expect(page.getByRole('link').count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'oidc-authorize-unknown-client');

    const client = await registerClient(tenant, { name: 'Shop app', firstParty: true });
    await page.goto(
      `${web.origin(tenant)}${authorization(client, { redirect_uri: `${clientOrigin}/elsewhere` }).path}`,
    );
    await page.getByText(/asked to send you back to an address it has not registered with/).waitFor();
    expect(new URL(page.url()).searchParams.get('error')).toBe('REDIRECT_URI_MISMATCH');
    expect(arrivals()).toBe(before);
  });
});

describe('the hosted page speaks for itself', () => {
  it('each refusal of the authorize endpoint is a sentence, an unknown one too', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const page = await web.open(tenant, '/authorize?error=INVALID_REQUEST');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const name = await tenantName(page);
    await expect(alert.textContent()).resolves.toMatch(
      new RegExp(`^The app that sent you here made a sign-in request that ${name} cannot accept\\.`),
    );
    await expectAccessible(page);
    await screenshot(page, 'oidc-authorize-invalid-request');
    await page.goto(`${web.origin(tenant)}/authorize?error=REDIRECT_URI_MISMATCH`);
    await expect(alert.textContent()).resolves.toBe(
      `The app that sent you here asked to send you back to an address it has not registered with ${name}. For your safety, you are not sent there.`,
    );
    await page.goto(`${web.origin(tenant)}/authorize?error=SOMETHING_NEW`);
    await expect(alert.textContent()).resolves.toBe(
      'This sign-in request cannot be used. Go back to the app and start again.',
    );
  });

  it('an expired or used request says so', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const page = await web.open(tenant, '/authorize?request=areq_gone');
    await page.getByRole('heading', { name: 'This sign-in has expired' }).waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'This sign-in link has expired or was already used. Go back to the app and start again.',
    );
    await expectAccessible(page);
    await screenshot(page, 'oidc-authorize-expired');
  });

  it('an unknown logout still signs the browser out, and says so', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const page = await web.open(tenant, '/sign-in');
    await signInOnThePage(page, user.email, user.password);
    await page.waitForURL(/\/account$/);
    await page.goto(`${web.origin(tenant)}/sign-out?logout=lo_gone`);
    await page.getByText('You are signed out.').waitFor();
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'oidc-sign-out');
    await page.getByRole('link', { name: 'Sign in again' }).click();
    await page.getByRole('heading', { name: `Sign in to ${await tenantName(page)}` }).waitFor();
    await page.goto(`${web.origin(tenant)}/account`);
    await page.waitForURL(/\/sign-in\?next=/);
  });
});

describe('signing out of an OpenID Connect client', () => {
  it('the client session is on the account page under the client’s name; end-session signs the browser out and returns to the post-logout URI with its state', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const client = await registerClient(tenant, {
      name: 'Shop app',
      firstParty: true,
      postLogoutRedirectUris: [loggedOutUri()],
    });
    const request = authorization(client);
    const page = await web.open(tenant, request.path);
    await signInOnThePage(page, user.email, user.password);
    const answer = await landedAtClient(page);

    // The client's back end redeems the code: its session starts, and it holds an ID token for the logout.
    const tokens = await postForm(tenant, '/oidc/token', {
      grant_type: 'authorization_code',
      code: answer.get('code') ?? '',
      redirect_uri: redirectUri(),
      client_id: client.clientId,
      code_verifier: request.verifier,
    });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    const idToken = tokens.body.id_token as string;

    await page.goto(`${web.origin(tenant)}/account`);
    const sessions = page.locator('#sessions');
    await sessions.getByText('Shop app (an app you signed in to with this account)').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'oidc-account-sessions');

    const state = randomBytes(8).toString('base64url');
    const logout = new URLSearchParams({
      id_token_hint: idToken,
      client_id: client.clientId,
      post_logout_redirect_uri: loggedOutUri(),
      state,
    });
    await page.goto(`${web.origin(tenant)}/api/v1/oidc/end-session?${logout}`);
    const back = await landedAtClient(page, '/signed-out');
    expect(back.get('state')).toBe(state);

    // The hosted pages' session ended too.
    await page.goto(`${web.origin(tenant)}/account`);
    await page.waitForURL(/\/sign-in\?next=/);
  });

  it('without a post-logout URI, the page says the user is signed out, with a way to sign in', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const client = await registerClient(tenant, { name: 'Shop app', firstParty: true });
    const request = authorization(client);
    const page = await web.open(tenant, request.path);
    await signInOnThePage(page, user.email, user.password);
    const answer = await landedAtClient(page);
    const tokens = await postForm(tenant, '/oidc/token', {
      grant_type: 'authorization_code',
      code: answer.get('code') ?? '',
      redirect_uri: redirectUri(),
      client_id: client.clientId,
      code_verifier: request.verifier,
    });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);

    const logout = new URLSearchParams({ id_token_hint: tokens.body.id_token, client_id: client.clientId });
    await page.goto(`${web.origin(tenant)}/api/v1/oidc/end-session?${logout}`);
    await page.waitForURL((url) => url.pathname === '/sign-out');
    await page.getByText('You are signed out.').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'oidc-sign-out-done');
    await expect(page.getByRole('link', { name: 'Sign in again' }).getAttribute('href')).resolves.toBe('/sign-in');
    await page.goto(`${web.origin(tenant)}/account`);
    await page.waitForURL(/\/sign-in\?next=/);
  });
});

describe('the hosted page in German', () => {
  it('a browser in German signs in to an app, is asked for consent and to confirm it is them, all in German', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const client = await registerClient(tenant, { name: 'Plant Pal', firstParty: false });
    const first = authorization(client, { scope: 'openid email roles offline_access' });
    const page = await web.open(tenant, first.path, { locale: 'de-DE' });
    await page.getByRole('heading', { name: 'Anmelden, um zu Plant Pal zu gelangen' }).waitFor();
    const name = await tenantName(page);
    await page.getByLabel('E-Mail-Adresse').fill(user.email);
    await page.getByLabel('Passwort', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click();

    await page.getByRole('heading', { name: `Darf Plant Pal Ihr Konto bei ${name} verwenden?` }).waitFor();
    // The heading names the service; the tab names it once, after the page.
    await expect(page.title()).resolves.toBe(`Darf Plant Pal Ihr Konto verwenden? · ${name}`);
    const scopes = page.getByRole('list', { name: 'Plant Pal möchte:' });
    await expect(scopes.getByRole('listitem').allTextContents()).resolves.toEqual([
      'Wissen, wer Sie sind (Ihre Konto-ID)',
      'Ihre E-Mail-Adresse',
      'Ihre Rollen (was Ihr Konto hier darf)',
      'Angemeldet bleiben, während Sie nicht da sind',
    ]);
    await page.getByText(`Angemeldet als ${user.email}.`).waitFor();
    await expect(page.getByRole('button', { name: 'Nicht Sie? Anderes Konto verwenden' }).count()).resolves.toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'de-oidc-authorize-consent');
    await screenshotsOnPhoneAndDark(page, 'de-oidc-authorize-consent', expectAccessible);
    await page.getByRole('button', { name: 'Erlauben' }).click();
    expect((await landedAtClient(page)).get('state')).toBe(first.state);

    const again = authorization(client, { prompt: 'login', scope: 'openid email roles offline_access' });
    await page.goto(`${web.origin(tenant)}${again.path}`);
    const dialog = page.getByRole('dialog', { name: 'Bestätigen Sie, dass Sie es sind' });
    await dialog.waitFor();
    await dialog.getByText('Plant Pal bittet Sie zu bestätigen, dass Sie es sind, bevor es weitergeht.').waitFor();
    await dialog.getByLabel('Passwort', { exact: true }).fill('nicht-das-Passwort-1');
    await dialog.getByRole('button', { name: 'Bestätigen', exact: true }).click();
    await expect(dialog.getByRole('alert').textContent()).resolves.toBe('Dieses Passwort stimmt nicht.');
    await expectAccessible(page);
    await screenshot(page, 'de-oidc-authorize-reauth');
    await screenshotsOnPhoneAndDark(page, 'de-oidc-authorize-reauth', expectAccessible);
    await dialog.getByLabel('Passwort', { exact: true }).fill(user.password);
    await dialog.getByRole('button', { name: 'Bestätigen', exact: true }).click();
    expect((await landedAtClient(page)).get('state')).toBe(again.state);
  });
});
