import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCodeAt } from '#shared/auth/totp.ts';
import { aTenantWith, type TestTenant } from '#test/support/auth.ts';
import {
  ADA,
  aDemoIdProvider,
  CHARLES,
  continueAtDemoId,
  forgetDemoIdSession,
  useDemoId,
} from '../support/sign-in-providers.ts';
import { expectAccessible, screenshot, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';
import { ageSignIns, apiOf } from './account-steps.ts';

/**
 * Confirming it is you with a provider, in Chromium: an account "Demo ID" (a real OpenID Provider on loopback) made
 * in a tenant that signs in by password has no password, so the prompt before a guarded change offers "Continue with
 * Demo ID". The browser goes there and back; the prompt finishes (asking the authenticator code once TOTP is on) and
 * the change goes on as after a password.
 */

const web = useWebStack();
const demo = useDemoId();

const prompt = (page: Page) => page.getByRole('dialog', { name: 'Confirm it is you' });

/** The tenant's owner's bearer headers, signed in through the API just now. */
async function ownerHeaders(tenant: TestTenant): Promise<Record<string, string>> {
  const login = await fetch(`${apiOf(web, tenant)}/auth/login`, {
    method: 'POST',
    headers: tenant.headers,
    body: JSON.stringify({ email: tenant.adminEmail, password: tenant.adminPassword }),
  });
  const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;
  return { ...tenant.headers, authorization: `Bearer ${accessToken}` };
}

/** The user's id, as the tenant's owner reads it (the sessions to age are under it). */
async function idOf(tenant: TestTenant, email: string): Promise<string> {
  const res = await fetch(`${apiOf(web, tenant)}/users`, { headers: await ownerHeaders(tenant) });
  const users = (await res.json()) as { id: string; email: string }[];
  const found = users.find((user) => user.email === email);
  if (!found) throw new Error(`no user ${email}`);
  return found.id;
}

/** A platform authenticator that verifies its user and answers at once (the DevTools protocol's virtual one). */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/** In the prompt: Continue with Demo ID, and at Demo ID (which asks afresh) `account`; back on `path`. */
async function continueWithDemoId(page: Page, account = ADA, path = '/account') {
  await forgetDemoIdSession(page, demo.upstream);
  await prompt(page).getByRole('button', { name: 'Continue with Demo ID', exact: true }).click();
  await continueAtDemoId(page, demo.upstream, account);
  await page.waitForURL((url) => url.pathname === path);
  if (path === '/account') await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
}

/** Signs in with Demo ID on the sign-in page, making the account the first time: lands on the account page. */
async function signInWithDemoId(page: Page) {
  await forgetDemoIdSession(page, demo.upstream);
  await page.getByRole('button', { name: 'Sign in with Demo ID', exact: true }).click();
  await continueAtDemoId(page, demo.upstream, ADA);
  await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
  await page.getByText(`Signed in as ${ADA.email}`).waitFor();
}

/** An app's side: a loopback redirect URI of this file, answering a page of its own. */
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

describe('confirming it is you with a provider', () => {
  it('an account Demo ID made (no password): sets up TOTP after Continue with Demo ID; with TOTP on, adds a passkey after Demo ID and the authenticator code (another person’s Demo ID account and a wrong code refused)', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD', signupMode: 'OPEN', totpAllowed: true });
    await aDemoIdProvider(web, tenant, demo.upstream);
    const page = await web.open(tenant, '/sign-in');
    await signInWithDemoId(page);
    const userId = await idOf(tenant, ADA.email ?? '');

    // Signed in more than 10 minutes ago, she sets up an authenticator app: the prompt offers Demo ID.
    await ageSignIns(tenant, userId);
    const twoStep = page.getByRole('region', { name: 'Two-step verification' });
    await twoStep.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await prompt(page).getByRole('button', { name: 'Continue with Demo ID', exact: true }).waitFor();
    // No passkey yet: not offered.
    await expect(prompt(page).getByRole('button', { name: 'Use a passkey' }).count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'reauth-provider');
    await screenshotsOnPhoneAndDark(page, 'reauth-provider', expectAccessible);

    // There and back: the prompt finishes by itself (no TOTP yet), and the setup goes on.
    await continueWithDemoId(page);
    await twoStep.getByRole('img', { name: /QR code/ }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await expect(prompt(page).count()).resolves.toBe(0);
    await expectAccessible(page);
    await twoStep.scrollIntoViewIfNeeded();
    await screenshot(page, 'reauth-provider-totp-setup');
    const secret = (await twoStep.locator('.secret').textContent())?.replace(/\s+/g, '') ?? '';
    await twoStep.getByLabel('Code from the app').fill(totpCodeAt(secret, new Date()));
    await twoStep.getByRole('heading', { name: 'Your backup codes' }).waitFor();
    const codes = (
      await twoStep.getByRole('list', { name: 'Backup codes' }).getByRole('listitem').allTextContents()
    ).map((code) => code.trim());
    await twoStep.getByRole('button', { name: 'I have saved my backup codes' }).click();
    await twoStep.getByText('On', { exact: true }).waitFor();

    // With TOTP on, adding a passkey: Demo ID first, then the authenticator code.
    await virtualAuthenticator(page);
    await ageSignIns(tenant, userId);
    const passkeys = page.getByRole('region', { name: 'Passkeys', exact: true });
    await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
    await prompt(page).getByRole('button', { name: 'Continue with Demo ID', exact: true }).waitFor();

    // Another person's Demo ID account is not hers: refused after the code, the other ways offered again.
    await continueWithDemoId(page, CHARLES);
    await prompt(page).getByText('Confirmed with Demo ID. Enter your authenticator code to finish.').waitFor();
    await prompt(page)
      .getByLabel('Authenticator code')
      .fill(codes[0] ?? '');
    await prompt(page).getByRole('button', { name: 'Confirm' }).click();
    await prompt(page)
      .getByText(
        'The account you used at Demo ID is not linked to yours. Continue with the one you linked, or confirm another way.',
      )
      .waitFor();
    await prompt(page).getByRole('button', { name: 'Continue with Demo ID', exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'reauth-provider-not-linked');

    // Hers, and a wrong code: the result is kept (the service takes it only with a right code), the code asked again.
    await continueWithDemoId(page);
    await prompt(page).getByText('Confirmed with Demo ID. Enter your authenticator code to finish.').waitFor();
    await expect(prompt(page).getByLabel('Password', { exact: true }).count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'reauth-provider-back');
    await screenshotsOnPhoneAndDark(page, 'reauth-provider-back', expectAccessible);
    await prompt(page).getByLabel('Authenticator code').fill('000000');
    await prompt(page).getByRole('button', { name: 'Confirm' }).click();
    await prompt(page)
      .getByText(
        'That code is not right, or it has expired. Enter the code your authenticator app shows now to finish with Demo ID.',
      )
      .waitFor();
    await expectAccessible(page);
    await screenshot(page, 'reauth-provider-wrong-code');

    // A backup code, with no second trip to Demo ID: confirmed, and the passkey is added without another press.
    await prompt(page)
      .getByLabel('Authenticator code')
      .fill(codes[1] ?? '');
    await prompt(page).getByRole('button', { name: 'Confirm' }).click();
    await passkeys.getByRole('status').waitFor();
    await expect.poll(() => passkeys.getByRole('row').count()).toBe(2);
    await expect(prompt(page).count()).resolves.toBe(0);
    expect(new URL(page.url()).search).toBe('');
    await expectAccessible(page);
    await passkeys.scrollIntoViewIfNeeded();
    await screenshot(page, 'reauth-provider-passkey-added');

    // A change that does not go on by itself (the code typed to turn TOTP off is gone with the page): confirmed at
    // Demo ID, the prompt says to make it again, and then it goes through without asking.
    await ageSignIns(tenant, userId);
    await twoStep.getByLabel('Code from your authenticator app').fill(codes[2] ?? '');
    await twoStep.getByRole('button', { name: 'Turn off two-step verification' }).click();
    await continueWithDemoId(page);
    await prompt(page)
      .getByLabel('Authenticator code')
      .fill(codes[3] ?? '');
    await prompt(page).getByRole('button', { name: 'Confirm' }).click();
    const confirmed = page.getByRole('dialog', { name: 'You have confirmed it is you' });
    await confirmed
      .getByText('Make your change again: for the next 10 minutes, it goes through without asking.')
      .waitFor();
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'reauth-provider-confirmed', expectAccessible);
    await confirmed.getByRole('button', { name: 'OK' }).click();
    await expect(confirmed.count()).resolves.toBe(0);
    await twoStep.getByLabel('Code from your authenticator app').fill(codes[4] ?? '');
    await twoStep.getByRole('button', { name: 'Turn off two-step verification' }).click();
    await twoStep.getByText('Two-step verification is off. Your backup codes no longer work.').waitFor();
    await expect(prompt(page).count()).resolves.toBe(0);

    // Her activity says each time she confirmed it was her.
    const activity = page.getByRole('list', { name: 'Your activity, newest first' });
    await expect.poll(() => activity.getByText('Confirmed it was you').count()).toBe(3);
  });

  it('an app asks her to sign in again (prompt=login): on /authorize she continues with Demo ID, and the app gets its code', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD', signupMode: 'OPEN' });
    await aDemoIdProvider(web, tenant, demo.upstream);
    const registered = await fetch(`${apiOf(web, tenant)}/oidc/clients`, {
      method: 'POST',
      headers: await ownerHeaders(tenant),
      body: JSON.stringify({
        type: 'public',
        name: 'Shop app',
        firstParty: true,
        redirectUris: [`${appOrigin}/callback`],
      }),
    });
    const app = (await registered.json()) as { clientId: string };
    expect(registered.status, JSON.stringify(app)).toBe(201);
    const page = await web.open(tenant, '/sign-in');
    await signInWithDemoId(page);

    const state = randomBytes(12).toString('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: `${appOrigin}/callback`,
      scope: 'openid email',
      state,
      prompt: 'login',
      code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
      code_challenge_method: 'S256',
    });
    await page.goto(`${web.origin(tenant)}/api/v1/oidc/authorize?${query}`);
    await prompt(page).getByText('Shop app asks you to confirm it is you before going on.').waitFor();
    await prompt(page).getByRole('button', { name: 'Continue with Demo ID', exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'reauth-provider-authorize');

    await continueWithDemoId(page, ADA, '/authorize');
    await page.waitForURL((url) => url.origin === appOrigin);
    const answer = new URL(page.url()).searchParams;
    expect(answer.get('code')).toEqual(expect.any(String));
    expect(answer.get('state')).toBe(state);
    expect(answer.get('error')).toBeNull();
  });
});
