import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { aTenantWith } from '#test/support/auth.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';
import { openAsOwner } from './account-steps.ts';

const web = useWebStack();

/** The computed background of an element, as `rgb(r, g, b)`. */
const backgroundOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluate((element) => element.ownerDocument.defaultView?.getComputedStyle(element).backgroundColor);

describe('merchant settings', () => {
  it('the admin changes the name and primary colour, sees the preview follow before saving, saves; a fresh sign-in page wears them', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const page = await openAsOwner(web, tenant, '/console/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    const name = page.getByLabel('Name', { exact: true });
    await expect(name.inputValue()).resolves.toMatch(/^Shop /);
    await expectAccessible(page);
    await screenshot(page, 'console-settings');

    const preview = page.getByTestId('sign-in-preview');
    await expect(preview.getByText(`Sign in to ${await name.inputValue()}`).isVisible()).resolves.toBe(true);

    // Typing changes the preview at once, before anything is saved.
    await name.fill('Fern & Moss');
    await page.getByLabel('Primary colour', { exact: true }).fill('#7a1fa2');
    await expect(preview.getByText('Sign in to Fern & Moss').isVisible()).resolves.toBe(true);
    await expect(backgroundOf(page, '[data-testid="sign-in-preview"] .preview-button')).resolves.toBe(
      'rgb(122, 31, 162)',
    );
    // The page itself still wears the saved brand.
    await expect(backgroundOf(page, '.topbar')).resolves.not.toBe('rgb(122, 31, 162)');
    // And nothing reached the service yet: a fresh sign-in page shows the old name.
    const before = await web.open(tenant, '/sign-in');
    await before.getByRole('heading', { name: /^Sign in to Shop / }).waitFor();
    await before.context().close();
    await expectAccessible(page);
    await screenshot(page, 'console-settings-preview');

    // The colour picker and the text field are one value.
    await expect(page.getByLabel('Pick the primary colour', { exact: true }).inputValue()).resolves.toBe('#7a1fa2');

    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Your settings are saved' }).waitFor();
    // The console wears the new brand at once: its top bar, its name.
    await expect(backgroundOf(page, '.topbar')).resolves.toBe('rgb(122, 31, 162)');
    await expect(page.locator('.topbar .brand-name').textContent()).resolves.toBe('Fern & Moss');
    await expectAccessible(page);
    await screenshot(page, 'console-settings-saved');

    const fresh = await web.open(tenant, '/sign-in');
    await fresh.getByRole('heading', { name: 'Sign in to Fern & Moss' }).waitFor();
    const button = fresh.getByRole('button', { name: 'Sign in', exact: true });
    await expect(
      button.evaluate((element) => element.ownerDocument.defaultView?.getComputedStyle(element).backgroundColor),
    ).resolves.toBe('rgb(122, 31, 162)');
    await expectAccessible(fresh);
    await screenshot(fresh, 'sign-in-rebranded');
  });

  it('a colour that is not #rrggbb is refused as a sentence and nothing is saved', async () => {
    const tenant = await aTenantWith();
    const page = await openAsOwner(web, tenant, '/console/settings');
    await page.getByLabel('Secondary colour', { exact: true }).fill('green');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const field = page.getByLabel('Secondary colour', { exact: true });
    await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.getByText('Enter a colour as # and six hex digits, like #1f6f5c.').isVisible()).resolves.toBe(
      true,
    );
    await expectAccessible(page);
    await page.reload();
    await page.locator('#main form').waitFor();
    await expect(page.getByLabel('Secondary colour', { exact: true }).inputValue()).resolves.toBe('');
  });

  it('switching to codes by e-mail: a fresh sign-in page asks for no password', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const page = await openAsOwner(web, tenant, '/console/settings');
    await page.getByRole('radio', { name: /Code by e-mail/ }).check();
    // The preview follows the mode too.
    const preview = page.getByTestId('sign-in-preview');
    await expect(preview.getByText('E-mail me a code').isVisible()).resolves.toBe(true);
    await expect(preview.getByText('Password', { exact: true }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Your settings are saved' }).waitFor();

    const fresh = await web.open(tenant, '/sign-in');
    await fresh.getByRole('button', { name: 'E-mail me a code' }).waitFor();
    await expect(fresh.getByLabel('Password').count()).resolves.toBe(0);
    await expectAccessible(fresh);
    await screenshot(fresh, 'sign-in-otp-email');
  });

  it("the tenant's language: a fresh page in a browser asking for neither language speaks it", async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const page = await openAsOwner(web, tenant, '/console/settings');
    await page.getByRole('radio', { name: /^German\./ }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Your settings are saved' }).waitFor();
    // The admin reads the console in their own language still.
    await expect(page.evaluate('document.documentElement.lang')).resolves.toBe('en');

    const french = await web.open(tenant, '/sign-in', { locale: 'fr-FR' });
    await french.getByRole('button', { name: 'Anmelden', exact: true }).waitFor();
    await expect(french.evaluate('document.documentElement.lang')).resolves.toBe('de');
    await expectAccessible(page);
  });

  it('origins are added and removed, each checked as an origin, and kept on save', async () => {
    const tenant = await aTenantWith({ origins: ['https://shop.example'] });
    const page = await openAsOwner(web, tenant, '/console/settings');
    const origins = page.getByRole('list', { name: 'Allowed origins' });
    await expect(origins.getByRole('listitem').allTextContents()).resolves.toEqual([
      expect.stringContaining('https://shop.example'),
    ]);
    const add = page.getByLabel('Add an origin');
    await add.fill('https://orders.example/path');
    await add.press('Enter');
    await expect(page.getByText(/Enter an origin such as https:\/\/shop\.example/).isVisible()).resolves.toBe(true);
    await expect(add.getAttribute('aria-invalid')).resolves.toBe('true');
    await add.fill('https://orders.example');
    await page.getByRole('button', { name: 'Add origin' }).click();
    await page.getByRole('button', { name: 'Remove https://shop.example' }).click();
    await expect(add.evaluate((element) => element === element.ownerDocument.activeElement)).resolves.toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'console-settings-origins');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Your settings are saved' }).waitFor();

    await page.reload();
    await page.getByRole('list', { name: 'Allowed origins' }).waitFor();
    await expect(
      page.getByRole('list', { name: 'Allowed origins' }).getByRole('listitem').allTextContents(),
    ).resolves.toEqual([expect.stringContaining('https://orders.example')]);
  });
});
