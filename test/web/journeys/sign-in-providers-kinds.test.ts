import { generateKeyPairSync } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aTenantWith } from '#test/support/auth.ts';
import { type GithubStub, startGithubStub } from '#test/support/upstream/github-stub.ts';
import { type OidcUpstream, startOidcUpstream } from '#test/support/upstream/oidc-upstream.ts';
import { ADA, aDemoIdProvider, aProvider } from '../support/sign-in-providers.ts';
import { expectAccessible, screenshot, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';

/**
 * Every kind of provider on the sign-in page, each recognisable by its mark: Google, Apple and Microsoft (each a fake
 * OpenID Provider standing in for the real one, as the local stack lets it), GitHub (its stub), and any other OpenID
 * provider (Demo ID). Signing in through GitHub's stub (plain OAuth 2 and its user API, no ID token) in the browser.
 */

/** The fakes start before the stack, which reads where they are when it starts. */
const fakes: { google?: OidcUpstream; apple?: OidcUpstream; microsoft?: OidcUpstream; demo?: OidcUpstream } = {};
let github: GithubStub | undefined;
const GITHUB_CLIENT = { clientId: 'github-client', clientSecret: 'github-secret' };
beforeAll(async () => {
  const accounts = [ADA];
  [fakes.google, fakes.apple, fakes.microsoft, fakes.demo] = await Promise.all([
    startOidcUpstream({ accounts, issuerPath: '/google', name: 'Demo Google' }),
    startOidcUpstream({ accounts, issuerPath: '/apple', name: 'Demo Apple' }),
    startOidcUpstream({ accounts, issuerPath: '/microsoft', name: 'Demo Microsoft' }),
    startOidcUpstream({ accounts }),
  ]);
  github = await startGithubStub({
    users: [
      {
        id: 1815,
        login: 'ada',
        name: 'Ada Lovelace',
        emails: [{ email: 'ada@github.example', primary: true, verified: true }],
      },
    ],
    clients: [GITHUB_CLIENT],
  });
});
afterAll(async () => {
  await Promise.all([...Object.values(fakes).map((fake) => fake?.close()), github?.close()]);
});

const web = useWebStack({
  signInProviderEndpoints: () => ({
    GOOGLE: fakes.google?.issuer ?? '',
    APPLE: fakes.apple?.issuer ?? '',
    MICROSOFT: fakes.microsoft?.issuer ?? '',
    GITHUB: github?.baseUrl ?? '',
  }),
});

/** Apple signs its client secrets with a key of the team's (a .p8 file): any P-256 key will do here. */
const appleKey = () => ({
  teamId: 'TEAM123456',
  keyId: 'KEY1234567',
  privateKey: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string,
});

/** The buttons below the form, by their names, in order. */
const providerButtons = (page: Page) => page.locator('.provider-buttons button').allInnerTexts();

describe('every kind of sign-in provider', () => {
  it('has its button with its mark, in the order set, in English and in German; GitHub signs a new account in', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD', signupMode: 'OPEN' });
    await aProvider(web, tenant, { kind: 'GOOGLE', clientId: 'google-client', clientSecret: 'google-secret' });
    await aProvider(web, tenant, { kind: 'APPLE', clientId: 'com.shop.web', apple: appleKey() });
    await aProvider(web, tenant, { kind: 'MICROSOFT', clientId: 'ms-client', clientSecret: 'ms-secret' });
    await aProvider(web, tenant, { kind: 'GITHUB', ...GITHUB_CLIENT });
    await aDemoIdProvider(web, tenant, fakes.demo as OidcUpstream);

    const page = await web.open(tenant, '/sign-in');
    await page.getByRole('button', { name: 'Sign in with Demo ID', exact: true }).waitFor();
    await expect(providerButtons(page)).resolves.toEqual([
      'Sign in with Google',
      'Sign in with Apple',
      'Sign in with Microsoft',
      'Sign in with GitHub',
      'Sign in with Demo ID',
    ]);
    // Each with a mark of its own: four brands' and a key.
    const marks = await page
      .locator('.provider-buttons svg.provider-mark')
      .evaluateAll((svgs) => svgs.map((svg) => svg.innerHTML));
    expect(new Set(marks).size).toBe(5);
    await expectAccessible(page);
    await screenshot(page, 'sign-in-provider-kinds');
    await screenshotsOnPhoneAndDark(page, 'sign-in-provider-kinds', expectAccessible);

    const german = await web.open(tenant, '/sign-in', { locale: 'de-DE' });
    await german.getByRole('button', { name: 'Mit Demo ID anmelden', exact: true }).waitFor();
    await expect(providerButtons(german)).resolves.toEqual([
      'Mit Google anmelden',
      'Mit Apple anmelden',
      'Mit Microsoft anmelden',
      'Mit GitHub anmelden',
      'Mit Demo ID anmelden',
    ]);
    await expectAccessible(german);
    await screenshot(german, 'sign-in-provider-kinds-de');

    // GitHub: its page, then back signed in to a new account with its verified primary address.
    await page.getByRole('button', { name: 'Sign in with GitHub', exact: true }).click();
    await page.waitForURL((url) => url.origin === github?.baseUrl);
    await page.getByRole('button', { name: 'Continue as ada' }).click();
    await page.waitForURL((url) => url.pathname === '/account');
    await page.getByText('Signed in as ada@github.example').waitFor();
    const region = page.getByRole('region', { name: 'Sign-in providers', exact: true });
    await region.getByRole('cell', { name: 'GitHub', exact: true }).waitFor();
    // The tenant's other providers may be linked too, each with its mark.
    await region.getByRole('button', { name: 'Link Google' }).waitFor();
    await expect(region.locator('.link-providers button').allInnerTexts()).resolves.toEqual([
      'Link Google',
      'Link Apple',
      'Link Microsoft',
      'Link Demo ID',
    ]);
    await expectAccessible(page);
    await region.scrollIntoViewIfNeeded();
    await screenshot(page, 'account-provider-kinds');
  });
});
