import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { aTenantWith } from '#test/support/auth.ts';
import { expectAccessible, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';
import { changeSettings } from './account-steps.ts';

const web = useWebStack();

/** The language the page says it is in, and what its language menu shows. */
async function languageOf(page: Page) {
  await page.getByRole('contentinfo').getByRole('combobox').waitFor();
  return {
    lang: await page.evaluate('document.documentElement.lang'),
    menu: await page.getByRole('contentinfo').getByRole('combobox').inputValue(),
  };
}

describe('the pages speak the reader’s language', () => {
  it('follow the browser’s language; the menu switches them, keeps the pick on reload, and gives focus back', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const page = await web.open(tenant, '/sign-in', { locale: 'de-DE' });
    await expect(languageOf(page)).resolves.toEqual({ lang: 'de', menu: 'de' });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(/^Bei Shop .+ anmelden$/);
    await expect(page.getByRole('button', { name: 'Anmelden', exact: true }).isVisible()).resolves.toBe(true);
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'language-sign-in-de');

    await page.getByLabel('Sprache').selectOption('en');
    await page.getByLabel('Language').waitFor();
    await expect(languageOf(page)).resolves.toEqual({ lang: 'en', menu: 'en' });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(/^Sign in to Shop /);
    await expect(page.evaluate("document.activeElement?.closest('footer') !== null")).resolves.toBe(true);
    await expect(page.evaluate('document.activeElement?.tagName')).resolves.toBe('SELECT');
    await page.reload();
    await expect(languageOf(page)).resolves.toEqual({ lang: 'en', menu: 'en' });
  });

  it('an app’s ui_locales wins over the browser’s languages, and holds on the pages the sign-in goes through', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const page = await web.open(tenant, '/sign-in?ui_locales=de', { locale: 'en-US' });
    await expect(languageOf(page)).resolves.toEqual({ lang: 'de', menu: 'de' });
    await page.goto(new URL('/forgot-password', page.url()).href);
    await expect(languageOf(page)).resolves.toEqual({ lang: 'de', menu: 'de' });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Passwort vergessen?');
  });

  it('a browser in none of the pages’ languages gets the tenant’s language', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const french = await web.open(tenant, '/sign-in', { locale: 'fr-FR' });
    await expect(languageOf(french)).resolves.toEqual({ lang: 'en', menu: 'en' });
    await changeSettings(web, tenant, { defaultLanguage: 'de' });
    const later = await web.open(tenant, '/sign-in', { locale: 'fr-FR' });
    await expect(languageOf(later)).resolves.toEqual({ lang: 'de', menu: 'de' });
    // A browser that names one of them is followed over the tenant's.
    const english = await web.open(tenant, '/sign-in', { locale: 'en-GB' });
    await expect(languageOf(english)).resolves.toEqual({ lang: 'en', menu: 'en' });
  });
});
