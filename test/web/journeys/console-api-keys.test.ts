import { describe, expect, it } from 'vitest';
import { aTenantWith, type TestTenant } from '#test/support/auth.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';
import { ageSignIns, openAsOwner } from './account-steps.ts';

const web = useWebStack();

/** The API's own URL (plain localhost: the edge serves pages only on tenants' hosts). */
const apiBase = (tenant: TestTenant) =>
  `${web.origin(tenant).replace(`//${tenant.subdomain}.localhost`, '//localhost')}/api/v1`;

/** What a server of the merchant's gets from an admin endpoint with the key. */
async function statusWithKey(tenant: TestTenant, apiKey: string): Promise<number> {
  const res = await fetch(`${apiBase(tenant)}/users`, {
    headers: { 'x-api-key': apiKey, 'x-app-id': tenant.app, 'x-mid-key': tenant.mid },
  });
  return res.status;
}

describe('API keys', () => {
  it('a key is created and shown once with a copy button; it works; coming back only its prefix is listed; revoked, it answers 401', async () => {
    const tenant = await aTenantWith();
    const page = await openAsOwner(web, tenant, '/console/api-keys');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.origin(tenant) });
    await page.getByText('There are no API keys.').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'console-api-keys-empty');

    await page.getByLabel('Label').fill('Order sync');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('heading', { name: 'Your new key “Order sync”' });
    await shown.waitFor();
    // Focus lands on the news, so that a screen reader reads it first.
    await expect(shown.evaluate((element) => element === element.ownerDocument.activeElement)).resolves.toBe(true);
    await expect(page.getByText('you will not see it again', { exact: false }).isVisible()).resolves.toBe(true);
    const apiKey = (await page.getByTestId('new-api-key').textContent())?.trim() ?? '';
    expect(apiKey).toMatch(/^sk_key_/);
    await expectAccessible(page);
    await screenshot(page, 'console-api-keys-created');

    await page.getByRole('button', { name: 'Copy the key' }).click();
    await page.getByRole('status').filter({ hasText: 'The key is copied to your clipboard.' }).waitFor();
    await expect(page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).resolves.toBe(apiKey);

    // It is a working admin key of this tenant.
    expect(await statusWithKey(tenant, apiKey)).toBe(200);

    // Listed by label and prefix; the prefix is the key's beginning, and the list says who made it.
    const row = page.getByRole('row', { name: /Order sync/ });
    const prefix = ((await row.locator('code').textContent()) ?? '').replace('…', '');
    expect(prefix.length).toBeGreaterThan(4);
    expect(apiKey.startsWith(prefix)).toBe(true);
    await expect(row.textContent()).resolves.toContain(`You (${tenant.adminEmail})`);

    // Leave and come back: the secret is nowhere on the page, only its prefix.
    await page.getByRole('link', { name: 'Roles' }).click();
    await page.getByRole('heading', { level: 1, name: 'Roles' }).waitFor();
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('row', { name: /Order sync/ }).waitFor();
    expect(await page.content()).not.toContain(apiKey);
    await expect(
      page
        .getByRole('row', { name: /Order sync/ })
        .locator('code')
        .textContent(),
    ).resolves.toBe(`${prefix}…`);
    await expect(page.getByRole('row', { name: /Order sync/ }).textContent()).resolves.not.toContain('Never');

    // Revoke, with confirmation; Cancel is where the keyboard starts.
    await page.getByRole('button', { name: 'Revoke Order sync' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect(
      dialog
        .getByRole('button', { name: 'Cancel' })
        .evaluate((element) => element === element.ownerDocument.activeElement),
    ).resolves.toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'console-api-keys-revoke');
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('status').filter({ hasText: 'The key “Order sync” was revoked.' }).waitFor();
    await page.getByText('There are no API keys.').waitFor();
    expect(await statusWithKey(tenant, apiKey)).toBe(401);
  });

  it('a sign-in older than 10 minutes is asked to confirm it is the admin, then the key is created', async () => {
    const tenant = await aTenantWith();
    const page = await openAsOwner(web, tenant, '/console/api-keys');
    await ageSignIns(tenant, tenant.adminUserId);

    await page.getByLabel('Label').fill('Nightly export');
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.waitFor();
    await expect(dialog.getByText('more than 10 minutes ago').isVisible()).resolves.toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'console-api-keys-reauth');

    // Escape backs out: nothing is created, and the page says why.
    await page.keyboard.press('Escape');
    await page.getByRole('alert').filter({ hasText: 'confirm it is you' }).waitFor();
    await expect(page.getByText('There are no API keys.').isVisible()).resolves.toBe(true);

    await page.getByRole('button', { name: 'Create key' }).click();
    await dialog.waitFor();
    // The password field has focus: the dialog is operable from the keyboard alone.
    await page.keyboard.type('not-the-password-1');
    await page.keyboard.press('Enter');
    await dialog.getByRole('alert').filter({ hasText: 'That password is not right.' }).waitFor();
    await dialog.getByLabel('Password', { exact: true }).fill(tenant.adminPassword);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Your new key “Nightly export”' }).waitFor();
    await expect(dialog.isVisible()).resolves.toBe(false);
    const apiKey = (await page.getByTestId('new-api-key').textContent())?.trim() ?? '';
    expect(await statusWithKey(tenant, apiKey)).toBe(200);
  });
});
