import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { totpNow } from '../support/oidc-interop.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';

const web = useWebStack();

describe('forgot and reset password', () => {
  it('from sign-in: the address, the mailed code and a new password, then sign-in with it', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const page = await web.open(tenant, '/sign-in');
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'forgot-password');

    // The address typed on the sign-in page came along.
    await expect(page.getByLabel('E-mail address').inputValue()).resolves.toBe(user.email);
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    await page.waitForURL(/\/reset-password\?email=/);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await expect(page.getByRole('status').textContent()).resolves.toBe(
      `If ${user.email} has an account, we have e-mailed it a 6-digit code. It works for 10 minutes.`,
    );
    await expect(page.getByLabel('E-mail address').inputValue()).resolves.toBe(user.email);
    await expectAccessible(page);
    await screenshot(page, 'reset-password');

    await page.getByLabel('Code from the e-mail').fill(await web.latestCode(user.email));
    await page.getByLabel('New password').fill('password1');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('That password is too common', { exact: false }).waitFor();
    await expect(page.getByLabel('New password').getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(page, 'reset-password-common');

    // The rules tick off as the new password is typed; Show lets the user read what they typed.
    const rules = page.locator('ul.rules');
    await page.getByLabel('New password').fill('fresh');
    await expect(rules.locator('li.met').allTextContents()).resolves.toEqual(['✓ A letter (done)']);
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(page.getByLabel('New password').getAttribute('type')).resolves.toBe('text');
    await expectAccessible(page);
    await screenshot(page, 'reset-password-rules');
    await page.getByLabel('New password').fill('Fresh-start-2027');
    await expect(rules.locator('li:not(.met)').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    // Signed in with it at once.
    await page.waitForURL(/\/account$/);
    await page.getByText(user.email).first().waitFor();
    await expectAccessible(page);
    await screenshot(page, 'reset-password-done');

    // The old password no longer signs in; the new one does.
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(/\/sign-in/);
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('The e-mail address or password is not right.');
    await page.getByLabel('Password', { exact: true }).fill('Fresh-start-2027');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/account$/);
    await page.getByText(user.email).first().waitFor();
  });

  it('the link in the reset mail, opened in another tab, has the address filled in; a wrong code is a sentence', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const page = await web.open(tenant, '/forgot-password');
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    await page.waitForURL(/\/reset-password/);

    const mail = (await web.mailsTo(user.email)).at(-1)?.body.text ?? '';
    const link = /(https?:\/\/\S+\/reset-password\?email=\S+)/.exec(mail)?.[1];
    expect(link, mail).toBeDefined();
    expect(new URL(link as string).origin).toBe(web.origin(tenant));
    const tab = await web.tab(page, link as string);
    await tab.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await expect(tab.getByLabel('E-mail address').inputValue()).resolves.toBe(user.email);

    const code = await web.latestCode(user.email);
    await tab.getByLabel('Code from the e-mail').fill(code === '000000' ? '111111' : '000000');
    await tab.getByLabel('New password').fill('Fresh-start-2027');
    await tab.getByRole('button', { name: 'Set the new password' }).click();
    await expect(tab.getByRole('alert').textContent()).resolves.toBe(
      'That code is not right, or it has expired. Check it, or send a new code.',
    );
    await expectAccessible(tab);
    await screenshot(tab, 'reset-password-wrong-code');

    await tab.getByLabel('Code from the e-mail').fill(code);
    await tab.getByRole('button', { name: 'Set the new password' }).click();
    await tab.waitForURL(/\/account$/);
  });

  it('a code with no request from this browser is said, and "send a new code" makes one', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const page = await web.open(tenant, `/reset-password?email=${encodeURIComponent(user.email)}`);
    await page.getByLabel('Code from the e-mail').fill('123456');
    await page.getByLabel('New password').fill('Fresh-start-2027');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/^This browser has no code request/);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Send a new code' }).click();
    await page
      .getByText(`If ${user.email} has an account, we have e-mailed it a new code.`, { exact: false })
      .waitFor();
    await page.getByLabel('Code from the e-mail').fill(await web.latestCode(user.email));
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.waitForURL(/\/account$/);
  });

  it('with an authenticator app, the reset goes on to its code, then the account', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD', totpAllowed: true });
    const user = await aUser(tenant, { totp: true });
    const page = await web.open(tenant, `/forgot-password?email=${encodeURIComponent(user.email)}`);
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    await page.waitForURL(/\/reset-password/);
    await page.getByLabel('Code from the e-mail').fill(await web.latestCode(user.email));
    await page.getByLabel('New password').fill('Fresh-start-2027');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    await expectAccessible(page);
    await page.getByLabel('Authenticator code').fill(totpNow(user));
    await page.waitForURL(/\/account$/);
  });
});
