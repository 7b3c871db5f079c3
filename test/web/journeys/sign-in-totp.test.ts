import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser, type TestUser } from '#test/support/auth.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';

const web = useWebStack();

/** The code the user's authenticator app shows now. */
const totpNow = (user: TestUser) =>
  new TOTP({
    secret: Secret.fromBase32(user.totpSecret as string),
    digits: 6,
    period: 30,
    algorithm: 'SHA1',
  }).generate();

describe('sign-in with the authenticator step', () => {
  it('after the password, the authenticator code signs in', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant, { totp: true });
    const page = await web.open(tenant, '/sign-in');
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    // Which account the code is for: the address just typed.
    await page.getByText(`Enter the 6-digit code your authenticator app shows for ${user.email}.`).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'sign-in-totp');

    await page.getByLabel('Authenticator code').fill('000000' === totpNow(user) ? '111111' : '000000');
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'That code is not right. Enter the code your authenticator app shows now, before it changes.',
    );
    await expectAccessible(page);
    await screenshot(page, 'sign-in-totp-wrong');

    await page.getByLabel('Authenticator code').fill(totpNow(user));
    await page.waitForURL(/\/account$/);
    await page.getByText(user.email).first().waitFor();
  });

  it('"use a backup code instead" takes one of the backup codes', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant, { totp: true });
    const page = await web.open(tenant, '/sign-in');
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Use a backup code instead' }).click();
    await page.getByLabel('Backup code').waitFor();
    await page.getByText('Enter one of the backup codes', { exact: false }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'sign-in-backup');

    await page.getByLabel('Backup code').fill(user.backupCodes?.[0] as string);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/account$/);
    await page.getByText(user.email).first().waitFor();
  });

  it('"start again" goes back to the first step', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant, { totp: true });
    const page = await web.open(tenant, '/sign-in');
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Start again' }).click();
    await page.getByRole('heading', { name: /^Sign in to Shop / }).waitFor();
    await expect(page.getByLabel('E-mail address').inputValue()).resolves.toBe(user.email);
    await expect(page.getByLabel('Password').inputValue()).resolves.toBe('');
  });
});
