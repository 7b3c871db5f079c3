import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser, type TestTenant, type TestUser } from '#test/support/auth.ts';
import { DOCUMENTED_BOUNCE, deliverSesEvents, snsEventOf, withRecipient, withTags } from '#test/support/ses-events.ts';
import { expectAccessible, screenshot, screenshotsOnPhoneAndDark, useWebStack } from '../support/web-stack.ts';
import { ageSignIns } from './account-steps.ts';

const web = useWebStack();

/** The identity API beside the pages, for the journeys' own setup and checks (as another client would). */
const apiUrl = (tenant: TestTenant) => `${web.origin(tenant).replace(/\/\/[^/]+\.localhost:/, '//localhost:')}/api/v1`;

async function call(tenant: TestTenant, method: string, path: string, token: string | null, body?: unknown) {
  return fetch(`${apiUrl(tenant)}${path}`, {
    method,
    headers: { ...tenant.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function logInOverHttp(tenant: TestTenant, email: string, password: string): Promise<string> {
  const res = await call(tenant, 'POST', '/auth/login', null, { email, password });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
}

/**
 * The tenant's first admin (SUPER_ADMIN), or another user, signed in (through the API: the sign-in form has journeys
 * of its own) and on `path`.
 */
async function adminAt(
  tenant: TestTenant,
  path: string,
  as: { email: string; password: string } = { email: tenant.adminEmail, password: tenant.adminPassword },
): Promise<Page> {
  return web.openSignedIn(tenant, as, path);
}

/** A user's row's cell in the list's e-mail column (a user with no name shows the address as the name's link too). */
const emailCell = (page: Page, email: string | undefined) =>
  page.getByRole('cell', { name: email, exact: true }).and(page.locator('td.email'));

/** The opened confirmation dialog's confirming button. */
const confirmIn = (page: Page, name: string) => page.getByRole('dialog').getByRole('button', { name, exact: true });

describe('the console’s users', () => {
  it('finds a user among 60 across pages of 25, by the pager and by searching their e-mail', async () => {
    const tenant = await aTenantWith();
    const users: TestUser[] = [];
    for (let chunk = 0; chunk < 6; chunk++) {
      users.push(...(await Promise.all(Array.from({ length: 10 }, () => aUser(tenant)))));
    }
    // The list is sorted by e-mail address as a person reads it, numbers by their value ("user-15" before
    // "user-148"): 61 users (with the admin) make pages of 25, 25 and 11.
    const byEmail = new Intl.Collator('en-US', { sensitivity: 'base', numeric: true });
    const sorted = [tenant.adminEmail, ...users.map((u) => u.email)].sort(byEmail.compare);
    const onPage3 = sorted[55] as string;

    const page = await adminAt(tenant, '/console/users');
    await page.getByText('Page 1 of 3').waitFor();
    await expect(page.getByText('61 users').isVisible()).resolves.toBe(true);
    await expect(emailCell(page, sorted[0]).isVisible()).resolves.toBe(true);
    await expect(emailCell(page, onPage3).count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'console-users-page-1');

    // The pager by mouse, then by keyboard: focus stays on Next.
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 3').waitFor();
    await page.keyboard.press('Enter');
    await page.getByText('Page 3 of 3').waitFor();
    // The pager's line can show before the rows: wait for the row itself (it fails if it never comes).
    await emailCell(page, onPage3).waitFor();
    await expect(page.locator('tbody tr').count()).resolves.toBe(11);
    await expect(page.getByRole('button', { name: 'Next' }).getAttribute('aria-disabled')).resolves.toBe('true');
    expect(new URL(page.url()).searchParams.get('page')).toBe('3');
    await expectAccessible(page);
    await screenshot(page, 'console-users-page-3');

    // The search: part of another user's e-mail finds them alone, on one page.
    const sought = sorted[3] as string;
    await page.getByLabel('Search by name or e-mail').fill(sought.split('@')[0]?.toUpperCase() as string);
    await page.getByText('1 of 61 users match').waitFor();
    await expect(page.locator('tbody tr').count()).resolves.toBe(1);
    await expect(emailCell(page, sought).isVisible()).resolves.toBe(true);
    await expect(page.getByText(/Page \d of \d/).count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'console-users-search');

    // The name is the link to the user's page.
    await page.getByRole('row').filter({ hasText: sought }).getByRole('link', { name: 'Test User' }).click();
    await page.getByRole('heading', { level: 1, name: 'Test User' }).waitFor();
    await expect(page.getByRole('region', { name: 'Profile' }).textContent()).resolves.toContain(sought);
  }, 120_000);

  it('disables a user whose page is open: their page goes to sign-in, and signing in again says the account is disabled', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const userPage = await web.open(tenant, '/sign-in?next=/account');
    await userPage.getByLabel('E-mail address').fill(user.email);
    await userPage.getByLabel('Password').fill(user.password);
    await userPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await userPage.waitForURL(/\/account$/);

    const admin = await adminAt(tenant, `/console/users/${user.id}`);
    await admin.getByRole('heading', { level: 1, name: 'Test User' }).waitFor();
    await expectAccessible(admin);
    await screenshot(admin, 'console-user');
    await admin.getByRole('button', { name: 'Disable', exact: true }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain('signed out everywhere');
    // Cancel has the focus: Escape closes the question and nothing happens.
    await expect(admin.locator(':focus').textContent()).resolves.toBe('Cancel');
    await expectAccessible(admin);
    await screenshot(admin, 'console-user-disable-confirm');
    await admin.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect(admin.getByText('Active', { exact: true }).first().isVisible()).resolves.toBe(true);

    await admin.getByRole('button', { name: 'Disable', exact: true }).click();
    await confirmIn(admin, 'Disable').click();
    await admin.getByText('The user is disabled and signed out everywhere.').waitFor();
    await expect(admin.locator('#status-heading + p').textContent()).resolves.toBe('Disabled');
    await expect(admin.getByRole('button', { name: 'Activate' }).isVisible()).resolves.toBe(true);
    await expectAccessible(admin);

    // The user's open page checks its session when it gets the focus back.
    await userPage.evaluate("window.dispatchEvent(new Event('focus'))");
    await userPage.waitForURL(/\/sign-in\?expired=1/);
    await userPage.getByText('Your session has ended.', { exact: false }).waitFor();
    await userPage.getByLabel('E-mail address').fill(user.email);
    await userPage.getByLabel('Password').fill(user.password);
    await userPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(userPage.getByRole('alert').textContent()).resolves.toBe(
      'This account is disabled. Contact the administrator of this service.',
    );
    await expectAccessible(userPage);
  });

  it('a sign-in older than 10 minutes confirms it is the admin before a user is disabled', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const admin = await adminAt(tenant, `/console/users/${user.id}`);
    await admin.getByRole('heading', { level: 1, name: 'Test User' }).waitFor();
    await ageSignIns(tenant, tenant.adminUserId);

    await admin.getByRole('button', { name: 'Disable', exact: true }).click();
    await confirmIn(admin, 'Disable').click();
    const prompt = admin.getByRole('dialog', { name: 'Confirm it is you' });
    await prompt.waitFor();
    await expect(prompt.getByText('more than 10 minutes ago').isVisible()).resolves.toBe(true);
    await expectAccessible(admin);
    await screenshot(admin, 'console-user-disable-reauth');
    await prompt.getByLabel('Password', { exact: true }).fill(tenant.adminPassword);
    await admin.keyboard.press('Enter');
    await admin.getByText('The user is disabled and signed out everywhere.').waitFor();
    await expect(admin.locator('#status-heading + p').textContent()).resolves.toBe('Disabled');
    const token = await logInOverHttp(tenant, tenant.adminEmail, tenant.adminPassword);
    await expect((await call(tenant, 'GET', `/users/${user.id}`, token)).json()).resolves.toMatchObject({
      status: 'DISABLED',
    });
  });

  it('shows that mail to a user is suppressed after a hard bounce, and Clear lets it through again', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    // SES reports a hard bounce for the user's address: AWS's documented record, delivered as SNS delivers it.
    await deliverSesEvents(
      web.localStack(),
      snsEventOf(withRecipient(withTags(DOCUMENTED_BOUNCE, { app: tenant.app, mid: tenant.mid }), user.email)),
    );

    const admin = await adminAt(tenant, `/console/users/${user.id}`);
    await admin.getByRole('heading', { level: 2, name: 'E-mail delivery' }).waitFor();
    await expect(admin.getByRole('note').textContent()).resolves.toMatch(
      /^Mail to this address is suppressed \(hard bounce on .+\)\. The service sends it nothing/,
    );
    await expectAccessible(admin);
    await screenshot(admin, 'console-user-mail-suppressed');
    // The same on a phone, and with a dark colour scheme asked for (the pages have one scheme: it must stay legible).
    await screenshotsOnPhoneAndDark(admin, 'console-user-mail-suppressed');

    await admin.getByRole('button', { name: 'Clear the mail suppression' }).click();
    await confirmIn(admin, 'Clear').click();
    await admin.getByText('Mail to this address is no longer suppressed: the next mail goes out.').waitFor();
    await expectAccessible(admin);
    const token = await logInOverHttp(tenant, tenant.adminEmail, tenant.adminPassword);
    const res = await call(tenant, 'GET', `/users/${user.id}`, token);
    await expect(res.json()).resolves.toMatchObject({ mailSuppression: null });
  });

  it('assigns a role with an expiry, shows it with that expiry, and revokes it', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const adminToken = await logInOverHttp(tenant, tenant.adminEmail, tenant.adminPassword);
    const created = await call(tenant, 'POST', '/roles', adminToken, { name: 'CASHIER', priority: 10 });
    expect(created.status).toBe(201);
    const grantsOf = async () =>
      (
        (await (await call(tenant, 'GET', `/users/${user.id}`, adminToken)).json()) as {
          roles: { name: string; expiresAt: string | null }[];
        }
      ).roles;

    const page = await adminAt(tenant, `/console/users/${user.id}`);
    const roles = page.getByRole('region', { name: 'Roles' });
    await roles.getByRole('cell', { name: /^DEFAULT/ }).waitFor();
    await roles.getByLabel('Role', { exact: true }).selectOption({ label: 'CASHIER' });
    await roles.getByLabel('Expires (optional)').fill('2030-06-15T14:30');
    await roles.getByRole('button', { name: 'Assign role' }).click();
    await expect(roles.getByRole('status').textContent()).resolves.toMatch(/^CASHIER was assigned, until .*2030/);
    const expected = new Date('2030-06-15T14:30').getTime();
    const row = roles.getByRole('row', { name: /CASHIER/ });
    const shown = await row.locator('time').getAttribute('datetime');
    expect(Date.parse(shown ?? '')).toBe(expected);
    await expect(row.textContent()).resolves.toContain('2030');
    const granted = (await grantsOf()).find((grant) => grant.name === 'CASHIER');
    expect(Date.parse(granted?.expiresAt ?? '')).toBe(expected);
    await expectAccessible(page);
    await screenshot(page, 'console-user-role-assigned');
    // The activity says so.
    await page.getByRole('region', { name: 'Activity, newest first' }).getByText('Role assigned').waitFor();

    await row.getByRole('button', { name: 'Revoke CASHIER' }).click();
    await expectAccessible(page);
    await confirmIn(page, 'Revoke').click();
    await roles.getByText('CASHIER was revoked.').waitFor();
    await expect(roles.getByRole('row', { name: /CASHIER/ }).count()).resolves.toBe(0);
    expect((await grantsOf()).map((grant) => grant.name)).toEqual(['DEFAULT']);
  });

  it('shows the activity newest first, and "Load more" brings the older entries', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    for (let i = 0; i < 25; i++) await logInOverHttp(tenant, user.email, user.password);

    const page = await adminAt(tenant, `/console/users/${user.id}`);
    const activity = page.getByRole('region', { name: 'Activity, newest first' });
    const entries = activity.locator('tbody:not(.skeleton-rows) tr');
    await entries.nth(19).waitFor();
    await expect(entries.count()).resolves.toBe(20);
    await expect(entries.first().textContent()).resolves.toContain('Signed in');
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByText('25 entries shown, the whole history.').waitFor();
    await expect(entries.count()).resolves.toBe(25);
    await expect(page.getByRole('button', { name: 'Load more' }).count()).resolves.toBe(0);
    // Older ones follow, and the first of them has the focus.
    const times = await activity.locator('time').evaluateAll((all) => all.map((t) => t.getAttribute('datetime')));
    const instants = times.map((t) => Date.parse(t ?? ''));
    expect(instants).toEqual([...instants].sort((a, b) => b - a));
    await expect.poll(() => entries.nth(20).evaluate((row) => row === row.ownerDocument.activeElement)).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'console-user-activity');
  });

  it('deletes a user after confirming, and is back on the list with a notice', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const page = await adminAt(tenant, `/console/users/${user.id}`);
    await page.getByRole('button', { name: 'Delete user' }).click();
    await expect(page.getByRole('dialog').textContent()).resolves.toContain(`Delete ${user.email}?`);
    await confirmIn(page, 'Delete').click();
    await page.waitForURL((url) => url.pathname === '/console/users');
    await page.getByText(`${user.email} was deleted.`).waitFor();
    await page.getByText('1 user').waitFor();
    await expect(page.getByRole('cell', { name: user.email, exact: true }).count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'console-user-deleted');
    const adminToken = await logInOverHttp(tenant, tenant.adminEmail, tenant.adminPassword);
    expect((await call(tenant, 'GET', `/users/${user.id}`, adminToken)).status).toBe(404);
  });

  it('invites someone: the invitation mail arrives and the invitation is listed as open', async () => {
    const tenant = await aTenantWith();
    const email = `guest-${Date.now().toString(36)}@shop.test`;
    const page = await adminAt(tenant, '/console/invitations');
    await page.getByText('No invitation is waiting for an answer.').waitFor();
    await expectAccessible(page);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('First name (optional)').fill('Gwen');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(`An invitation was sent to ${email}.`).waitFor();
    await page.getByRole('cell', { name: email, exact: true }).waitFor();
    await expect(page.getByRole('row', { name: new RegExp(email) }).textContent()).resolves.toContain('Gwen');
    await expectAccessible(page);
    await screenshot(page, 'console-invitations');
    await expect.poll(async () => (await web.mailsTo(email)).length).toBe(1);
    const [mail] = await web.mailsTo(email);
    expect(mail?.body.text).toMatch(/invitationToken=/);

    // The same address again is refused with a sentence.
    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/\S/);
    await screenshot(page, 'console-invitations-again');
  });

  it('an ADMIN is offered no control over a SUPER_ADMIN, nor roles at or above their own', async () => {
    const tenant = await aTenantWith();
    const [admin, plain] = await Promise.all([aUser(tenant), aUser(tenant)]);
    const token = await logInOverHttp(tenant, tenant.adminEmail, tenant.adminPassword);
    const roles = (await (await call(tenant, 'GET', '/roles', token)).json()) as { id: string; name: string }[];
    const adminRole = roles.find((role) => role.name === 'ADMIN');
    expect(
      (await call(tenant, 'POST', '/roles/assign', token, { userId: admin.id, roleId: adminRole?.id })).status,
    ).toBe(204);

    const page = await adminAt(tenant, `/console/users/${tenant.adminUserId}`, admin);
    await page.getByText('This user’s role is as high as yours or higher').waitFor();
    await expect(page.getByRole('button', { name: 'Disable', exact: true }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Delete user' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: /^Revoke/ }).count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'console-user-above-me');

    // A plain user's page offers the controls, and only the roles below ADMIN to assign.
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('row').filter({ hasText: plain.email }).getByRole('link').click();
    await page.getByRole('button', { name: 'Disable', exact: true }).waitFor();
    const choices = page.getByLabel('Role', { exact: true }).locator('option');
    await choices.filter({ hasText: 'USER' }).waitFor({ state: 'attached' });
    const offered = await choices.allTextContents();
    expect(offered).toEqual(['Choose a role', 'USER', 'DEFAULT']);

    // Meanwhile the user is made ADMIN too: the service refuses, and the dialog says so in a sentence.
    expect(
      (await call(tenant, 'POST', '/roles/assign', token, { userId: plain.id, roleId: adminRole?.id })).status,
    ).toBe(204);
    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    await confirmIn(page, 'Disable').click();
    await expect(page.getByRole('dialog').getByRole('alert').textContent()).resolves.toMatch(
      /^You do not have the authority to do that/,
    );
    await expectAccessible(page);
    await screenshot(page, 'console-user-refused');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    const after = (await (await call(tenant, 'GET', `/users/${plain.id}`, token)).json()) as { status: string };
    expect(after.status).toBe('ACTIVE');
  });
});
