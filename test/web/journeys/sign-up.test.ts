import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { anEmail } from '#test/support/admin.ts';
import { aTenantWith, aUser, forgetMailsTo } from '#test/support/auth.ts';
import { post } from '#test/support/http.ts';
import { expectAccessible, screenshot, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';

// Each test signs up in a tenant of its own, at most twice: the one that spends a tenant's budget spends three.
const SIGNUP_BUDGET = 3;
const web = useWebStack({ signupMailDailyBudgetPerTenant: SIGNUP_BUDGET });

/** The label (or text) of the element that has the focus. */
const focused = (page: Page) =>
  page.evaluate<string | null>(
    '(() => { const e = document.activeElement; return e ? (e.labels?.[0]?.textContent ?? e.textContent ?? "").trim() : null; })()',
  );

describe('sign-up in an OPEN tenant', () => {
  it('names, e-mail and password, then the mailed code: signed in on the account page', async () => {
    const tenant = await aTenantWith({ signupMode: 'OPEN' });
    const email = anEmail('fern');
    const page = await web.open(tenant, '/sign-in');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: /^Create your Shop .* account$/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-up');
    await expectAccessible(page);
    await screenshot(page, 'sign-up');

    await page.getByLabel('First name').fill('Fern');
    await page.getByLabel('Last name').fill('Gully');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill('Sprout-leaf-42');
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await expect(page.getByRole('status').textContent()).resolves.toContain(email);
    // The code field is where the next keystrokes go.
    await expect.poll(() => focused(page)).toBe('Code from the e-mail');
    await expectAccessible(page);
    await screenshot(page, 'sign-up-code');

    await page.getByLabel('Code from the e-mail').fill(await web.latestCode(email));
    await page.waitForURL(/\/account$/);
    await page.getByText(email).first().waitFor();
    await expectAccessible(page);
    await screenshot(page, 'sign-up-done');
  });

  it('a wrong code is said as a sentence, and "send a new code" mails one that works', async () => {
    const tenant = await aTenantWith({ signupMode: 'OPEN' });
    const email = anEmail('fern');
    const page = await web.open(tenant, '/sign-up');
    await page.clock.install();
    await page.getByLabel('First name').fill('Fern');
    await page.getByLabel('Last name').fill('Gully');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill('Sprout-leaf-42');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    const first = await web.latestCode(email);
    await page.getByLabel('Code from the e-mail').fill(first === '000000' ? '111111' : '000000');
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'That code is not right, or it has expired. Check it, or send a new code.',
    );
    await expectAccessible(page);
    await screenshot(page, 'sign-up-wrong-code');

    // Within the minute the service would hold a new mail back: the button counts the wait down, and does nothing.
    const resend = page.getByRole('button', { name: /^Send a new code/ });
    await expect(resend.textContent()).resolves.toMatch(/^Send a new code in (1:00|0:[0-5]\d)$/);
    // A click on it (forced: it is inert, which the browser's automation respects) does nothing.
    await resend.click({ force: true });
    await expect(web.mailsTo(email)).resolves.toHaveLength(1);

    await page.clock.runFor(61_000);
    await forgetMailsTo(tenant, 'SIGNUP', email);
    await expect(resend.textContent()).resolves.toBe('Send a new code');
    await resend.click();
    await page.getByText('We sent a new code').waitFor();
    await expect.poll(() => focused(page)).toBe('Code from the e-mail');
    await expect(web.mailsTo(email)).resolves.toHaveLength(2);
    await page.getByLabel('Code from the e-mail').fill(await web.latestCode(email));
    await page.waitForURL(/\/account$/);
    await page.getByText(email).first().waitFor();
  });

  it('a password the rules or the service refuse is said at the password field', async () => {
    const tenant = await aTenantWith({ signupMode: 'OPEN' });
    const page = await web.open(tenant, '/sign-up');
    await page.getByLabel('First name').fill('Fern');
    await page.getByLabel('Last name').fill('Gully');
    await page.getByLabel('E-mail address').fill(anEmail('fern'));
    const password = page.getByLabel('Password');

    await password.fill('short1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Password needs at least 8 characters.').waitFor();
    await expect(password.getAttribute('aria-invalid')).resolves.toBe('true');
    // Typed in again, the field's problem is put away (the checklist says what still holds), until the next send.
    await password.pressSequentially('2');
    await expect(page.getByText('Password needs at least 8 characters.').count()).resolves.toBe(0);
    await expect(password.getAttribute('aria-invalid')).resolves.toBeNull();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Password needs at least 8 characters.').waitFor();

    // Letters and a digit, long enough, and one of the most common passwords: only the service knows.
    await password.fill('password1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('That password is too common or too easy to guess.', { exact: false }).waitFor();
    await expect(password.getAttribute('aria-invalid')).resolves.toBe('true');
    const described = await password.getAttribute('aria-describedby');
    await expect(page.locator(`[id="${described?.split(' ')[0]}"]`).textContent()).resolves.toMatch(/too common/);
    await expectAccessible(page);
    await screenshot(page, 'sign-up-common-password');
    expect(new URL(page.url()).pathname).toBe('/sign-up');
  });

  it('an address that already has an account gets the same answer: the page does not tell', async () => {
    const tenant = await aTenantWith({ signupMode: 'OPEN' });
    const existing = await aUser(tenant);
    const fresh = anEmail('fern');
    const said: string[] = [];
    for (const email of [fresh, existing.email]) {
      const page = await web.open(tenant, '/sign-up');
      await page.getByLabel('First name').fill('Fern');
      await page.getByLabel('Last name').fill('Gully');
      await page.getByLabel('E-mail address').fill(email);
      await page.getByLabel('Password').fill('Sprout-leaf-42');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
      said.push((await page.locator('main').innerText()).replace(email, '<address>'));
    }
    expect(said[1]).toBe(said[0]);
    // The owner hears of it by mail, not the page.
    const mails = await web.mailsTo(existing.email);
    expect(mails.at(-1)?.subject).toMatch(/^You already have a Shop .* account$/);
  });
});

describe("sign-up when the tenant's sign-up mail of the day is spent", () => {
  it('says that new sign-ups are paused and when to try again, and stays on the form', async () => {
    const tenant = await aTenantWith({ signupMode: 'OPEN' });
    const body = { app: tenant.app, mid: tenant.mid, password: 'Sprout-leaf-42', firstName: 'Junk', lastName: 'Mail' };
    for (let i = 0; i < SIGNUP_BUDGET; i++) {
      const spent = await post(
        `${web.localStack().apiUrl}/auth/signup`,
        { ...body, email: anEmail('junk') },
        tenant.headers,
      );
      expect(spent.status).toBe(201);
    }
    const page = await web.open(tenant, '/sign-up');
    await page.getByLabel('First name').fill('Fern');
    await page.getByLabel('Last name').fill('Gully');
    await page.getByLabel('E-mail address').fill(anEmail('fern'));
    await page.getByLabel('Password').fill('Sprout-leaf-42');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(
      /^New sign-ups are paused for today\. Try again in \d+ (hours|minutes|seconds)\.$/,
    );
    await expect(page.getByRole('heading', { name: /^Create your Shop .* account$/ }).isVisible()).resolves.toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'sign-up-paused');
    // On a phone too, and with a dark colour scheme asked for: the sentence stays whole and legible.
    await screenshotsOnPhoneAndDark(page, 'sign-up-paused', expectAccessible);
  });
});

describe('sign-up in an INVITATION_ONLY tenant, without an invitation', () => {
  it('says that sign-up is by invitation, and offers sign-in', async () => {
    const tenant = await aTenantWith({ signupMode: 'INVITATION_ONLY' });
    const page = await web.open(tenant, '/sign-in');
    await page.getByRole('link', { name: 'Have an invitation? Sign up' }).click();
    await page.getByRole('heading', { name: 'Sign-up is by invitation' }).waitFor();
    await page.getByText('open the link in your invitation e-mail', { exact: false }).waitFor();
    await expect(page.getByRole('textbox').count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'sign-up-invitation-only');
    await page.getByRole('link', { name: /sign in/ }).click();
    await page.waitForURL(/\/sign-in$/);
  });
});
