import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { passkeyRepo } from '#shared/store/passkey-repo.ts';
import { aTenantWith, aUser, type TestTenant, type TestUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { bearer, post } from '#test/support/http.ts';
import { aStoredPasskey, hostedCeremony, passkeySignInBody } from '#test/support/passkeys.ts';
import { register } from '#test/support/soft-authenticator.ts';
import { expectAccessible, screenshot, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';
import { ageSignIns, apiOf, openAsOwner } from './account-steps.ts';

/**
 * A user's passkeys in the console: listed on the user's page (synced or on one device, when added and last used),
 * removed one at a time behind the confirm dialog and, with an old sign-in, the admin's re-authentication; the
 * tenant's switch that turns passkeys off.
 */

const web = useWebStack();

async function accessTokenOf(tenant: TestTenant, user: { email: string; password: string }): Promise<string> {
  const body = { email: user.email, password: user.password };
  const res = await post(`${apiOf(web, tenant)}/auth/login`, body, tenant.headers);
  expect(res.status, res.text).toBe(200);
  return res.body.data.accessToken;
}

/**
 * A passkey bound to one authenticator, added by the user through the API (a software authenticator signs), then
 * used once to sign in: a LOGIN by passkey in the activity, and a last use.
 */
async function aUsedSecurityKey(tenant: TestTenant, user: TestUser) {
  const api = apiOf(web, tenant);
  const token = await accessTokenOf(tenant, user);
  const options = await post(`${api}/users/me/passkeys/options`, {}, bearer(tenant, token));
  expect(options.status, options.text).toBe(200);
  const { credential, json } = register({
    ...hostedCeremony(web.localStack(), tenant, options.body.options.challenge),
    userHandle: options.body.options.user.id,
  });
  const added = await post(
    `${api}/users/me/passkeys`,
    { credential: json, name: 'Security key' },
    bearer(tenant, token),
  );
  expect(added.status, added.text).toBe(201);
  const signIn = async () =>
    post(
      `${api}/auth/passkeys/sign-in`,
      await passkeySignInBody(api, web.localStack(), tenant, credential),
      tenant.headers,
    );
  expect((await signIn()).status).toBe(200);
  return { signIn };
}

/** The text of the four facts of each of the table's rows (not the dialog in the last cell), row by row. */
async function rowsOf(table: Locator): Promise<string[][]> {
  const rows = table.locator('tbody:not(.skeleton-rows) tr');
  const texts: string[][] = [];
  for (const row of await rows.all())
    texts.push((await row.locator('td:nth-child(-n+4)').allTextContents()).map((t) => t.trim()));
  return texts;
}

/** What the profile says after "Passkeys". */
const countIn = (page: Page) =>
  page.getByRole('region', { name: 'Profile' }).locator('dt:text-is("Passkeys") + dd').textContent();

const firstActivity = (page: Page) =>
  page.getByRole('region', { name: 'Activity, newest first' }).locator('tbody:not(.skeleton-rows) tr').first();

describe('a user’s passkeys in the console', () => {
  it('lists them, removes one behind the confirm dialog and another after confirming it is the admin; the count, the list and the activity follow', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const securityKey = await aUsedSecurityKey(tenant, user);
    const synced = await aStoredPasskey(tenant, user.id);
    await passkeyRepo(makeTestDeps().store).rename(tenant, user.id, synced.id, 'Pixel phone');

    const page = await openAsOwner(web, tenant, `/console/users/${user.id}`, { ready: null });
    const section = page.getByRole('region', { name: 'Passkeys', exact: true });
    const table = section.getByRole('region', { name: 'Passkeys, oldest first' });
    await table.locator('tbody:not(.skeleton-rows) tr').nth(1).waitFor();
    await expect(table.getByRole('columnheader').allTextContents()).resolves.toEqual([
      'Name',
      'Added',
      'Last used',
      'Storage',
      'Actions',
    ]);
    const [key, phone] = await rowsOf(table);
    expect([key?.[0], key?.[3]]).toEqual(['Security key', 'One device only']);
    expect(key?.[2]).not.toBe('Never');
    expect([phone?.[0], phone?.[2], phone?.[3]]).toEqual(['Pixel phone', 'Never', 'Synced']);
    await expect(countIn(page)).resolves.toBe('2');
    // The user's sign-ins say how they were made.
    const activity = page.getByRole('region', { name: 'Activity, newest first' });
    await activity.getByText('Signed in with a passkey', { exact: true }).waitFor();
    await activity.getByText('Signed in with a password', { exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'console-user-passkeys');
    await screenshotsOnPhoneAndDark(page, 'console-user-passkeys', expectAccessible);

    // Remove the synced one: the dialog asks first, and Cancel changes nothing.
    await section.getByRole('button', { name: 'Remove the passkey “Pixel phone”' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.textContent()).resolves.toContain('Remove the passkey “Pixel phone” of Test User?');
    await expectAccessible(page);
    await screenshot(page, 'console-user-passkey-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await rowsOf(table)).toHaveLength(2);
    await section.getByRole('button', { name: 'Remove the passkey “Pixel phone”' }).click();
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    await section.getByRole('status').filter({ hasText: 'The passkey “Pixel phone” was removed.' }).waitFor();
    await expect(rowsOf(table)).resolves.toHaveLength(1);
    await expect(countIn(page)).resolves.toBe('1');
    await expect.poll(async () => firstActivity(page).locator('td').allTextContents()).toContain('Passkey removed');
    await expect(firstActivity(page).locator('td').last().textContent()).resolves.toBe('An administrator');
    await expectAccessible(page);
    await screenshot(page, 'console-user-passkey-removed');

    // The admin's sign-in is old now: removing the other asks them to confirm it is them, then goes on.
    await ageSignIns(tenant, tenant.adminUserId);
    await section.getByRole('button', { name: 'Remove the passkey “Security key”' }).click();
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    const prompt = page.getByRole('dialog', { name: 'Confirm it is you' });
    await prompt.waitFor();
    await expectAccessible(page);
    await prompt.getByLabel('Password', { exact: true }).fill(tenant.adminPassword);
    await prompt.getByRole('button', { name: 'Confirm' }).click();
    await section.getByRole('status').filter({ hasText: 'The passkey “Security key” was removed.' }).waitFor();
    await section.getByText('The user has no passkeys.').waitFor();
    await expect(countIn(page)).resolves.toBe('0');
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'console-user-passkeys-none', expectAccessible);

    // The removed passkey no longer signs the user in.
    expect((await securityKey.signIn()).status).toBe(401);
  });

  it('shows an admin’s own passkeys on their page without Remove: they manage them from their account', async () => {
    const tenant = await aTenantWith();
    await aStoredPasskey(tenant, tenant.adminUserId);
    const page = await openAsOwner(web, tenant, `/console/users/${tenant.adminUserId}`, { ready: null });
    const section = page.getByRole('region', { name: 'Passkeys', exact: true });
    await section.getByRole('cell', { name: 'Stored passkey', exact: true }).waitFor();
    await expect(section.getByRole('button').count()).resolves.toBe(0);
    await expect(section.getByRole('columnheader').count()).resolves.toBe(4);
    await expectAccessible(page);
  });
});

describe('the passkeys setting', () => {
  it('turned off and saved: discovery says so, and a user’s page says their passkeys do not sign in meanwhile', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    await aStoredPasskey(tenant, user.id);
    const discovered = async () => {
      const res = await fetch(
        `${apiOf(web, tenant)}/auth/discovery?clientId=${tenant.publicApiKey}&slug=${tenant.subdomain}`,
        { headers: { origin: web.origin(tenant) } },
      );
      expect(res.status).toBe(200);
      return ((await res.json()) as { passkeysAllowed: boolean }).passkeysAllowed;
    };
    await expect(discovered()).resolves.toBe(true);

    const page = await openAsOwner(web, tenant, '/console/settings');
    const passkeys = page.getByRole('group', { name: 'Passkeys' });
    const allowed = passkeys.getByRole('checkbox', { name: /^People may sign in with a passkey/ });
    await expect(allowed.isChecked()).resolves.toBe(true);
    await expect(allowed.evaluate((box) => box.getAttribute('aria-describedby'))).resolves.toBeTruthy();
    await allowed.uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Your settings are saved' }).waitFor();
    await expect(discovered()).resolves.toBe(false);
    const merchant = await fetch(`${apiOf(web, tenant)}/merchants/me`, {
      headers: bearer(
        tenant,
        await accessTokenOf(tenant, { email: tenant.adminEmail, password: tenant.adminPassword }),
      ),
    });
    expect(((await merchant.json()) as { passkeysAllowed: boolean }).passkeysAllowed).toBe(false);
    await passkeys.scrollIntoViewIfNeeded();
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'console-settings-passkeys-off', expectAccessible);

    // Still unchecked after a reload: it is the saved setting.
    await page.reload();
    await page.locator('#main form').waitFor();
    await expect(page.getByRole('checkbox', { name: /^People may sign in with a passkey/ }).isChecked()).resolves.toBe(
      false,
    );

    // A user's page still lists the passkey, and says it does not sign in while passkeys are off.
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('link', { name: 'Test User' }).click();
    const section = page.getByRole('region', { name: 'Passkeys', exact: true });
    await section.getByRole('cell', { name: 'Stored passkey', exact: true }).waitFor();
    await expect(section.getByRole('note').textContent()).resolves.toBe(
      'Passkeys are turned off in the settings: no passkey signs in until they are turned on again.',
    );
    await expectAccessible(page);
    await screenshot(page, 'console-user-passkeys-off');
  });
});
