import { describe, expect, it } from 'vitest';
import { aTenantWith } from '#test/support/auth.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';

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

  it('a host no tenant holds says there is no service at this address, as a sentence', async () => {
    const page = await web.open({ subdomain: 'no-such-shop' }, '/sign-in');
    await page.getByRole('heading', { name: 'This page cannot be shown' }).waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('There is no service at this address.');
    await expectAccessible(page);
    await screenshot(page, 'no-such-tenant');
  });
});
