import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser, forgetMailsTo } from '#test/support/auth.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';

const web = useWebStack();

describe('sign-in by e-mail code', () => {
  it('an OTP_EMAIL tenant asks for the address only, then the mailed code', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant);
    const page = await web.open(tenant, '/sign-in');
    await page.getByRole('heading', { name: /^Sign in to Shop / }).waitFor();
    await expect(page.getByLabel('Password', { exact: true }).count()).resolves.toBe(0);
    await expect(page.getByRole('radio').count()).resolves.toBe(0);
    await expect(page.getByRole('link', { name: 'Forgot your password?' }).count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'sign-in-code');

    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await expect(page.getByRole('status').textContent()).resolves.toContain(user.email);
    await expectAccessible(page);
    await screenshot(page, 'sign-in-code-sent');

    await page.getByLabel('Code from the e-mail').fill(await web.latestCode(user.email));
    await page.waitForURL(/\/account$/);
    await page.getByText(user.email).first().waitFor();
  });

  it('a wrong code is said as a sentence; "send a new code" waits its minute, then mails one that works', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant);
    const page = await web.open(tenant, '/sign-in');
    await page.clock.install();
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    const first = await web.latestCode(user.email);
    await page.getByLabel('Code from the e-mail').fill(first === '000000' ? '111111' : '000000');
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'That code is not right, or it has expired. Check it, or start again for a new one.',
    );
    await expectAccessible(page);
    await screenshot(page, 'sign-in-code-wrong');

    // Within the minute the button counts down, reachable but inert: a click sends nothing and says nothing more.
    const resend = page.getByRole('button', { name: /^Send a new code/ });
    await expect(resend.textContent()).resolves.toMatch(/^Send a new code in (1:00|0:[0-5]\d)$/);
    await expect(resend.getAttribute('aria-disabled')).resolves.toBe('true');
    // A click on it (forced: it is inert, which the browser's automation respects) does nothing.
    await resend.click({ force: true });
    await expect(web.mailsTo(user.email)).resolves.toHaveLength(1);
    await expect(page.getByRole('alert').count()).resolves.toBe(1);
    await page.clock.runFor(20_000);
    await expect(resend.textContent()).resolves.toMatch(/^Send a new code in 0:[0-4]\d$/);

    await page.clock.runFor(41_000);
    await expect(resend.textContent()).resolves.toBe('Send a new code');
    await expect(resend.getAttribute('aria-disabled')).resolves.toBeNull();
    await forgetMailsTo(tenant, 'LOGIN', user.email);
    await resend.click();
    await page.getByText('we have sent it a new code', { exact: false }).waitFor();
    await expect(web.mailsTo(user.email)).resolves.toHaveLength(2);
    await expect(resend.textContent()).resolves.toMatch(/^Send a new code in (1:00|0:[0-5]\d)$/);

    // Ten minutes on, the page says the code has expired rather than let it be typed in vain.
    await page.clock.runFor('10:01');
    await page.getByText('This code has expired.', { exact: false }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'sign-in-code-expired');
  });

  it('a code pasted as "123 456" is taken as it is, and sent without a key', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant);
    const page = await web.open(tenant, '/sign-in');
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    const code = await web.latestCode(user.email);
    await page.getByLabel('Code from the e-mail').focus();
    // A paste, as the clipboard gives it to the page: one input event with the whole text.
    await page.keyboard.insertText(`${code.slice(0, 3)} ${code.slice(3)}`);
    await page.waitForURL(/\/account$/);
  });

  it('PASSWORD_OR_OTP_EMAIL offers the choice: the code, or the password', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' });
    const user = await aUser(tenant);
    const page = await web.open(tenant, '/sign-in');
    await page.getByRole('group', { name: 'How do you want to sign in?' }).waitFor();
    await expect(page.getByRole('radio', { name: 'With my password' }).isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('Password', { exact: true }).count()).resolves.toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'sign-in-choice');

    await page.getByRole('radio', { name: 'With a code sent to my e-mail' }).check();
    await expect(page.getByLabel('Password', { exact: true }).count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'sign-in-choice-code');
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await page.getByLabel('Code from the e-mail').fill(await web.latestCode(user.email));
    await page.waitForURL(/\/account$/);
    await page.getByText(user.email).first().waitFor();

    // The other way, in a fresh browser: the password.
    const again = await web.open(tenant, '/sign-in');
    await again.getByLabel('E-mail address').fill(user.email);
    await again.getByLabel('Password', { exact: true }).fill(user.password);
    await again.getByRole('button', { name: 'Sign in', exact: true }).click();
    await again.waitForURL(/\/account$/);
  });
});
