import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { userRepo } from '#shared/store/user-repo.ts';
import { anInvitedUser, aStoredUser } from '#test/support/admin.ts';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { expectAccessible, screenshot, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';
import { apiOf, openAsOwner } from './account-steps.ts';

/**
 * The console as a user-management tool: the users list sorted by its columns and inviting from it, its
 * placeholder rows while it is read and its empty state; a user's page with the activity as a table (browser and
 * system named), the invitation sent again, a password reset sent, and a phone as stored.
 */

const web = useWebStack();

const CHROME_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const confirmIn = (page: Page, name: string) => page.getByRole('dialog').getByRole('button', { name, exact: true });

/** The names in the Name column, top to bottom. */
const namesShown = (page: Page) => page.locator('tbody:not(.skeleton-rows) tr td:first-child').allTextContents();

/** The header cell of a column and its sort button. */
const header = (page: Page, name: string) => page.getByRole('columnheader', { name });

describe('the users list', () => {
  it('sorts by name, e-mail, status and last sign-in; the order stays while paging and searching, and in the address', async () => {
    const tenant = await aTenantWith();
    const deps = web.localStack().deps;
    // 30 users: two pages. Names from Ada to Zoe; sign-ins from an hour ago back, one never.
    const people = Array.from({ length: 30 }, (_, i) => ({
      firstName: String.fromCharCode(65 + (i % 26)) + ['da', 'ob', 'ya'][i % 3],
      lastName: `Number ${String(i).padStart(2, '0')}`,
    }));
    const stored = [];
    for (const person of people) stored.push(await aStoredUser(tenant, person, deps));
    for (const [i, user] of stored.entries()) {
      if (i === 7) continue;
      const at = new Date(Date.now() - (i + 1) * 3_600_000).toISOString();
      await userRepo(deps.store).update(tenant, user.id, { lastLoginAt: at });
    }
    await userRepo(deps.store).update(tenant, stored[3]?.id ?? '', { status: 'DISABLED' });

    const page = await openAsOwner(web, tenant, '/console/users', { ready: null });
    await page.getByText('31 users').waitFor();
    await expect(header(page, 'E-mail address').getAttribute('aria-sort')).resolves.toBe('ascending');
    await expect(header(page, 'Name').getAttribute('aria-sort')).resolves.toBeNull();

    // By name: A to Z, then Z to A; the caption says so too. The admin has no name: last either way.
    const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
    const byName = people.map((p) => `${p.firstName} ${p.lastName}`).sort(collator.compare);
    await header(page, 'Name').getByRole('button').click();
    await expect(header(page, 'Name').getAttribute('aria-sort')).resolves.toBe('ascending');
    await expect(header(page, 'E-mail address').getAttribute('aria-sort')).resolves.toBeNull();
    await expect(namesShown(page)).resolves.toEqual(byName.slice(0, 25));
    await expect(page.locator('caption').textContent()).resolves.toBe('Users, sorted by name, A to Z');
    expect(new URL(page.url()).searchParams.get('sort')).toBe('name');
    await expectAccessible(page);
    await screenshot(page, 'console-users-sorted-by-name');

    await header(page, 'Name').getByRole('button').click();
    await expect(header(page, 'Name').getAttribute('aria-sort')).resolves.toBe('descending');
    const firstPage = await namesShown(page);
    expect(firstPage).toEqual([...byName].reverse().slice(0, 25));

    // The order stays on the next page, and after a search.
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 2').waitFor();
    await expect(header(page, 'Name').getAttribute('aria-sort')).resolves.toBe('descending');
    await expect(namesShown(page)).resolves.toEqual([...[...byName].reverse().slice(25), tenant.adminEmail]);
    await page.getByLabel('Search by name or e-mail').fill('number 1');
    await page.getByText('10 of 31 users match').waitFor();
    await expect(namesShown(page)).resolves.toEqual(byName.filter((name) => name.includes('Number 1')).reverse());
    await expect(header(page, 'Name').getAttribute('aria-sort')).resolves.toBe('descending');

    // By last sign-in: the most recent first, "Never" last; kept across a reload (it is in the address).
    await page.getByLabel('Search by name or e-mail').fill('');
    await header(page, 'Last sign-in').getByRole('button').click();
    await expect(header(page, 'Last sign-in').getAttribute('aria-sort')).resolves.toBe('descending');
    await page.reload();
    await page.getByText('31 users').waitFor();
    await expect(header(page, 'Last sign-in').getAttribute('aria-sort')).resolves.toBe('descending');
    const times = await page
      .locator('tbody:not(.skeleton-rows) tr td:last-child time')
      .evaluateAll((all) => all.map((t) => Date.parse(t.getAttribute('datetime') ?? '')));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    // By status: Active before Disabled; by keyboard alone (the header's button).
    await header(page, 'Status').getByRole('button').focus();
    await page.keyboard.press('Enter');
    await expect(header(page, 'Status').getAttribute('aria-sort')).resolves.toBe('ascending');
    const statuses = await page.locator('tbody:not(.skeleton-rows) tr td:nth-child(3)').allTextContents();
    expect(statuses[0]).toBe('Active');
    await header(page, 'Status').getByRole('button').press('Enter');
    await expect(header(page, 'Status').getAttribute('aria-sort')).resolves.toBe('descending');
    expect((await page.locator('tbody:not(.skeleton-rows) tr td:nth-child(3)').allTextContents())[0]).toBe('Disabled');
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'console-users-sorted-by-status');

    // A name is a link to the user's page (a user with none: their address). Found by a search first: among users
    // of one status the order is not the names', so the user may be on either page.
    const named = stored[0];
    await page.getByLabel('Search by name or e-mail').fill(`${people[0]?.lastName}`);
    await page.getByText('1 of 31 users match').waitFor();
    await page.getByRole('link', { name: `${people[0]?.firstName} ${people[0]?.lastName}` }).click();
    await page.waitForURL((url) => url.pathname === `/console/users/${named?.id}`);
    await page.getByRole('heading', { level: 1, name: `${people[0]?.firstName} ${people[0]?.lastName}` }).waitFor();
  });

  it('invites from the list in a dialog: the invited user is listed at once, and the mail goes out', async () => {
    const tenant = await aTenantWith();
    const email = `guest-${Date.now().toString(36)}@shop.test`;
    const page = await openAsOwner(web, tenant, '/console/users', { ready: null });
    // Only the admin: the empty state offers the first invitation.
    await page.getByText('Nobody else has an account here yet.', { exact: false }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'console-users-empty');

    await page.getByRole('button', { name: 'Invite the first user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite someone' });
    await dialog.waitFor();
    await expect(
      dialog.getByLabel('E-mail address').evaluate((element) => element === element.ownerDocument.activeElement),
    ).resolves.toBe(true);
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'console-users-invite-dialog');
    // Escape closes it, and nothing is sent.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Invite user' }).click();
    await dialog.getByLabel('E-mail address').fill('not-an-address');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.getByRole('alert').waitFor();
    await expectAccessible(page);
    await dialog.getByLabel('E-mail address').fill(email);
    await dialog.getByLabel('First name (optional)').fill('Gwen');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText(`An invitation was sent to ${email}.`, { exact: false }).waitFor();
    const row = page.getByRole('row', { name: new RegExp(email) });
    await expect(row.textContent()).resolves.toContain('Invited');
    await expect(page.getByText('Nobody else has an account here yet.', { exact: false }).count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'console-users-invited');
    await expect.poll(async () => (await web.mailsTo(email)).length).toBe(1);

    // Opened again, the dialog is empty: nothing of the last invitation is left in it.
    await page.getByRole('button', { name: 'Invite user' }).click();
    await expect(dialog.getByLabel('E-mail address').inputValue()).resolves.toBe('');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('shows placeholder rows in the table’s shape while the list is read (the region busy), then the users', async () => {
    const tenant = await aTenantWith();
    await aUser(tenant);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The list's answer is held back until the placeholders are seen.
    const page = await openAsOwner(web, tenant, '/console/roles', { ready: null });
    await page.route('**/api/v1/users', async (route: Route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    const region = page.getByRole('region', { name: 'Users' });
    await expect.poll(() => region.getAttribute('aria-busy')).toBe('true');
    await expect(page.locator('tbody.skeleton-rows tr').count()).resolves.toBe(5);
    await expect(page.getByRole('status').filter({ hasText: 'Loading the users…' }).count()).resolves.toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'console-users-loading');
    await screenshotsOnPhoneAndDark(page, 'console-users-loading');
    release();
    await page.getByText('2 users').waitFor();
    await expect(region.getAttribute('aria-busy')).resolves.toBeNull();
    await expect(page.locator('tbody.skeleton-rows').count()).resolves.toBe(0);
  });
});

describe('a user’s page', () => {
  it('lists the activity as a table, browser and system named from each sign-in’s User-Agent', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    for (const agent of [CHROME_ON_WINDOWS, SAFARI_ON_IPHONE, 'curl/8.5.0']) {
      const res = await fetch(`${apiOf(web, tenant)}/auth/login`, {
        method: 'POST',
        headers: { ...tenant.headers, 'user-agent': agent },
        body: JSON.stringify({ email: user.email, password: user.password }),
      });
      expect(res.status).toBe(200);
    }
    const page = await openAsOwner(web, tenant, `/console/users/${user.id}`, { ready: null });
    const table = page.getByRole('region', { name: 'Activity, newest first' });
    await table.getByRole('row').nth(3).waitFor();
    const rows = table.locator('tbody tr');
    await expect(rows.count()).resolves.toBe(3);
    const cells = async (n: number) => (await rows.nth(n).locator('td').allTextContents()).map((t) => t.trim());
    const [curl, iphone, windows] = [await cells(0), await cells(1), await cells(2)];
    expect([windows[0], windows[2], windows[3], windows[5]]).toEqual([
      'Signed in with a password',
      'Chrome',
      'Windows',
      'The user',
    ]);
    expect([iphone[2], iphone[3]]).toEqual(['Safari', 'iOS']);
    // A tool's agent is shown as it is, its system unknown.
    expect([curl[2], curl[3]]).toEqual(['curl/8.5.0', 'Unknown']);
    await expect(table.getByRole('columnheader').allTextContents()).resolves.toEqual([
      'Activity',
      'When',
      'Browser',
      'System',
      'IP address',
      'By',
    ]);
    await expectAccessible(page);
    await screenshot(page, 'console-user-activity-table');
    await screenshotsOnPhoneAndDark(page, 'console-user-activity-table');
  });

  it('sends an invited user a new invitation: the new link works, the earlier one no longer does', async () => {
    const tenant = await aTenantWith();
    const invited = await anInvitedUser(tenant, web.localStack().deps);
    const page = await openAsOwner(web, tenant, `/console/users/${invited.userId}`, { ready: null });
    const section = page.getByRole('region', { name: 'Invitation' });
    await section.getByText('The invitation is waiting for an answer.').waitFor();
    // An invited user cannot reset a password: that is not offered.
    await expect(page.getByRole('button', { name: 'Send password reset' }).count()).resolves.toBe(0);
    await section.getByRole('button', { name: 'Resend invitation' }).click();
    await expect(page.getByRole('dialog').textContent()).resolves.toContain(
      'the link of the earlier one stops working',
    );
    await expectAccessible(page);
    await confirmIn(page, 'Send').click();
    await expect(section.getByRole('status').textContent()).resolves.toMatch(
      new RegExp(`^A new invitation was sent to ${invited.email}\\. Its link works until .+\\.$`),
    );
    await expectAccessible(page);
    await screenshot(page, 'console-user-invitation-resent');
    await expect.poll(async () => (await web.mailsTo(invited.email)).length).toBe(1);
    const [mail] = await web.mailsTo(invited.email);
    const link = /(http:\/\/\S+\/sign-up\?invitationToken=\S+)/.exec(mail?.body.text ?? '')?.[1] ?? '';

    // The earlier link says it is dead; the new one opens the sign-up for the address.
    const old = await web.open(tenant, `/sign-up?invitationToken=${invited.invitationToken}`);
    await old.getByRole('heading', { name: 'This invitation link cannot be used' }).waitFor();
    await expect(old.locator('form, input').count()).resolves.toBe(0);
    const fresh = await web.open(tenant, new URL(link).pathname + new URL(link).search);
    await expect(fresh.getByLabel('E-mail address').inputValue()).resolves.toBe(invited.email);

    // A second resend within the minute is refused with a sentence, in the dialog.
    await section.getByRole('button', { name: 'Resend invitation' }).click();
    await confirmIn(page, 'Send').click();
    await expect(page.getByRole('dialog').getByRole('alert').textContent()).resolves.toMatch(
      /^The e-mail could not be sent, so nothing changed\./,
    );
    await expectAccessible(page);
    await screenshot(page, 'console-user-invitation-refused');
  });

  it('sends an active user a password reset; its link works in another browser, and they choose a new password', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const page = await openAsOwner(web, tenant, `/console/users/${user.id}`, { ready: null });
    const section = page.getByRole('region', { name: 'Password' });
    await section.getByRole('button', { name: 'Send password reset' }).click();
    await expect(page.getByRole('dialog').textContent()).resolves.toContain('their password stays as it is');
    await confirmIn(page, 'Send').click();
    await section.getByText(`A password reset e-mail was sent to ${user.email}.`).waitFor();
    await expectAccessible(page);
    await screenshotsOnPhoneAndDark(page, 'console-user-reset-sent');

    await expect.poll(async () => (await web.mailsTo(user.email)).length).toBe(1);
    const [mail] = await web.mailsTo(user.email);
    const text = mail?.body.text ?? '';
    const code = /^\s*(\d{6})\s*$/m.exec(text)?.[1] ?? '';
    const link = new URL(/(http:\/\/\S+\/reset-password\?\S+)/.exec(text)?.[1] ?? 'http://none/');
    // Another browser (a fresh context): no request was made there, the link carries it.
    const reset = await web.open(tenant, link.pathname + link.search);
    await reset.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await expect(reset.getByLabel('E-mail address').inputValue()).resolves.toBe(user.email);
    await reset.getByLabel('Code from the e-mail').fill(code);
    const newPassword = `Ivy-${Date.now().toString(36)}-7`;
    await reset.getByLabel('New password', { exact: true }).fill(newPassword);
    await reset.getByRole('button', { name: 'Set the new password' }).click();
    await reset.waitForURL(/\/account$/);
    const login = await fetch(`${apiOf(web, tenant)}/auth/login`, {
      method: 'POST',
      headers: tenant.headers,
      body: JSON.stringify({ email: user.email, password: newPassword }),
    });
    expect(login.status).toBe(200);
  });

  it('shows a phone as stored: a number dials, one stored before numbers were checked is said to be none', async () => {
    const tenant = await aTenantWith();
    const deps = web.localStack().deps;
    const [dialled, legacy] = [await aUser(tenant), await aUser(tenant)];
    await userRepo(deps.store).update(tenant, dialled.id, { phone: '+44 (0)20 7946 0000' });
    await userRepo(deps.store).update(tenant, legacy.id, { phone: 'evenings only' });

    const page = await openAsOwner(web, tenant, `/console/users/${dialled.id}`, { ready: null });
    const profile = page.getByRole('region', { name: 'Profile' });
    const number = profile.getByRole('link', { name: '+44 (0)20 7946 0000' });
    await expect(number.getAttribute('href')).resolves.toBe('tel:+4402079460000');
    await page.goto(`${web.origin(tenant)}/console/users/${legacy.id}`);
    await profile.getByText('evenings only', { exact: false }).waitFor();
    await expect(profile.textContent()).resolves.toContain('(not a phone number: stored before numbers were checked)');
    await expectAccessible(page);
    await screenshot(page, 'console-user-legacy-phone');
  });

  it('a user page that cannot be read says so, with Try again that reads it again', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const page = await openAsOwner(web, tenant, '/console/roles', { ready: null });
    let failing = true;
    await page.route(`**/api/v1/users/${user.id}`, async (route: Route) => {
      if (failing)
        await route.fulfill({
          status: 503,
          contentType: 'application/problem+json',
          body: '{"type":"about:blank","title":"Service Unavailable","status":503,"code":"UNAVAILABLE"}',
        });
      else await route.continue();
    });
    await page.goto(`${web.origin(tenant)}/console/users/${user.id}`);
    await page.getByRole('alert').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'console-user-failed');
    failing = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { level: 1, name: 'Test User' }).waitFor();
  });
});
