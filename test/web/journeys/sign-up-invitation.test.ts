import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createInvitation } from '#shared/auth/invitations.ts';
import { anEmail } from '#test/support/admin.ts';
import { aTenantWith, type TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { IdentityClient, memoryCookieStore } from '../../../client/src/index.ts';
import { expectAccessible, PHONE, screenshot, useWebStack } from '../support/web-stack.ts';

const web = useWebStack();

/** The tenant's first admin, signed in with the SDK as a page of the tenant's own origin would be. */
async function adminOf(tenant: TestTenant): Promise<IdentityClient> {
  const origin = web.origin(tenant);
  // Node does not resolve *.localhost as Chromium does: the same server by its plain name, with the page's Origin.
  const api = new URL('/api/v1', origin);
  api.hostname = 'localhost';
  const client = new IdentityClient({
    baseUrl: api.href,
    fetch: (url, init) => fetch(url, { ...init, headers: { ...init.headers, origin } }),
    cookies: memoryCookieStore(),
  });
  await client.discover({ slug: tenant.subdomain });
  const result = await client.login({ email: tenant.adminEmail, password: tenant.adminPassword });
  if (!('user' in result)) throw new Error('the admin got a challenge');
  return client;
}

/** The link to the hosted sign-up page in the latest invitation mail to `email`, and that mail's text. */
async function invitationLink(email: string): Promise<{ link: URL; text: string }> {
  const text = (await web.mailsTo(email)).at(-1)?.body.text ?? '';
  const link = /(https?:\/\/\S+\/sign-up\?invitationToken=\S+)/.exec(text)?.[1];
  if (!link) throw new Error(`no sign-up link in the mail to ${email}: ${text}`);
  return { link: new URL(link), text };
}

const DESKTOP = { width: 1200, height: 900 };

/** Axe-clean and within the screen at desktop width and on a phone (expectAccessible checks both), photographed at both. */
async function atBothWidths(page: Page, name: string) {
  await expectAccessible(page);
  await screenshot(page, name);
  await page.setViewportSize(PHONE);
  await screenshot(page, `${name}-375`);
  await page.setViewportSize(DESKTOP);
}

const DEAD_LINK =
  /^This invitation link does not work any more: it has expired, was already used, or was withdrawn\. Ask an administrator for a new invitation\.$/;

/** The page of a link that opens nothing: its sentence, the way to sign in, and no form at all. */
async function expectDeadLink(page: Page) {
  await page.getByRole('heading', { name: 'This invitation link cannot be used' }).waitFor();
  await expect(page.getByRole('alert').textContent()).resolves.toMatch(DEAD_LINK);
  await expect(page.locator('form, input').count()).resolves.toBe(0);
  await expect(page.getByRole('link', { name: /sign in/ }).count()).resolves.toBe(1);
}

describe('sign-up by invitation', () => {
  it('the mailed link opens the form with the invited address locked and the names filled in; signing up signs in', async () => {
    const tenant = await aTenantWith({ signupMode: 'INVITATION_ONLY' });
    const email = anEmail('invited');
    const admin = await adminOf(tenant);
    await admin.me.update({ firstName: 'Ana', lastName: 'Admin' });
    await admin.admin.users.invite({ email, firstName: 'Ivy', lastName: 'Vine' });

    const { link, text } = await invitationLink(email);
    expect(link.origin).toBe(web.origin(tenant));
    // The mail names the inviter and the expiry, and carries the token in its link only.
    const token = link.searchParams.get('invitationToken') ?? '';
    expect(text).toMatch(/^Ana Admin has invited you to join Shop /m);
    expect(text).toMatch(/The invitation works once, until [A-Z][a-z]+day \d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d UTC\./);
    expect(text.split('\n').filter((line) => line.includes(token))).toEqual([`Accept the invitation: ${link.href}`]);

    const page = await web.open(tenant, `${link.pathname}${link.search}`);
    await page.getByRole('heading', { name: /^Accept your invitation to Shop / }).waitFor();
    const address = page.getByLabel('E-mail address');
    await address.waitFor();
    await expect(address.inputValue()).resolves.toBe(email);
    await expect(address.getAttribute('readonly')).resolves.not.toBeNull();
    await expect(
      page.getByText('The invitation was sent to this address, so your account uses it.').count(),
    ).resolves.toBe(1);
    await expect(page.getByLabel('First name').inputValue()).resolves.toBe('Ivy');
    await expect(page.getByLabel('Last name').inputValue()).resolves.toBe('Vine');
    await expect(
      page.getByText(/^Ana Admin invited you to join Shop \S+\. The invitation works until .+\.$/).count(),
    ).resolves.toBe(1);
    // No raw token anywhere on the page.
    await expect(page.getByLabel('Invitation').count()).resolves.toBe(0);
    expect(await page.content()).not.toContain(token);
    await atBothWidths(page, 'sign-up-invitation');

    // By keyboard: the names, the locked address (typing there changes nothing), the password, then Enter.
    await page.getByLabel('First name').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(address.evaluate((input) => input === input.ownerDocument.activeElement)).resolves.toBe(true);
    await page.keyboard.type('x');
    await expect(address.inputValue()).resolves.toBe(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Climbing-ivy-77');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/account$/);
    await page.getByText(email).first().waitFor();
    await expectAccessible(page);
    await screenshot(page, 'sign-up-invitation-signed-in');

    // Used: the same link now says so, before any form.
    const again = await web.open(tenant, `${link.pathname}${link.search}`);
    await expectDeadLink(again);
  });

  it('an expired link, and one that was never an invitation, say so with no form', async () => {
    const tenant = await aTenantWith({ signupMode: 'INVITATION_ONLY' });
    // Made 7 days and a minute ago: it lapsed a minute ago.
    const past = makeTestDeps({ clock: { now: () => new Date(Date.now() - 7 * 86_400_000 - 60_000) } });
    const expired = await createInvitation(past, tenant, {
      email: anEmail('late'),
      invitedBy: tenant.adminUserId,
      inviterName: 'Ana Admin',
    });

    const page = await web.open(tenant, `/sign-up?invitationToken=${encodeURIComponent(expired.invitationToken)}`);
    await expectDeadLink(page);
    await atBothWidths(page, 'sign-up-invitation-expired');

    const bogus = await web.open(tenant, '/sign-up?invitationToken=inv_bogus_0000000000');
    await expectDeadLink(bogus);
    await expectAccessible(bogus);
  });

  it('an invitation withdrawn while its form is open is refused with a sentence when sent', async () => {
    const tenant = await aTenantWith({ signupMode: 'INVITATION_ONLY' });
    const email = anEmail('invited');
    const admin = await adminOf(tenant);
    const { userId } = await admin.admin.users.invite({ email });
    const { link } = await invitationLink(email);
    const page = await web.open(tenant, `${link.pathname}${link.search}`);
    await page.getByLabel('E-mail address').waitFor();
    // No names were typed by the admin: the fields are empty, for the invitee to fill.
    await expect(page.getByLabel('First name').inputValue()).resolves.toBe('');
    await expect(page.getByText(/^You were invited to join Shop /).count()).resolves.toBe(1);

    await admin.admin.users.delete(userId);
    await page.getByLabel('First name').fill('Ivy');
    await page.getByLabel('Last name').fill('Vine');
    await page.getByLabel('Password').fill('Climbing-ivy-77');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/^This invitation cannot be used any more/);
    expect(new URL(page.url()).pathname).toBe('/sign-up');
    await expectAccessible(page);
    await screenshot(page, 'sign-up-invitation-refused');
  });
});
