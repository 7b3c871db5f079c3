import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser, type TestUser } from '#test/support/auth.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';

/**
 * Every sign-in journey by keyboard alone: Tab, Shift+Tab, arrows, Space,
 * Enter and typing through page.keyboard; no click, no fill. Each step
 * checks where the focus is, as a keyboard user would see it.
 */
const web = useWebStack();

/** The label (or text) of the element that has the focus. */
const focused = (page: Page) =>
  page.evaluate<string | null>(
    '(() => { const e = document.activeElement; if (!e || e === document.body) return null; return (e.labels?.[0]?.textContent ?? e.textContent ?? "").trim(); })()',
  );

async function press(page: Page, key: string, expectFocusOn: string) {
  await page.keyboard.press(key);
  await expect.poll(() => focused(page)).toBe(expectFocusOn);
}

const totpNow = (user: TestUser) =>
  new TOTP({
    secret: Secret.fromBase32(user.totpSecret as string),
    digits: 6,
    period: 30,
    algorithm: 'SHA1',
  }).generate();

async function signedIn(page: Page, user: TestUser) {
  await page.waitForURL(/\/account$/);
  await page.getByText(user.email).first().waitFor();
}

describe('sign-in by keyboard alone', () => {
  it('with a password', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const page = await web.open(tenant, '/sign-in');
    await page.getByRole('heading', { name: /^Sign in to / }).waitFor();
    await expect.poll(() => focused(page)).toBeNull();
    await press(page, 'Tab', 'E-mail address');
    await page.keyboard.type(user.email);
    await press(page, 'Tab', 'Password');
    await page.keyboard.type('Wrong-1-pass');
    // The password's Show button comes next: Space shows what was typed, and again hides it.
    await press(page, 'Tab', 'Show password');
    await page.keyboard.press('Space');
    await expect(page.getByLabel('Password').getAttribute('type')).resolves.toBe('text');
    await page.keyboard.press('Space');
    await expect(page.getByLabel('Password').getAttribute('type')).resolves.toBe('password');
    await press(page, 'Tab', 'Sign in');
    await page.keyboard.press('Enter');
    await page.getByText('The e-mail address or password is not right.').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'keyboard-sign-in-wrong');

    // Back to the password, cleared by keys, and the right one typed.
    await press(page, 'Shift+Tab', 'Show password');
    await press(page, 'Shift+Tab', 'Password');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(user.password);
    await page.keyboard.press('Enter');
    await signedIn(page, user);
  });

  it('with a code by e-mail (OTP_EMAIL), and "start again" brings the focus back to the address', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant);
    const page = await web.open(tenant, '/sign-in');
    await page.getByRole('heading', { name: /^Sign in to / }).waitFor();
    await press(page, 'Tab', 'E-mail address');
    await page.keyboard.type(user.email);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await expect.poll(() => focused(page)).toBe('Code from the e-mail');
    await expectAccessible(page);
    await screenshot(page, 'keyboard-sign-in-code');

    await press(page, 'Tab', 'Verify');
    // Reached by keyboard while it waits out its minute, and read with the wait.
    await page.keyboard.press('Tab');
    await expect.poll(() => focused(page)).toMatch(/^Send a new code in (1:00|0:[0-5]\d)$/);
    await press(page, 'Tab', 'Start again');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /^Sign in to / }).waitFor();
    await expect.poll(() => focused(page)).toBe('E-mail address');
    await expectAccessible(page);

    // Asked again within the minute, the page goes back to the code on its way (the service would hold a new one).
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await expect.poll(() => focused(page)).toBe('Code from the e-mail');
    await expect(web.mailsTo(user.email)).resolves.toHaveLength(1);
    await page.keyboard.type(await web.latestCode(user.email));
    // The sixth digit sends it: no Enter needed.
    await signedIn(page, user);
  });

  it('with the choice of PASSWORD_OR_OTP_EMAIL: arrows pick the code', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' });
    const user = await aUser(tenant);
    const page = await web.open(tenant, '/sign-in');
    await page.getByRole('heading', { name: /^Sign in to / }).waitFor();
    await press(page, 'Tab', 'With my password');
    await press(page, 'ArrowDown', 'With a code sent to my e-mail');
    await expect(page.getByRole('radio', { name: 'With a code sent to my e-mail' }).isChecked()).resolves.toBe(true);
    await press(page, 'Tab', 'E-mail address');
    await page.keyboard.type(user.email);
    await press(page, 'Tab', 'E-mail me a code');
    await expectAccessible(page);
    await screenshot(page, 'keyboard-sign-in-choice');
    await page.keyboard.press('Space');
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await expect.poll(() => focused(page)).toBe('Code from the e-mail');
    await page.keyboard.type(await web.latestCode(user.email));
    // The sixth digit sends it: no Enter needed.
    await signedIn(page, user);
  });

  it('with the authenticator step', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant, { totp: true });
    const page = await web.open(tenant, '/sign-in');
    await page.getByRole('heading', { name: /^Sign in to / }).waitFor();
    await press(page, 'Tab', 'E-mail address');
    await page.keyboard.type(user.email);
    await press(page, 'Tab', 'Password');
    await page.keyboard.type(user.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    await expect.poll(() => focused(page)).toBe('Authenticator code');
    await expectAccessible(page);
    await screenshot(page, 'keyboard-sign-in-totp');
    await page.keyboard.type(totpNow(user));
    // The sixth digit sends it: no Enter needed.
    await signedIn(page, user);
  });

  it('with a backup code instead: Space on the switch puts the focus in the backup code field', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant, { totp: true });
    const page = await web.open(tenant, '/sign-in');
    await page.getByRole('heading', { name: /^Sign in to / }).waitFor();
    await press(page, 'Tab', 'E-mail address');
    await page.keyboard.type(user.email);
    await press(page, 'Tab', 'Password');
    await page.keyboard.type(user.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    await press(page, 'Tab', 'Verify');
    await press(page, 'Tab', 'Use a backup code instead');
    await page.keyboard.press('Space');
    await expect.poll(() => focused(page)).toBe('Backup code');
    await expectAccessible(page);
    await screenshot(page, 'keyboard-sign-in-backup');
    await page.keyboard.type(user.backupCodes?.[1] as string);
    await page.keyboard.press('Enter');
    await signedIn(page, user);
  });
});
