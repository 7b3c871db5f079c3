import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';

const web = useWebStack();

describe('sign-in by password', () => {
  it('a user signs in on their tenant’s branded page and lands on their account', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const page = await web.open(tenant, '/sign-in');
    await page.getByRole('heading', { name: /^Sign in to Shop / }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'sign-in');
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/account$/);
    await expect(page.getByText(`Signed in as ${user.email}`).isVisible()).resolves.toBe(true);
  });

  it('a wrong password is said as a sentence, and nothing else happens', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const page = await web.open(tenant, '/sign-in');
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('The e-mail address or password is not right.');
    expect(new URL(page.url()).pathname).toBe('/sign-in');
  });
});
