import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';

const web = useWebStack();

async function signIn(page: Page, email: string, password: string): Promise<string | null> {
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  // The alert of the attempt before goes when the form is sent; this attempt's comes with its answer.
  const answered = page.waitForResponse((response) => response.url().endsWith('/api/v1/auth/login'));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await answered;
  const alert = page.getByRole('alert');
  await alert.waitFor();
  return alert.textContent();
}

describe('sign-in problems are said as sentences', () => {
  it('wrong passwords, then the lockout with the time left; the right password waits too', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const page = await web.open(tenant, '/sign-in');
    for (let attempt = 1; attempt <= 5; attempt++) {
      const said = await signIn(page, user.email, `Wrong-${attempt}-pass`);
      expect(said).toBe('The e-mail address or password is not right.');
    }
    await expectAccessible(page);
    await screenshot(page, 'sign-in-wrong-password');

    await expect(signIn(page, user.email, 'Wrong-6-pass')).resolves.toMatch(
      /^Too many attempts\. For your safety, this is locked: try again in 1[45] minutes\.$/,
    );
    await expectAccessible(page);
    await screenshot(page, 'sign-in-locked');
    await expect(signIn(page, user.email, user.password)).resolves.toMatch(
      /this is locked: try again in 1[45] minutes/,
    );
    expect(new URL(page.url()).pathname).toBe('/sign-in');
  });

  it('a DISABLED account is told so after the right password', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant, { status: 'DISABLED' });
    const page = await web.open(tenant, '/sign-in');
    await expect(signIn(page, user.email, user.password)).resolves.toBe(
      'This account is disabled. Contact the administrator of this service.',
    );
    await expectAccessible(page);
    await screenshot(page, 'sign-in-disabled');
    // The wrong password says only that: a disabled account is not revealed without the right one.
    await expect(signIn(page, user.email, 'Wrong-1-pass')).resolves.toBe(
      'The e-mail address or password is not right.',
    );
  });

  it('an INACTIVE account (sign-up never verified) is told how to finish', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant, { status: 'INACTIVE' });
    const page = await web.open(tenant, '/sign-in');
    await expect(signIn(page, user.email, user.password)).resolves.toMatch(/^This account is not active yet\./);
    await expectAccessible(page);
  });

  it('an empty form is said at its fields, and focus goes to the first', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const page = await web.open(tenant, '/sign-in');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Enter your e-mail address.').waitFor();
    await page.getByText('Enter your password.').waitFor();
    await expect(page.getByLabel('E-mail address').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.getByLabel('E-mail address').evaluate((e) => e === e.ownerDocument.activeElement)).resolves.toBe(
      true,
    );

    await page.getByLabel('E-mail address').fill('not-an-address');
    await page.getByLabel('Password').fill('whatever-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Enter an e-mail address, like name@example.com.').waitFor();
    await expect(page.getByLabel('Password').getAttribute('aria-invalid')).resolves.toBeNull();
    await expectAccessible(page);
    await screenshot(page, 'sign-in-empty');
  });
});
