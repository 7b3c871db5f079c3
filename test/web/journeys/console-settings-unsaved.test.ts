import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { aTenantWith, type TestTenant } from '#test/support/auth.ts';
import { expectAccessible, PHONE, screenshot, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';
import { openAsOwner } from './account-steps.ts';

const web = useWebStack();

/** The tenant's first admin on the settings page. */
const openSettings = (tenant: TestTenant) => openAsOwner(web, tenant, '/console/settings');

const unsaved = (page: Page) => page.locator('.save-bar').getByText('Unsaved changes');
const leaveDialog = (page: Page) => page.getByRole('dialog', { name: /Your changes to the settings are not saved/ });
const isFocused = (page: Page, label: string) =>
  page.getByLabel(label, { exact: true }).evaluate((element) => element === element.ownerDocument.activeElement);
/** Whether the element is wholly on the screen, and not under the sticky save bar. */
const inView = (page: Page, label: string) =>
  page.getByLabel(label, { exact: true }).evaluate((element) => {
    const box = element.getBoundingClientRect();
    const bar = element.ownerDocument.querySelector('.save-bar')?.getBoundingClientRect();
    const height = element.ownerDocument.defaultView?.innerHeight ?? 0;
    return box.top >= 0 && box.bottom <= Math.min(height, bar?.top ?? height);
  });
const scrollToEnd = (page: Page) =>
  page.locator('.save-bar').evaluate((bar) => bar.ownerDocument.defaultView?.scrollTo(0, 1e6));

describe('merchant settings: what is not saved yet', () => {
  it('the save bar stays on screen and says “Unsaved changes” while the form differs from what was saved', async () => {
    const tenant = await aTenantWith();
    const page = await openSettings(tenant);
    const bar = page.locator('.save-bar');
    await expect(unsaved(page).count()).resolves.toBe(0);
    // Sticky: at the foot of the screen, though the form runs on below it.
    const barBox = await bar.boundingBox();
    expect((barBox?.y ?? 0) + (barBox?.height ?? 0)).toBeLessThanOrEqual(900);
    expect(await page.evaluate('document.documentElement.scrollHeight')).toBeGreaterThan(900);

    const name = page.getByLabel('Name', { exact: true });
    const original = await name.inputValue();
    await name.fill('Fernhouse Plants');
    await unsaved(page).waitFor();
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'console-settings-unsaved', expectAccessible);
    // Typing it back as it was: nothing to save.
    await name.fill(original);
    await expect(unsaved(page).count()).resolves.toBe(0);

    await page.getByRole('checkbox', { name: /remove their authenticator app/ }).uncheck();
    await unsaved(page).waitFor();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Your settings are saved' }).waitFor();
    await expect(unsaved(page).count()).resolves.toBe(0);
  });

  it('leaving with unsaved changes asks first: a link, Sign out and Back ask in a dialog, a reload asks the browser', async () => {
    const tenant = await aTenantWith();
    // Come to the settings from another console page, so that Back stays in the console.
    const page = await openAsOwner(web, tenant, '/console/users', { ready: null });
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
    await page.locator('#main form').waitFor();
    // Nothing changed: the links just go.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Roles' }).click();
    await page.waitForURL((url) => url.pathname === '/console/roles');
    await page.goBack();
    await page.locator('#main form').waitFor();

    await page.getByLabel('Secondary colour', { exact: true }).fill('#eef3ec');
    await unsaved(page).waitFor();

    // A link of the console: the dialog asks, Stay is focused, Stay keeps the page and what was typed.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Roles' }).click();
    const dialog = leaveDialog(page);
    await dialog.waitFor();
    await expect(
      dialog.getByRole('button', { name: 'Stay on this page' }).evaluate((b) => b === b.ownerDocument.activeElement),
    ).resolves.toBe(true);
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'console-settings-leave-dialog', expectAccessible);
    await page.keyboard.press('Enter');
    await expect(dialog.count()).resolves.toBe(0);
    expect(new URL(page.url()).pathname).toBe('/console/settings');
    await expect(page.getByLabel('Secondary colour', { exact: true }).inputValue()).resolves.toBe('#eef3ec');

    // Escape stays too; Sign out asks the same.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await expect(dialog.count()).resolves.toBe(0);
    expect(new URL(page.url()).pathname).toBe('/console/settings');

    // The browser's Back button: asked, and staying keeps the address.
    await page.goBack();
    await dialog.waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/settings');
    await dialog.getByRole('button', { name: 'Stay on this page' }).click();
    await expect(page.getByLabel('Secondary colour', { exact: true }).inputValue()).resolves.toBe('#eef3ec');

    // Closing or reloading the page: the browser's own question (beforeunload). Dismissed, the page stays.
    const question = page.waitForEvent('dialog');
    // The page's script waits on the question: the reload is not awaited before it is answered.
    const reloading = page.evaluate('location.reload()').catch(() => undefined);
    const asked = await question;
    expect(asked.type()).toBe('beforeunload');
    await asked.dismiss();
    await reloading;
    await expect(page.getByLabel('Secondary colour', { exact: true }).inputValue()).resolves.toBe('#eef3ec');

    // Leave, after Back: the step back is taken after all.
    await page.goBack();
    await dialog.getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL((url) => url.pathname === '/console/users');
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
    await page.locator('#main form').waitFor();
    await expect(page.getByLabel('Secondary colour', { exact: true }).inputValue()).resolves.toBe('');
    await page.getByLabel('Secondary colour', { exact: true }).fill('#eef3ec');

    // Leave, after a link: the link is followed after all, without saving.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'API keys' }).click();
    await dialog.getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL((url) => url.pathname === '/console/api-keys');
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    // Gone from the settings page, nothing asks any more, and nothing was saved.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
    await page.locator('#main form').waitFor();
    await expect(page.getByLabel('Secondary colour', { exact: true }).inputValue()).resolves.toBe('');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Users' }).click();
    await page.waitForURL((url) => url.pathname === '/console/users');
  });

  it('a refused save brings the first field with a problem into view and focuses it, on a wide screen and a phone', async () => {
    const tenant = await aTenantWith();
    const page = await openSettings(tenant);
    for (const width of [1200, PHONE.width]) {
      await page.setViewportSize(width === 1200 ? { width: 1200, height: 900 } : PHONE);
      await page.getByLabel('Name', { exact: true }).fill('');
      await page.getByLabel('Terms of service URL (optional)', { exact: true }).fill('http://shop.example/terms');
      await scrollToEnd(page);
      await page.getByRole('button', { name: 'Save settings' }).click();
      // Name, at the top, is the first of the two.
      await expect(isFocused(page, 'Name')).resolves.toBe(true);
      await expect(inView(page, 'Name')).resolves.toBe(true);
      await expect(page.getByRole('alert').filter({ hasText: 'Check the highlighted fields' }).count()).resolves.toBe(
        1,
      );
      await expectAccessible(page);
      await screenshot(page, `console-settings-first-problem-${width}`);

      // Named, the next save goes to the terms, further down.
      await page.getByLabel('Name', { exact: true }).fill('Fernhouse Plants');
      await page.evaluate('window.scrollTo(0, 0)');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect(isFocused(page, 'Terms of service URL (optional)')).resolves.toBe(true);
      await expect(inView(page, 'Terms of service URL (optional)')).resolves.toBe(true);
      await page.getByLabel('Terms of service URL (optional)', { exact: true }).fill('');
    }
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Your settings are saved' }).waitFor();
  });
});
