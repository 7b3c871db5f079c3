import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCodeAt } from '#shared/auth/totp.ts';
import { aTenantWith, aUser, type TestTenant } from '#test/support/auth.ts';
import {
  ADA,
  aDemoIdProvider,
  CHARLES,
  continueAtDemoId,
  forgetDemoIdSession,
  useDemoId,
} from '../support/sign-in-providers.ts';
import { expectAccessible, screenshot, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';
import { ageSignIns } from './account-steps.ts';

/**
 * Signing in with a provider in Chromium: "Demo ID", a real OpenID Provider on loopback, is the tenant's provider of
 * kind OIDC. A new account made by it; an account with a password and TOTP that must be signed in to once to link
 * it, then signs in with it (its TOTP step still asked); linked and unlinked on the account page; an app's sign-in
 * (the tenant as an OpenID Provider) going through it; and an address it has not verified, refused.
 */

const web = useWebStack();
const demo = useDemoId();

const providersRegion = (page: Page) => page.getByRole('region', { name: 'Sign-in providers', exact: true });

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL(/\/sign-in/);
}

async function landedOnAccount(page: Page) {
  await page.waitForURL((url) => url.pathname === '/account');
  await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
}

/** Presses "Sign in with Demo ID" and picks `account` at Demo ID, which asks afresh. */
async function signInWithDemoId(page: Page, account = ADA, button = 'Sign in with Demo ID') {
  await forgetDemoIdSession(page, demo.upstream);
  await page.getByRole('button', { name: button, exact: true }).click();
  await continueAtDemoId(page, demo.upstream, account);
}

