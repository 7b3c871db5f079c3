import { describe, expect, it } from 'vitest';
import { aTenantWith } from '#test/support/auth.ts';
import { expectAccessible, screenshot, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';

const web = useWebStack();

describe('pages that cannot be what was asked for', () => {
  it('an unknown path says so, with a way back to sign-in', async () => {
    const tenant = await aTenantWith();
    const page = await web.open(tenant, '/no/such/page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Go to sign-in' }).click();
    await page.waitForURL(/\/sign-in$/);
  });

  it('a page that could not start (the service unreachable) offers Try again, which starts it afresh', async () => {
    const tenant = await aTenantWith();
    const page = await web.open(tenant, '/sign-in');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The service answers the tenant's discovery with a 503 once: the page cannot know whose it is.
    await page.route('**/api/v1/auth/discovery**', (route) =>
      route.fulfill({
        status: 503,
        headers: { 'content-type': 'application/problem+json', 'retry-after': '1' },
        body: JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, code: 'UNAVAILABLE' }),
      }),
    );
    await page.reload();
    await page.getByRole('heading', { name: 'This page cannot be shown' }).waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/\S/);
    await expectAccessible(page);
    await screenshot(page, 'cannot-be-shown');
    await screenshotsOnPhoneAndDark(page, 'cannot-be-shown');
    await page.unroute('**/api/v1/auth/discovery**');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });

  it('a page whose texts cannot be fetched says so in English, and Try again starts it afresh', async () => {
    const tenant = await aTenantWith();
    const page = await web.open(tenant, '/sign-in', { locale: 'de-DE' });
    await page.getByRole('button', { name: 'Anmelden', exact: true }).waitFor();
    // The German texts of the first page fail to arrive, as a flaky network might drop them.
    const texts = /\/assets\/boot-[^/]+\.js$/;
    await page.route(texts, (route) => route.abort('connectionfailed'));
    await page.reload();
    await page.getByRole('heading', { name: 'This page cannot be shown' }).waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'We could not reach the service. Check your connection and try again.',
    );
    await expectAccessible(page);
    await page.unroute(texts);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('button', { name: 'Anmelden', exact: true }).waitFor();
  });

  it('a host no tenant holds says there is no service at this address, as a sentence', async () => {
    const page = await web.open({ subdomain: 'no-such-shop' }, '/sign-in');
    await page.getByRole('heading', { name: 'This page cannot be shown' }).waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('There is no service at this address.');
    await expectAccessible(page);
    await screenshot(page, 'no-such-tenant');
  });
});
