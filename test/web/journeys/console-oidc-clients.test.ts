import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { aTenantWith } from '#test/support/auth.ts';
import { expectAccessible, screenshot, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';
import { ageSignIns, openAsOwner } from './account-steps.ts';

const web = useWebStack();

const isFocused = (page: Page, name: string) =>
  page.getByRole('heading', { name }).evaluate((element) => element === element.ownerDocument.activeElement);

describe('Sign-in clients', () => {
  it('a confidential client is registered and its secret shown once; a fragment is refused at its field; rotated, a new secret; deleted, gone', async () => {
    const tenant = await aTenantWith();
    const page = await openAsOwner(web, tenant, '/console/oidc-clients');
    await page.getByText('There are no sign-in clients.').waitFor();
    // The issuer an app's library is given: this tenant's own hosted origin.
    await expect(page.locator('code.issuer').innerText()).resolves.toBe(web.origin(tenant));
    await expect(page.getByRole('link', { name: 'Sign-in clients' }).getAttribute('aria-current')).resolves.toBe(
      'page',
    );
    await expectAccessible(page);
    await screenshot(page, 'console-oidc-clients-empty');

    // A public client is not offered client credentials: it has no secret to sign in with.
    await page.getByLabel('Public').check();
    await expect(page.getByLabel('Client credentials').count()).resolves.toBe(0);
    await page.getByLabel('Confidential').check();
    await expect(page.getByLabel('Client credentials').isChecked()).resolves.toBe(false);

    // A redirect URI with a fragment: refused at the field, as a sentence naming it.
    await page.getByLabel('Name', { exact: true }).fill('Shop back office');
    await page.getByLabel('Confidential').check();
    await page
      .getByLabel('Redirect URIs', { exact: true })
      .fill('https://shop.example.com/callback\nhttps://shop.example.com/cb#part');
    await page.getByRole('button', { name: 'Register client' }).click();
    const fieldProblem = page.getByText('“https://shop.example.com/cb#part” must not have a fragment.');
    await fieldProblem.waitFor();
    await expect(page.getByLabel('Redirect URIs', { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
    // The field's description names the problem, so that a screen reader says it at the field.
    const problemId = (await fieldProblem.getAttribute('id')) ?? 'none';
    await expect(page.getByLabel('Redirect URIs', { exact: true }).getAttribute('aria-describedby')).resolves.toContain(
      problemId,
    );
    await page.getByRole('alert').filter({ hasText: 'Check the highlighted fields.' }).waitFor();
    await expect(page.getByText('There are no sign-in clients.').isVisible()).resolves.toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'console-oidc-clients-fragment');

    // Two good redirect URIs: registered; the secret is shown this once, focused.
    await page
      .getByLabel('Redirect URIs', { exact: true })
      .fill('https://shop.example.com/callback\nhttp://localhost:5173/callback');
    await page.getByRole('button', { name: 'Register client' }).click();
    await page.getByRole('heading', { name: '“Shop back office” is registered' }).waitFor();
    await expect(isFocused(page, '“Shop back office” is registered')).resolves.toBe(true);
    await expect(page.getByText('you will not see it again', { exact: false }).isVisible()).resolves.toBe(true);
    const first = (await page.getByTestId('client-secret').textContent())?.trim() ?? '';
    expect(first).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    await expect(page.getByText('must not have a fragment').count()).resolves.toBe(0);

    const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Shop back office' }) });
    await expect(item.textContent()).resolves.toContain('https://shop.example.com/callback');
    await expect(item.textContent()).resolves.toContain('http://localhost:5173/callback');
    await expect(item.textContent()).resolves.toContain('Confidential');
    await expect(item.textContent()).resolves.toContain('Authorization code, Refresh token');
    await expectAccessible(page);
    await screenshot(page, 'console-oidc-clients-created');

    // Leave and come back: the secret is nowhere on the page; the client is listed.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await page.getByRole('link', { name: 'Sign-in clients' }).click();
    await item.waitFor();
    expect(await page.content()).not.toContain(first);
    await expect(page.getByTestId('client-secret').count()).resolves.toBe(0);

    // Rotate, with confirmation: a new secret, shown once, not the first.
    await item.getByRole('button', { name: 'Rotate secret of Shop back office' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect(
      dialog
        .getByRole('button', { name: 'Cancel' })
        .evaluate((element) => element === element.ownerDocument.activeElement),
    ).resolves.toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'console-oidc-clients-rotate');
    await dialog.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('heading', { name: 'The new secret of “Shop back office”' }).waitFor();
    const second = (await page.getByTestId('client-secret').textContent())?.trim() ?? '';
    expect(second).toMatch(/^cs_/);
    expect(second).not.toBe(first);
    await expectAccessible(page);
    await screenshot(page, 'console-oidc-clients-rotated');

    // Delete, with confirmation: gone, and still gone after a reload.
    await item.getByRole('button', { name: 'Delete Shop back office' }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete client' }).click();
    await page.getByRole('status').filter({ hasText: 'The client “Shop back office” was deleted.' }).waitFor();
    await page.getByText('There are no sign-in clients.').waitFor();
    await expect(page.getByTestId('client-secret').count()).resolves.toBe(0);
    await expectAccessible(page);
    await page.reload();
    await page.getByText('There are no sign-in clients.').waitFor();
    await expect(page.getByRole('heading', { name: 'Shop back office' }).count()).resolves.toBe(0);
    await screenshot(page, 'console-oidc-clients-deleted');
  });

  it('a client is changed in its place: a name at once, its addresses once the admin confirms it is them', async () => {
    const tenant = await aTenantWith();
    const page = await openAsOwner(web, tenant, '/console/oidc-clients');
    await page.getByLabel('Name', { exact: true }).fill('Shop app');
    await page.getByLabel('Public').check();
    await page.getByLabel('Redirect URIs', { exact: true }).fill('https://shop.example.com/callback');
    await page.getByRole('button', { name: 'Register client' }).click();
    await page.getByRole('status').filter({ hasText: 'The client “Shop app” is registered.' }).waitFor();
    const item = (name: string) =>
      page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });

    // Edit opens the form in the client's place, the name focused; the type is shown, not offered.
    await item('Shop app').getByRole('button', { name: 'Edit Shop app' }).click();
    const form = page.getByRole('form', { name: 'Change Shop app' });
    await form.waitFor();
    await expect(
      form.getByLabel('Name', { exact: true }).evaluate((element) => element === element.ownerDocument.activeElement),
    ).resolves.toBe(true);
    await expect(form.textContent()).resolves.toContain('Public (no secret)');
    await expect(form.getByRole('radio', { name: 'Public' }).count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'console-oidc-clients-edit');

    // A bad address is said at its field, as when registering.
    await form
      .getByLabel('Redirect URIs', { exact: true })
      .fill('https://shop.example.com/callback\nhttp://shop.example.com/other');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByText('“http://shop.example.com/other” must use https', { exact: false }).waitFor();
    await expectAccessible(page);

    // The name and a lifetime alone: saved at once (no recent sign-in needed for them).
    await ageSignIns(tenant, tenant.adminUserId);
    await form.getByLabel('Redirect URIs', { exact: true }).fill('https://shop.example.com/callback');
    await form.getByLabel('Name', { exact: true }).fill('Shop app (web)');
    await form.getByLabel('Access token lifetime (seconds)').fill('600');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'The client “Shop app (web)” was saved.' }).waitFor();
    await expect(item('Shop app (web)').textContent()).resolves.toContain('Access 10 minutes');
    await expect(page.getByRole('dialog', { name: 'Confirm it is you' }).count()).resolves.toBe(0);

    // New redirect URIs: the admin confirms it is them first, then they are saved.
    await item('Shop app (web)').getByRole('button', { name: 'Edit Shop app (web)' }).click();
    await page
      .getByRole('form', { name: 'Change Shop app (web)' })
      .getByLabel('Redirect URIs', { exact: true })
      .fill('https://shop.example.com/callback\nhttps://shop.example.com/mobile');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const prompt = page.getByRole('dialog', { name: 'Confirm it is you' });
    await prompt.waitFor();
    await prompt.getByLabel('Password', { exact: true }).fill(tenant.adminPassword);
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'The client “Shop app (web)” was saved.' }).waitFor();
    await expect(item('Shop app (web)').textContent()).resolves.toContain('https://shop.example.com/mobile');
    await expectAccessible(page);
    await screenshot(page, 'console-oidc-clients-edited');

    // Nothing changed: nothing sent, and said so.
    await item('Shop app (web)').getByRole('button', { name: 'Edit Shop app (web)' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Nothing was changed.' }).waitFor();
    await expect(page.getByRole('form', { name: 'Change Shop app (web)' }).count()).resolves.toBe(0);
  });

  it('a sign-in older than 10 minutes confirms it is the admin, then the client is registered and its secret rotated', async () => {
    const tenant = await aTenantWith();
    const page = await openAsOwner(web, tenant, '/console/oidc-clients');
    await ageSignIns(tenant, tenant.adminUserId);

    await page.getByLabel('Name', { exact: true }).fill('Warehouse');
    await page.getByLabel('Redirect URIs', { exact: true }).fill('https://warehouse.example.com/callback');
    await page.getByLabel('RS256').check();
    await page.getByRole('button', { name: 'Register client' }).click();
    const prompt = page.getByRole('dialog', { name: 'Confirm it is you' });
    await prompt.waitFor();
    await expectAccessible(page);
    await screenshot(page, 'console-oidc-clients-reauth');
    await prompt.getByLabel('Password', { exact: true }).fill(tenant.adminPassword);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: '“Warehouse” is registered' }).waitFor();
    const first = (await page.getByTestId('client-secret').textContent())?.trim() ?? '';
    const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Warehouse' }) });
    await expect(item.textContent()).resolves.toContain('RS256');

    // Rotating asks again once the proof is old: the prompt opens over the confirmation, and the rotation goes on.
    await ageSignIns(tenant, tenant.adminUserId);
    await item.getByRole('button', { name: 'Rotate secret of Warehouse' }).click();
    await page
      .getByRole('dialog')
      .filter({ hasText: 'Make a new secret' })
      .getByRole('button', { name: 'Rotate secret' })
      .click();
    await prompt.waitFor();
    await prompt.getByLabel('Password', { exact: true }).fill(tenant.adminPassword);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'The new secret of “Warehouse”' }).waitFor();
    const second = (await page.getByTestId('client-secret').textContent())?.trim() ?? '';
    expect(second).toMatch(/^cs_/);
    expect(second).not.toBe(first);
    // Both dialogs close (the prompt's and the rotation's, each as its request settles), none left over the page.
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  });
});