describe('signing in with a provider', () => {
  it('makes a new account: Sign in with Demo ID, Continue as Ada, signed in on the account page, which lists Demo ID; Sign up with Demo ID signs her in again', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD', signupMode: 'OPEN' });
    await aDemoIdProvider(web, tenant, demo.upstream);
    const page = await web.open(tenant, '/sign-in');
    await page.getByRole('button', { name: 'Sign in with Demo ID', exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'sign-in-providers');
    await screenshotsOnPhoneAndDark(page, 'sign-in-providers', expectAccessible);

    await signInWithDemoId(page);
    await landedOnAccount(page);
    // The provider's parameters are gone from the address bar: a reload would not present a used result again.
    expect(new URL(page.url()).search).toBe('');
    await page.getByText(`Signed in as ${ADA.email}`).waitFor();

    const region = providersRegion(page);
    await region.getByRole('cell', { name: 'Demo ID', exact: true }).waitFor();
    await region.getByRole('cell', { name: ADA.email, exact: true }).waitFor();
    await expect.poll(() => region.getByRole('row').count()).toBe(2);
    await expectAccessible(page);
    await region.scrollIntoViewIfNeeded();
    await screenshot(page, 'account-providers-new-account');
    // The profile has the names Demo ID gave.
    await expect(page.getByLabel('First name').inputValue()).resolves.toBe('Ada');
    await expect(page.getByLabel('Last name').inputValue()).resolves.toBe('Lovelace');

    // Her only way to sign in: it cannot be unlinked.
    await region.getByRole('button', { name: 'Unlink Demo ID', exact: true }).click();
    await expectAccessible(page);
    await region.getByRole('button', { name: 'Yes, unlink Demo ID' }).click();
    await region.getByText('This is your only way to sign in. Add another before removing it.').waitFor();
    await expect(region.getByRole('row').count()).resolves.toBe(2);
    await screenshot(page, 'account-providers-last-method');

    // The sign-up page offers it too, and it signs her in to the account it made.
    await signOut(page);
    await page.goto(`${web.origin(tenant)}/sign-up`);
    await page.getByRole('button', { name: 'Sign up with Demo ID', exact: true }).waitFor();
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'sign-up-providers', expectAccessible);
    await signInWithDemoId(page, ADA, 'Sign up with Demo ID');
    await landedOnAccount(page);
    await page.getByText(`Signed in as ${ADA.email}`).waitFor();
  });

  it('an account with a password and TOTP: Demo ID asks to sign in to it once, then links; next time Demo ID asks the TOTP step; unlinked, and linked again from the account page after confirming it is you (before and after Demo ID)', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD', totpAllowed: true });
    await aDemoIdProvider(web, tenant, demo.upstream);
    const user = await aUser(tenant, { email: ADA.email, totp: true });
    const [firstBackup, secondBackup, thirdBackup, fourthBackup] = user.backupCodes ?? [];
    const page = await web.open(tenant, '/sign-in');

    await signInWithDemoId(page);
    const linkNotice = page.getByText(
      `There is already an account for ${ADA.email}. Sign in to it once to link Demo ID.`,
    );
    await linkNotice.waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect(new URL(page.url()).search).toBe('');
    await expect(page.getByLabel('E-mail address').inputValue()).resolves.toBe(ADA.email);
    // Only the way to sign in that links is offered: no provider buttons meanwhile.
    await expect(page.getByRole('button', { name: 'Sign in with Demo ID' }).count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'sign-in-provider-link-required');
    await screenshotsOnPhoneAndDark(page, 'sign-in-provider-link-required', expectAccessible);

    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByLabel('Authenticator code').fill(totpCodeAt(user.totpSecret ?? '', new Date()));
    await page.getByRole('heading', { name: 'Demo ID is linked' }).waitFor();
    await page.getByText('Next time, you can sign in with Demo ID.').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'sign-in-provider-linked');
    await screenshotsOnPhoneAndDark(page, 'sign-in-provider-linked', expectAccessible);
    await page.getByRole('button', { name: 'Continue' }).click();
    await landedOnAccount(page);
    await providersRegion(page).getByRole('cell', { name: 'Demo ID', exact: true }).waitFor();

    // Next time: Demo ID, then the account's TOTP step (a backup code this time), then signed in.
    await signOut(page);
    await signInWithDemoId(page);
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    const tenantName = await page.locator('.brand-name').first().innerText();
    await page
      .getByText(`Enter the 6-digit code your authenticator app shows for your ${tenantName} account.`)
      .waitFor();
    await expectAccessible(page);
    await screenshot(page, 'sign-in-provider-totp');
    await page.getByRole('button', { name: 'Use a backup code instead' }).click();
    await page.getByLabel('Backup code').fill(firstBackup ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await landedOnAccount(page);
    const region = providersRegion(page);
    // Used just now: the last-used column has a date.
    await expect.poll(() => region.getByRole('row').nth(1).locator('time').count()).toBe(2);
    await expectAccessible(page);
    await region.scrollIntoViewIfNeeded();
    await screenshot(page, 'account-providers');
    await screenshotsOnPhoneAndDark(page, 'account-providers', expectAccessible);

    // Unlinked: the password remains, so it may go; older than 10 minutes, it asks to confirm it is you.
    await ageSignIns(tenant, user.id);
    await region.getByRole('button', { name: 'Unlink Demo ID', exact: true }).click();
    await region.getByRole('button', { name: 'Yes, unlink Demo ID' }).click();
    const prompt = page.getByRole('dialog', { name: 'Confirm it is you' });
    await prompt.getByLabel('Password', { exact: true }).fill(user.password);
    await prompt.getByLabel('Authenticator code').fill(secondBackup ?? '');
    await prompt.getByRole('button', { name: 'Confirm' }).click();
    await region.getByText('Demo ID is unlinked. It no longer signs you in.').waitFor();
    await region.getByText('No sign-in provider is linked to your account yet.').waitFor();
    await region.getByRole('button', { name: 'Link Demo ID' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'account-providers-unlinked');

    // Linked again from the account page: it asks to confirm it is you, goes to Demo ID and comes back linked.
    await ageSignIns(tenant, user.id);
    await forgetDemoIdSession(page, demo.upstream);
    await region.getByRole('button', { name: 'Link Demo ID' }).click();
    await prompt.getByLabel('Password', { exact: true }).fill(user.password);
    await prompt.getByLabel('Authenticator code').fill(thirdBackup ?? '');
    await expectAccessible(page);
    await prompt.getByRole('button', { name: 'Confirm' }).click();
    // The sign-in grows older than 10 minutes while at Demo ID: back, it asks once more, then links.
    await page.waitForURL((url) => url.origin === new URL(demo.upstream.issuer).origin);
    await ageSignIns(tenant, user.id);
    await continueAtDemoId(page, demo.upstream, ADA);
    await landedOnAccount(page);
    expect(new URL(page.url()).search).toBe('');
    await prompt.getByLabel('Password', { exact: true }).fill(user.password);
    await prompt.getByLabel('Authenticator code').fill(fourthBackup ?? '');
    await prompt.getByRole('button', { name: 'Confirm' }).click();
    await providersRegion(page).getByText('Demo ID is linked. Next time, you can sign in with it.').waitFor();
    await providersRegion(page).getByRole('cell', { name: ADA.email, exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'account-providers-linked-again');
    // The account's activity says both.
    const activity = page.getByRole('list', { name: 'Your activity, newest first' });
    await activity.getByText('Sign-in provider linked').first().waitFor();
    await activity.getByText('Sign-in provider unlinked').first().waitFor();
  });

  it('refuses an address Demo ID has not verified, and says a cancelled sign-in changed nothing', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD', signupMode: 'OPEN' });
    await aDemoIdProvider(web, tenant, demo.upstream);
    const page = await web.open(tenant, '/sign-in');

    await signInWithDemoId(page, CHARLES);
    const refusal = page.getByRole('alert');
    await refusal
      .getByText('That provider has not verified your e-mail address. Verify it there, or sign in another way.')
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect(new URL(page.url()).search).toBe('');
    await expectAccessible(page);
    await screenshot(page, 'sign-in-provider-not-verified');
    await screenshotsOnPhoneAndDark(page, 'sign-in-provider-not-verified', expectAccessible);

    await forgetDemoIdSession(page, demo.upstream);
    await page.getByRole('button', { name: 'Sign in with Demo ID', exact: true }).click();
    await page.waitForURL((url) => url.origin === new URL(demo.upstream.issuer).origin);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page
      .getByRole('alert')
      .getByText('Signing in with that provider was cancelled. Nothing has changed.')
      .waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.getByRole('button', { name: 'Sign in with Demo ID', exact: true }).waitFor();
  });
});

