import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { aTenantWith, type TestTenant } from '#test/support/auth.ts';
import { expectAccessible, screenshot, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';
import { openAsOwner } from './account-steps.ts';

const web = useWebStack();

/** The tenant's first admin on the settings page. */
const openSettings = (tenant: TestTenant) => openAsOwner(web, tenant, '/console/settings');

/** A computed style property of the first element `selector` finds. */
const styleOf = (page: Page, selector: string, property: 'backgroundColor' | 'color') =>
  page
    .locator(selector)
    .first()
    .evaluate((element, name) => element.ownerDocument.defaultView?.getComputedStyle(element)[name], property);

const saved = (page: Page) => page.getByRole('status').filter({ hasText: 'Your settings are saved' }).waitFor();

describe('merchant settings: dark mode', () => {
  it('the admin sets a dark pair, sees it in the dark preview, saves; a fresh sign-in page in dark mode wears it', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const page = await openSettings(tenant);
    const darkPrimary = page.getByLabel('Primary colour in dark mode', { exact: true });
    const darkSecondary = page.getByLabel('Secondary colour in dark mode', { exact: true });
    // Empty: what the pages derive from the light colours is shown in its place.
    await expect(darkPrimary.inputValue()).resolves.toBe('');
    await expect(darkPrimary.getAttribute('placeholder')).resolves.toBe('#357d6c');
    await expect(darkSecondary.getAttribute('placeholder')).resolves.toBe('#131e1e');
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'console-settings-dark-mode', expectAccessible);

    // The derived pair follows the light primary being edited.
    await page.getByLabel('Primary colour', { exact: true }).fill('#ffcc00');
    await expect(darkPrimary.getAttribute('placeholder')).resolves.toBe('#ffcc00');
    await page.getByLabel('Primary colour', { exact: true }).fill('');

    await darkPrimary.fill('#ffb74d');
    await darkSecondary.fill('#1a1208');
    const preview = page.getByTestId('sign-in-preview');
    await page.getByRole('radio', { name: 'Dark', exact: true }).check();
    await expect(preview.getAttribute('data-scheme')).resolves.toBe('dark');
    await expect(styleOf(page, '[data-testid="sign-in-preview"]', 'backgroundColor')).resolves.toBe('rgb(26, 18, 8)');
    await expect(styleOf(page, '[data-testid="sign-in-preview"] .preview-button', 'backgroundColor')).resolves.toBe(
      'rgb(255, 183, 77)',
    );
    await expect(styleOf(page, '[data-testid="sign-in-preview"] .preview-card', 'backgroundColor')).resolves.toBe(
      'rgb(29, 33, 37)',
    );
    // The page around it still wears the light colours, as the device asks.
    await expect(styleOf(page, '.panel', 'backgroundColor')).resolves.toBe('rgb(255, 255, 255)');
    await expectAccessible(page);
    await screenshot(page, 'console-settings-dark-preview');
    // And a dark device's admin sees the light half on asking for it.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('radio', { name: 'Light', exact: true }).check();
    await expect(styleOf(page, '[data-testid="sign-in-preview"] .preview-button', 'backgroundColor')).resolves.toBe(
      'rgb(31, 111, 92)',
    );
    await expect(styleOf(page, '[data-testid="sign-in-preview"] .preview-card', 'backgroundColor')).resolves.toBe(
      'rgb(255, 255, 255)',
    );
    await expectAccessible(page);
    await screenshot(page, 'console-settings-light-preview-dark-page');
    await page.emulateMedia({ colorScheme: 'light' });

    await page.getByRole('button', { name: 'Save settings' }).click();
    await saved(page);

    const fresh = await web.open(tenant, '/sign-in');
    const button = fresh.getByRole('button', { name: 'Sign in', exact: true });
    await button.waitFor();
    await expect(styleOf(fresh, '.button.primary', 'backgroundColor')).resolves.toBe('rgb(31, 111, 92)');
    await fresh.emulateMedia({ colorScheme: 'dark' });
    await expect(styleOf(fresh, '.button.primary', 'backgroundColor')).resolves.toBe('rgb(255, 183, 77)');
    // Text on it: black, which reads on the orange.
    await expect(styleOf(fresh, '.button.primary', 'color')).resolves.toBe('rgb(0, 0, 0)');
    await expect(styleOf(fresh, 'html', 'backgroundColor')).resolves.toBe('rgb(26, 18, 8)');
    await expectAccessible(fresh);
    await fresh.emulateMedia({ colorScheme: 'light' });
    await screenshotsOnPhoneAndDark(fresh, 'sign-in-dark-pair', expectAccessible);
  });
});

describe('merchant settings: policy links', () => {
  it('an http address is refused at its field; https ones are saved and linked at the foot of every page', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const page = await openSettings(tenant);
    // The foot of the page has no policy links yet (only the language menu).
    await expect(page.getByRole('contentinfo').getByRole('link').count()).resolves.toBe(0);
    const privacy = page.getByLabel('Privacy policy URL (optional)');
    const terms = page.getByLabel('Terms of service URL (optional)');
    await privacy.fill('http://shop.example/privacy');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(privacy.getAttribute('aria-invalid')).resolves.toBe('true');
    await page
      .getByText('Enter the https address of your privacy policy, such as https://shop.example/privacy.')
      .waitFor();
    await expectAccessible(page);
    await screenshot(page, 'console-settings-policy-refused');

    await privacy.fill('https://shop.example/privacy');
    await terms.fill('  https://shop.example/terms ');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await saved(page);
    await expect(terms.inputValue()).resolves.toBe('https://shop.example/terms');
    // The console wears them at once, as it does the brand.
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link').allTextContents()).resolves.toEqual([
      'Privacy policy (opens in a new tab)',
      'Terms of service (opens in a new tab)',
    ]);
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'console-settings-policy-saved', expectAccessible);

    const fresh = await web.open(tenant, '/sign-in');
    await fresh.getByRole('heading', { level: 1 }).waitFor();
    await expect(
      fresh
        .getByRole('contentinfo')
        .getByRole('link', { name: /Terms of service/ })
        .getAttribute('href'),
    ).resolves.toBe('https://shop.example/terms');

    // Emptied, the link is gone.
    await privacy.fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await saved(page);
    await expect(footer.getByRole('link').allTextContents()).resolves.toEqual([
      'Terms of service (opens in a new tab)',
    ]);
  });
});
