import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aTenantWith, type TestTenant } from '#test/support/auth.ts';
import { bearer, post } from '#test/support/http.ts';
import { visit } from '#test/support/oidc.ts';
import { type OidcUpstream, startOidcUpstream } from '#test/support/upstream/oidc-upstream.ts';
import { expectAccessible, screenshot, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';
import { ageSignIns, apiOf, openAsOwner } from './account-steps.ts';

/**
 * Sign-in providers in the console: an admin adds "any OpenID provider" (a fake one on loopback), is shown the
 * redirect URI to register there, sees it in the list and in the sign-in page's discovery; a person signs up with it
 * and their page lists the link; turned off it leaves discovery; an issuer that does not answer is refused at its
 * field; deleted (after confirming it is the admin) it is gone, and the user's link names a deleted provider.
 */

const ADA = { sub: 'ada', email: 'ada@demo-id.example', emailVerified: true, name: 'Ada Lovelace' };
let upstream: OidcUpstream;
beforeAll(async () => {
  upstream = await startOidcUpstream({ accounts: [ADA] });
});
afterAll(() => upstream?.close());

// The fake stands in for Apple too, whose issuer is not the admin's to give (started first: the stack reads it).
const web = useWebStack({ signInProviderEndpoints: () => ({ APPLE: upstream.issuer }) });

/** A loopback port with nothing listening: an issuer there never answers. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The buttons the tenant's sign-in page shows, as its discovery lists them. */
async function buttonsOf(tenant: TestTenant): Promise<{ id: string; kind: string; displayName: string }[]> {
  const res = await fetch(
    `${apiOf(web, tenant)}/auth/discovery?clientId=${tenant.publicApiKey}&slug=${tenant.subdomain}`,
    { headers: { origin: web.origin(tenant) } },
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { signInProviders: { id: string; kind: string; displayName: string }[] })
    .signInProviders;
}

/**
 * A person signs in with the provider as the sign-in page would have them do (through the API: the page's button is
 * not the subject here): start, the provider's chooser (Ada), the callback, and the result with its verifier.
 */
async function signInWithProvider(tenant: TestTenant, providerId: string) {
  const api = apiOf(web, tenant);
  const verifier = randomBytes(32).toString('base64url');
  const codeChallenge = createHash('sha256').update(verifier).digest('base64url');
  const returnTo = `${web.origin(tenant)}/sign-in`;
  const start = await post(`${api}/auth/providers/${providerId}/start`, { returnTo, codeChallenge }, tenant.headers);
  expect(start.status, start.text).toBe(200);
  const answer = await upstream.authorize(start.body.authorizationUrl, { sub: ADA.sub });
  expect(answer.method).toBe('GET');
  const back = await visit(answer.url);
  expect(back.status, back.text).toBe(302);
  const result = back.location?.searchParams.get('provider_result');
  expect(result, String(back.location)).toBeTruthy();
  const signIn = await post(`${api}/auth/providers/sign-in`, { result, codeVerifier: verifier }, tenant.headers);
  expect(signIn.status, signIn.text).toBe(200);
  return signIn.body.data as { user: { id: string; email: string } };
}

/** An Apple "Sign in with Apple" key as its .p8 file holds it (PKCS #8 PEM). */
const P8 = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

/** The provider as the admin API answers it (the admin signed in through the API, just now). */
async function providerOf(tenant: TestTenant, providerId: string) {
  const api = apiOf(web, tenant);
  const login = await post(
    `${api}/auth/login`,
    { email: tenant.adminEmail, password: tenant.adminPassword },
    tenant.headers,
  );
  expect(login.status, login.text).toBe(200);
  const res = await fetch(`${api}/sign-in-providers/${providerId}`, {
    headers: bearer(tenant, login.body.data.accessToken),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    displayName: string;
    order: number;
    apple: { teamId: string; keyId: string } | null;
    secretSetAt: string;
  };
}

/** The text of each row's cells, row by row (not the placeholder rows). */
async function rowsOf(table: Locator): Promise<string[][]> {
  const texts: string[][] = [];
  for (const row of await table.locator('tbody:not(.skeleton-rows) tr').all()) {
    texts.push((await row.locator('td').allTextContents()).map((text) => text.trim()));
  }
  return texts;
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

describe('sign-in providers in the console', () => {
  it('an admin adds an OpenID provider, registers its redirect URI, turns it off and deletes it; a user’s page lists their link', async () => {
    const tenant = await aTenantWith();
    const page = await openAsOwner(web, tenant, '/console/sign-in-providers', { ready: null });

    // None yet: what providers are, and the way to add one.
    await page.getByText('There are no sign-in providers yet.', { exact: false }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Console' });
    await expect(nav.getByRole('link', { name: 'Sign-in providers' }).getAttribute('aria-current')).resolves.toBe(
      'page',
    );
    await expectAccessible(page);
    await screenshot(page, 'console-providers-empty');
    await screenshotsOnPhoneAndDark(page, 'console-providers-empty', expectAccessible);

    // The form follows the kind chosen: Apple's key, Microsoft's directory, an OpenID provider's issuer.
    await page.getByRole('link', { name: 'Add a provider' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add a sign-in provider' }).waitFor();
    await expect(page.getByRole('radio', { name: /^Google/ }).isChecked()).resolves.toBe(true);
    await expect(field(page, 'Name on the button (optional)').getAttribute('placeholder')).resolves.toBe('Google');
    await expect(field(page, 'Scopes (optional)').getAttribute('placeholder')).resolves.toBe('openid email profile');
    await expect(field(page, 'Client secret').getAttribute('type')).resolves.toBe('password');
    await page.getByRole('radio', { name: /^Apple/ }).check();
    await field(page, 'Private key (.p8)').waitFor();
    await expect(field(page, 'Client secret').count()).resolves.toBe(0);
    await expect(field(page, 'Services ID').count()).resolves.toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'console-providers-add-apple');
    await page.getByRole('radio', { name: /^Microsoft/ }).check();
    await field(page, 'Directory (optional)').waitFor();
    await page.getByText('work and school accounts only', { exact: false }).waitFor();
    await page.getByRole('radio', { name: /^Any OpenID provider/ }).check();
    await expect(field(page, 'Directory (optional)').count()).resolves.toBe(0);
    const trust = page.getByRole('checkbox', { name: 'Trust this provider’s verified e-mail addresses' });
    await expect(trust.isChecked()).resolves.toBe(false);
    await expect(page.getByRole('checkbox', { name: 'Turned on' }).isChecked()).resolves.toBe(true);

    // Sent empty: each missing field says so, and the first is focused.
    await page.getByRole('button', { name: 'Add provider' }).click();
    await page.getByText('Enter the provider’s issuer URL.').waitFor();
    await page.getByText('Enter the name people see on the button.').waitFor();
    await page.getByText('Enter the client ID.').waitFor();
    await page.getByText('Enter the client secret.').waitFor();
    await expect(
      field(page, 'Issuer URL').evaluate((element) => element === element.ownerDocument.activeElement),
    ).resolves.toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'console-providers-add-missing');

    // An issuer where nothing answers: the service cannot read its settings, said at the issuer field.
    await field(page, 'Issuer URL').fill(`http://127.0.0.1:${await deadPort()}`);
    await field(page, 'Name on the button').fill('Demo ID');
    await field(page, 'Client ID').fill('shop-console');
    await field(page, 'Client secret').fill('demo-secret-0123456789');
    await page.getByRole('button', { name: 'Add provider' }).click();
    const discoveryProblem = page
      .locator('.field .problem')
      .filter({ hasText: "The provider's settings could not be read from its issuer." });
    await discoveryProblem.waitFor();
    await expect(discoveryProblem.textContent()).resolves.toContain('What went wrong:');
    await expect(field(page, 'Issuer URL').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(field(page, 'Issuer URL').getAttribute('aria-describedby')).resolves.toContain(
      (await discoveryProblem.getAttribute('id')) ?? 'none',
    );
    await expectAccessible(page);
    await screenshot(page, 'console-providers-discovery-failed');
    await screenshotsOnPhoneAndDark(page, 'console-providers-discovery-failed', expectAccessible);

    // The fake's issuer: added; its page says it, with the redirect URI to register at the provider.
    await field(page, 'Issuer URL').fill(upstream.issuer);
    await page.getByRole('button', { name: 'Add provider' }).click();
    await page.getByRole('heading', { level: 1, name: 'Demo ID' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'The provider “Demo ID” is added.' }).waitFor();
    const redirectUri = `${web.origin(tenant)}/api/v1/auth/providers/callback`;
    await expect(page.getByTestId('redirect-uri').textContent()).resolves.toBe(redirectUri);
    await page.getByText('add this address to the redirect URIs it allows', { exact: false }).waitFor();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.origin(tenant) });
    await page.getByRole('button', { name: 'Copy the redirect URI' }).click();
    await page.getByRole('status').filter({ hasText: 'The redirect URI is copied to your clipboard.' }).waitFor();
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(redirectUri);
    // The secret is never shown back: its field is empty, and says so.
    await expect(field(page, 'Client secret').inputValue()).resolves.toBe('');
    await page.getByText('Leave empty to keep the stored secret.', { exact: false }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'console-provider-added');
    await screenshotsOnPhoneAndDark(page, 'console-provider-added', expectAccessible);
    const providerId = new URL(page.url()).pathname.split('/').pop() ?? '';
    expect(providerId).toMatch(/^sip_/);

    // The sign-in page's discovery lists its button, and the hosted sign-in page, in a browser of its own, shows it;
    // registered at the fake, it signs a new person up.
    await expect(buttonsOf(tenant)).resolves.toEqual([{ id: providerId, kind: 'OIDC', displayName: 'Demo ID' }]);
    const visitor = await web.open(tenant, '/sign-in');
    await visitor.getByRole('button', { name: 'Sign in with Demo ID', exact: true }).waitFor();
    await visitor.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await upstream.addClient({
      clientId: 'shop-console',
      clientSecret: 'demo-secret-0123456789',
      redirectUris: [redirectUri],
    });
    const ada = await signInWithProvider(tenant, providerId);
    expect(ada.user.email).toBe(ADA.email);

    // The list: its name, kind, on, not trusted for e-mail, first.
    await page.getByRole('link', { name: 'Back to the sign-in providers' }).click();
    const table = page.getByRole('region', { name: 'Sign-in providers, in the order of their buttons' });
    await table.locator('tbody:not(.skeleton-rows) tr').first().waitFor();
    await expect(table.getByRole('columnheader').allTextContents()).resolves.toEqual([
      'Name',
      'Kind',
      'Status',
      'Trusted for e-mail',
      'Order',
    ]);
    await expect(rowsOf(table)).resolves.toEqual([['Demo ID', 'Any OpenID provider', 'On', 'No', '0']]);
    await expectAccessible(page);
    await screenshot(page, 'console-providers-list');
    await screenshotsOnPhoneAndDark(page, 'console-providers-list', expectAccessible);

    // Ada's page in the console lists her link: the provider, the address it gave, linked and used just now.
    await page.goto(`${web.origin(tenant)}/console/users/${ada.user.id}`);
    const linked = page.getByRole('region', { name: 'Linked sign-in providers' });
    await linked.locator('tbody:not(.skeleton-rows) tr').first().waitFor();
    const [link] = await rowsOf(linked);
    expect(link?.slice(0, 2)).toEqual(['Demo ID', ADA.email]);
    expect(link?.[3]).not.toBe('Never');
    await expectAccessible(page);
    await screenshot(page, 'console-user-identities');
    await screenshotsOnPhoneAndDark(page, 'console-user-identities', expectAccessible);

    // Turned off: saved, and its button leaves the sign-in page. Leaving with the change unsaved asks first.
    await page.goto(`${web.origin(tenant)}/console/sign-in-providers/${providerId}`);
    await page.getByRole('heading', { level: 1, name: 'Demo ID' }).waitFor();
    await page.getByRole('checkbox', { name: 'Turned on' }).uncheck();
    await page.getByText('Unsaved changes').waitFor();
    await page.getByRole('link', { name: 'Back to the sign-in providers' }).click();
    const leave = page.getByRole('dialog', { name: 'The provider is not saved.', exact: false });
    await leave.waitFor();
    await leave.getByRole('button', { name: 'Stay on this page' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'The provider “Demo ID” is saved.' }).waitFor();
    await expect(page.getByText('Unsaved changes').count()).resolves.toBe(0);
    await expect(page.getByRole('checkbox', { name: 'Turned on' }).isChecked()).resolves.toBe(false);
    await expect(buttonsOf(tenant)).resolves.toEqual([]);
    await visitor.reload();
    await visitor.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await expect(visitor.getByRole('button', { name: 'Sign in with Demo ID' }).count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'console-provider-off');

    // Deleted, after the dialog says what it means and the admin (signed in a while ago) confirms it is them.
    await ageSignIns(tenant, tenant.adminUserId);
    await page.getByRole('button', { name: 'Delete provider' }).click();
    const dialog = page.getByRole('dialog', { name: /^Delete Demo ID\?/ });
    await expect(dialog.textContent()).resolves.toContain('can no longer sign in with it');
    await expectAccessible(page);
    await screenshot(page, 'console-provider-delete');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    const prompt = page.getByRole('dialog', { name: 'Confirm it is you' });
    await prompt.waitFor();
    await prompt.getByLabel('Password', { exact: true }).fill(tenant.adminPassword);
    await prompt.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign-in providers' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'The provider “Demo ID” was deleted.' }).waitFor();
    await page.getByText('There are no sign-in providers yet.', { exact: false }).waitFor();

    // Ada's link stays on her page, of a provider that is gone.
    await page.goto(`${web.origin(tenant)}/console/users/${ada.user.id}`);
    await linked.getByRole('cell', { name: 'A deleted provider' }).waitFor();
  });

  it('in German: the list, and the form with Microsoft’s directory, fit a phone', async () => {
    const tenant = await aTenantWith();
    const page = await openAsOwner(web, tenant, '/console/sign-in-providers', { ready: null, locale: 'de-DE' });
    await page.getByRole('heading', { level: 1, name: 'Anmeldeanbieter' }).waitFor();
    await page.getByText('Es gibt noch keine Anmeldeanbieter.', { exact: false }).waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Anbieter hinzufügen' }).click();
    await page.getByRole('radio', { name: /^Microsoft/ }).check();
    await page.getByText('nur Geschäfts- und Schulkonten.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Anbieter hinzufügen' }).click();
    await page.getByText('Geben Sie die Client-ID ein.').waitFor();
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'console-providers-add-microsoft-de', expectAccessible);
  });

  it('Apple: its key, never shown back, is kept when other settings change; a new key ID asks for its key; the change asks the admin to confirm it is them', async () => {
    const tenant = await aTenantWith();
    const page = await openAsOwner(web, tenant, '/console/sign-in-providers/new', { ready: '#main form' });
    await page.getByRole('radio', { name: /^Apple/ }).check();
    await field(page, 'Services ID').fill('com.shop.signin');
    await field(page, 'Team ID').fill('abcde12345');
    // Typed in capitals, as Apple writes them.
    await expect(field(page, 'Team ID').inputValue()).resolves.toBe('ABCDE12345');
    await field(page, 'Key ID').fill('KEY1234567');
    await field(page, 'Private key (.p8)').fill('not a key');
    await page.getByRole('button', { name: 'Add provider' }).click();
    await page.getByText('This is not a .p8 key', { exact: false }).waitFor();
    await field(page, 'Private key (.p8)').fill(P8);
    await page.getByRole('button', { name: 'Add provider' }).click();
    await page.getByRole('heading', { level: 1, name: 'Apple' }).waitFor();
    await page.getByText('add this address under “Return URLs”', { exact: false }).waitFor();
    await expect(field(page, 'Private key (.p8)').inputValue()).resolves.toBe('');
    await page.getByText('Leave empty to keep the stored key.', { exact: false }).waitFor();
    const providerId = new URL(page.url()).pathname.split('/').pop() ?? '';
    const before = await providerOf(tenant, providerId);
    expect(before.apple).toEqual({ teamId: 'ABCDE12345', keyId: 'KEY1234567' });
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'console-provider-apple', expectAccessible);

    // Another key ID needs the key that goes with it.
    await field(page, 'Key ID').fill('KEY7654321');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Paste the private key that goes with the new team or key ID.').waitFor();
    await field(page, 'Key ID').fill('KEY1234567');

    // A new name and order alone: the admin, signed in a while ago, confirms it is them; the key stays as it was.
    await field(page, 'Name on the button (optional)').fill('Apple ID');
    await field(page, 'Order (optional)').fill('5');
    await ageSignIns(tenant, tenant.adminUserId);
    await page.getByRole('button', { name: 'Save changes' }).click();
    const prompt = page.getByRole('dialog', { name: 'Confirm it is you' });
    await prompt.waitFor();
    await prompt.getByLabel('Password', { exact: true }).fill(tenant.adminPassword);
    await prompt.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').filter({ hasText: 'The provider “Apple ID” is saved.' }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Apple ID' }).waitFor();
    const after = await providerOf(tenant, providerId);
    expect(after).toMatchObject({ displayName: 'Apple ID', order: 5, apple: before.apple });
    expect(after.secretSetAt).toBe(before.secretSetAt);
    await expect(buttonsOf(tenant)).resolves.toEqual([{ id: providerId, kind: 'APPLE', displayName: 'Apple ID' }]);
  });
});
