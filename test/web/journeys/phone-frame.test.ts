import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { expectAccessible, PHONE, screenshot, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';
import { openAsOwner } from './account-steps.ts';

const web = useWebStack();

describe('the signed-in pages on a phone (375 px)', () => {
  it('fold the top links into a menu, the console sections into one line below the heading; tables scroll in place', async () => {
    const tenant = await aTenantWith();
    await aUser(tenant);
    const page = await openAsOwner(web, tenant, '/console/users', { ready: null });
    await page.setViewportSize(PHONE);
    await page.getByRole('region', { name: 'Users' }).waitFor();

    // The top bar: the links are behind "Menu", which opens and closes by keyboard.
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(page.getByRole('button', { name: 'Sign out' }).isVisible()).resolves.toBe(false);
    await menu.focus();
    await page.keyboard.press('Enter');
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(page.getByRole('button', { name: 'Sign out' }).isVisible()).resolves.toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'phone-menu-open');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(page.evaluate('document.activeElement?.textContent')).resolves.toBe('Menu');

    // The console's sections: one line below the heading that names where you are, not a list before it.
    const heading = await page.getByRole('heading', { level: 1 }).boundingBox();
    const sections = page.locator('details.section-menu summary');
    await expect(sections.textContent()).resolves.toBe('Console sections: Users');
    expect((await sections.boundingBox())?.y).toBeGreaterThan(heading?.y ?? Number.POSITIVE_INFINITY);
    await sections.click();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL((url) => url.pathname === '/console/api-keys');
    await expect(sections.textContent()).resolves.toBe('Console sections: API keys');

    // A table wider than the screen scrolls inside its own region, which a keyboard can reach; the page does not.
    await page.goto(`${web.origin(tenant)}/console/roles`);
    const roles = page.getByRole('region', { name: 'Roles', exact: true });
    // Its rows, not the placeholders shown while they are read.
    await roles.getByText('SUPER_ADMIN').waitFor();
    await expect(roles.getAttribute('tabindex')).resolves.toBe('0');
    const widths = await roles.evaluate((region) => [region.clientWidth, region.scrollWidth]);
    expect(widths[1]).toBeGreaterThan(widths[0] ?? Number.POSITIVE_INFINITY);
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'phone-console-roles', expectAccessible);
  });

  it('the account page: its sections are one line below the heading; the sessions table scrolls in place', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const page = await web.openSignedIn(tenant, user, '/account');
    await page.setViewportSize(PHONE);
    await page.getByRole('region', { name: 'Your sessions' }).waitFor();
    await page.locator('details.section-menu summary').click();
    // The one beside the page on a wide screen is not there for a phone's screen reader either.
    await expect(page.getByRole('navigation', { name: 'Account sections' }).count()).resolves.toBe(1);
    await page.getByRole('link', { name: 'Where you are signed in' }).click();
    await page.waitForURL((url) => url.hash === '#sessions');
    await expect(page.locator('details.section-menu').getAttribute('open')).resolves.toBeNull();
    await expectAccessible(page);
    await screenshot(page, 'phone-account-sessions');
  });
});
