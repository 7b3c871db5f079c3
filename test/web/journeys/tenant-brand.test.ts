import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { aRoleName } from '#test/support/admin.ts';
import { aTenantWith, aUser, type TestTenant } from '#test/support/auth.ts';
import { expectAccessible, screenshot, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';
import { ageSignIns, changeSettings, openAccount, openAsOwner } from './account-steps.ts';

const web = useWebStack();

const brandTenant = (tenant: TestTenant, settings: Record<string, unknown>) => changeSettings(web, tenant, settings);

/** A computed style property of the first element `selector` finds. */
const styleOf = (page: Page, selector: string, property: 'backgroundColor' | 'color') =>
  page
    .locator(selector)
    .first()
    .evaluate((element, name) => element.ownerDocument.defaultView?.getComputedStyle(element)[name], property);

/** Every page state in the dark scheme, as in the light: axe clean at its width and at 375 px; then light again. */
async function expectAccessibleInDark(page: Page): Promise<void> {
  await page.emulateMedia({ colorScheme: 'dark' });
  try {
    await expectAccessible(page);
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
  }
}

describe('the pages in a dark colour scheme', () => {
  it('the sign-in page wears the dark palette and the derived dark brand when the device asks for dark', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const page = await web.open(tenant, '/sign-in');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await expectAccessible(page);
    await expect(styleOf(page, '.card', 'backgroundColor')).resolves.toBe('rgb(255, 255, 255)');

    await page.emulateMedia({ colorScheme: 'dark' });
    // The default brand's dark pair, derived from its light pair (web/src/tenant.ts, darkPair).
    await expect(styleOf(page, 'body', 'backgroundColor')).resolves.toBe('rgba(0, 0, 0, 0)');
    await expect(styleOf(page, 'html', 'backgroundColor')).resolves.toBe('rgb(19, 30, 30)');
    await expect(styleOf(page, '.card', 'backgroundColor')).resolves.toBe('rgb(29, 33, 37)');
    await expect(styleOf(page, '.button.primary', 'backgroundColor')).resolves.toBe('rgb(53, 125, 108)');
    await expect(styleOf(page, 'input', 'backgroundColor')).resolves.toBe('rgb(20, 23, 26)');
    await expectAccessible(page);
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshotsOnPhoneAndDark(page, 'dark-sign-in', expectAccessible);

    // A refused sign-in: the alert and the field's problem read on the dark card too.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByLabel('E-mail address').fill(tenant.adminEmail);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'dark-sign-in-refused');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('the account page and its re-authentication dialog, light and dark', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const page = await openAccount(web, tenant, user);
    await expectAccessibleInDark(page);
    await screenshotsOnPhoneAndDark(page, 'dark-account', expectAccessible);

    await ageSignIns(tenant, user.id);
    const section = page.getByRole('region', { name: 'E-mail address' });
    await section.getByLabel('New e-mail address').fill(`moved-${Date.now()}@shop.test`);
    await section.getByRole('button', { name: 'Send a code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.waitFor();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(styleOf(page, 'dialog.reauth', 'backgroundColor')).resolves.toBe('rgb(29, 33, 37)');
    await expect(styleOf(page, 'dialog.reauth', 'color')).resolves.toBe('rgb(227, 230, 233)');
    await page.emulateMedia({ colorScheme: 'light' });
    await expectAccessible(page);
    await expectAccessibleInDark(page);
    await screenshotsOnPhoneAndDark(page, 'dark-account-reauth');
  });

  it('the console, its status badges and its confirmation dialog, light and dark', async () => {
    const tenant = await aTenantWith();
    await aUser(tenant);
    const page = await openAsOwner(web, tenant, '/console/users', { ready: null });
    await page.getByRole('region', { name: 'Users' }).waitFor();
    await expectAccessible(page);
    await expectAccessibleInDark(page);
    await screenshotsOnPhoneAndDark(page, 'dark-console-users', expectAccessible);

    await page.getByRole('link', { name: 'Roles' }).first().click();
    const name = aRoleName('Packer');
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Priority', { exact: true }).fill('40');
    await page.getByRole('button', { name: 'Create role' }).click();
    await page.getByRole('button', { name: `Delete ${name}` }).click();
    await page.getByRole('dialog').waitFor();
    await expectAccessible(page);
    await expectAccessibleInDark(page);
    await screenshotsOnPhoneAndDark(page, 'dark-console-confirm');
  });
});

describe("the tenant's brand on every page", () => {
  it('the favicon is the initial on the primary colour, or the logo; the title names the tenant once', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    await brandTenant(tenant, { name: 'Fernhouse Plants', primaryColor: '#7a1fa2' });
    const page = await web.open(tenant, '/sign-in');
    await page.getByRole('heading', { level: 1, name: 'Sign in to Fernhouse Plants' }).waitFor();
    await expect(page.title()).resolves.toBe('Sign in · Fernhouse Plants');
    const icon = page.locator('link[rel="icon"]');
    await expect(icon.count()).resolves.toBe(1);
    const href = (await icon.getAttribute('href')) ?? '';
    expect(href).toMatch(/^data:image\/svg\+xml,/);
    const svg = decodeURIComponent(href.slice('data:image/svg+xml,'.length));
    expect(svg).toContain('fill="#7a1fa2"');
    expect(svg).toContain('>F</text>');
    // The icon is an image the page can draw: the browser loads it under the page's Content-Security-Policy.
    const drawn = `new Promise((resolve) => {
      const image = new Image();
      image.onload = () => resolve(image.naturalWidth);
      image.onerror = () => resolve(0);
      image.src = ${JSON.stringify(href)};
    })`;
    await expect(page.evaluate(drawn)).resolves.toBeGreaterThan(0);

    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Create your Fernhouse Plants account' }).waitFor();
    await expect(page.title()).resolves.toBe('Create your account · Fernhouse Plants');
    await page.getByRole('link', { name: 'I already have an account: sign in' }).click();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { level: 1, name: 'Forgot your password?' }).waitFor();
    await expect(page.title()).resolves.toBe('Forgot your password? · Fernhouse Plants');

    // With a logo: the logo is the icon, and it sits on a light tile in the card.
    const logo = `${web.origin(tenant)}/favicon.svg`.replace(/^http:/, 'https:');
    await brandTenant(tenant, { logoUrl: logo });
    const withLogo = await web.open(tenant, '/sign-in');
    await withLogo.getByRole('heading', { level: 1 }).waitFor();
    await expect(withLogo.locator('link[rel="icon"]').getAttribute('href')).resolves.toBe(logo);
    await expect(styleOf(withLogo, '.card .logo-tile', 'backgroundColor')).resolves.toBe('rgb(255, 255, 255)');
  });

  it('the logo sits on a light tile on the brand-coloured top bar, in both schemes; the title names the page', async () => {
    const tenant = await aTenantWith();
    // A logo drawn in the brand colour: without its tile it would vanish on the bar.
    const logo =
      'data:image/svg+xml,' +
      encodeURIComponent(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#2f5d3a"/></svg>',
      );
    await brandTenant(tenant, { name: 'Fernhouse Plants', primaryColor: '#2f5d3a' });
    const page = await openAsOwner(web, tenant, '/console/users', { ready: null });
    await page.getByRole('region', { name: 'Users' }).waitFor();
    await expect(page.title()).resolves.toBe('Users · Fernhouse Plants');
    // Without a logo, the initial's tile on the bar turns the other way round: the primary colour on white.
    await expect(styleOf(page, '.topbar .logo-letter', 'backgroundColor')).resolves.toBe('rgb(255, 255, 255)');
    await expect(styleOf(page, '.topbar .logo-letter', 'color')).resolves.toBe('rgb(47, 93, 58)');
    // The service takes http(s) logos only; a data: logo is put in the page here to show what a tile does.
    await page.locator('.topbar .logo-letter').evaluate((letter, src) => {
      letter.insertAdjacentHTML('afterend', `<span class="logo-tile"><img class="logo" alt="" src="${src}"></span>`);
      letter.remove();
    }, logo);
    await expect(styleOf(page, '.topbar .logo-tile', 'backgroundColor')).resolves.toBe('rgb(255, 255, 255)');
    await screenshotsOnPhoneAndDark(page, 'brand-logo-tile', expectAccessible);
  });

  it("the tenant's privacy policy and terms are linked at the foot of every page, and only when set", async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const bare = await web.open(tenant, '/sign-in');
    await bare.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await expect(bare.getByRole('contentinfo').getByRole('link').count()).resolves.toBe(0);

    await brandTenant(tenant, {
      privacyPolicyUrl: 'https://shop.example/privacy',
      termsUrl: 'https://shop.example/terms',
    });
    for (const [path, signedIn] of [
      ['/sign-in', false],
      ['/forgot-password', false],
      ['/no-such-page', false],
      ['/account', true],
    ] as const) {
      const page = signedIn ? await openAccount(web, tenant, user) : await web.open(tenant, path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const footer = page.getByRole('contentinfo');
      await expect(footer.getByRole('link').allTextContents(), path).resolves.toEqual([
        'Privacy policy (opens in a new tab)',
        'Terms of service (opens in a new tab)',
      ]);
      await expect(footer.getByRole('link', { name: /Privacy policy/ }).getAttribute('href'), path).resolves.toBe(
        'https://shop.example/privacy',
      );
      await expect(footer.getByRole('link', { name: /Terms/ }).getAttribute('target')).resolves.toBe('_blank');
      await expectAccessible(page);
      if (path === '/sign-in' || signedIn) {
        await expectAccessibleInDark(page);
        await screenshotsOnPhoneAndDark(page, `footer-${signedIn ? 'account' : 'sign-in'}`);
      }
      await page.context().close();
    }

    // One of the two: only that one.
    await brandTenant(tenant, { privacyPolicyUrl: null });
    const one = await web.open(tenant, '/sign-in');
    await one.getByRole('heading', { level: 1 }).waitFor();
    await expect(one.getByRole('contentinfo').getByRole('link').allTextContents()).resolves.toEqual([
      'Terms of service (opens in a new tab)',
    ]);
  });
});