/** The app's side of the broker journey: a loopback redirect URI of this test, recording what arrives. */
let appServer: Server | undefined;
let appOrigin = '';
beforeAll(async () => {
  appServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>The app</title><main><h1>Back at the app</h1></main></html>');
  });
  await new Promise<void>((resolve) => appServer?.listen(0, '127.0.0.1', resolve));
  appOrigin = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => (appServer ? appServer.close(() => resolve()) : resolve())));

/** A first-party public client of the tenant, registered by its owner through the admin API. */
async function anApp(tenant: TestTenant): Promise<{ clientId: string }> {
  const api = `http://localhost:${new URL(web.origin(tenant)).port}/api/v1`;
  const login = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: tenant.headers,
    body: JSON.stringify({ email: tenant.adminEmail, password: tenant.adminPassword }),
  });
  const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;
  const res = await fetch(`${api}/oidc/clients`, {
    method: 'POST',
    headers: { ...tenant.headers, authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({
      type: 'public',
      name: 'Shop app',
      firstParty: true,
      redirectUris: [`${appOrigin}/callback`],
    }),
  });
  const app = (await res.json()) as { clientId: string };
  expect(res.status, JSON.stringify(app)).toBe(201);
  return app;
}

describe('an app’s sign-in through a provider (the tenant as an OpenID Provider, brokering)', () => {
  it('on /authorize, Sign in with Demo ID comes back to the same request, which sends a code to the app', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD', signupMode: 'OPEN' });
    await aDemoIdProvider(web, tenant, demo.upstream);
    const app = await anApp(tenant);
    const state = randomBytes(12).toString('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: `${appOrigin}/callback`,
      scope: 'openid email',
      state,
      code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const page = await web.open(tenant, `/api/v1/oidc/authorize?${query}`);
    await page.getByRole('heading', { name: 'Sign in to continue to Shop app' }).waitFor();
    const requestUrl = new URL(page.url());
    expect(requestUrl.pathname).toBe('/authorize');
    await page.getByRole('button', { name: 'Sign in with Demo ID', exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'authorize-providers');
    await screenshotsOnPhoneAndDark(page, 'authorize-providers', expectAccessible);

    await signInWithDemoId(page);
    await page.waitForURL((url) => url.origin === appOrigin);
    const answer = new URL(page.url()).searchParams;
    expect(new URL(page.url()).pathname).toBe('/callback');
    expect(answer.get('code')).toEqual(expect.any(String));
    expect(answer.get('state')).toBe(state);
    expect(answer.get('iss')).toBe(web.origin(tenant));
    expect(answer.get('error')).toBeNull();
  });
});
