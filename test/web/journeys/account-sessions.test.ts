import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';
import { signIn, someLogins } from './account-steps.ts';

const web = useWebStack();

describe('sessions on the account page', () => {
  it('a session signed out from another browser sends the page it had open to sign-in, with the notice', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const first = await web.open(tenant, '/sign-in');
    await signIn(first, user);
    const second = await web.open(tenant, '/sign-in');
    await signIn(second, user);

    const sessions = second.getByRole('region', { name: 'Where you are signed in' });
    const rows = sessions.getByRole('row');
    await sessions.getByText('This device').waitFor();
    await expect(rows.count()).resolves.toBe(3); // the heading row and two sessions
    const mine = rows.filter({ hasText: 'This device' });
    await expect(mine.count()).resolves.toBe(1);
    await expect(mine.getByRole('button').count()).resolves.toBe(0);
    await expectAccessible(second);
    await screenshot(second, 'account-sessions');

    const others = rows.filter({ has: second.getByRole('button', { name: /^Sign out the session on/ }) });
    await expect(others.count()).resolves.toBe(1);
    await others.getByRole('button').click();
    await sessions.getByText(/^The session on .+ was signed out\.$/).waitFor();
    await expect.poll(() => rows.count()).toBe(2);
    // Focus went back to the section's heading, not lost with the row.
    await expect(second.evaluate('document.activeElement?.textContent')).resolves.toBe('Where you are signed in');

    // The first browser's open page learns it when it comes back into focus.
    await first.bringToFront();
    await first.evaluate('window.dispatchEvent(new Event("focus"))');
    await first.waitForURL(/\/sign-in\?expired=1/);
    await expect(first.getByRole('status').textContent()).resolves.toBe(
      'Your session has ended. Sign in again to go on.',
    );
    await expectAccessible(first);

    // The second goes on.
    await second.reload();
    await second.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
  });

  it('“sign out everywhere”, confirmed by keyboard, ends every session, this one too', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const first = await web.open(tenant, '/sign-in');
    await signIn(first, user);
    const second = await web.open(tenant, '/sign-in');
    await signIn(second, user);

    const sessions = second.getByRole('region', { name: 'Where you are signed in' });
    await sessions.getByRole('button', { name: 'Sign out everywhere…' }).click();
    const confirm = sessions.getByRole('group', { name: 'Sign out everywhere?' });
    await confirm.waitFor();
    // The focus moves to the confirming button once the group is shown (a frame later).
    await expect.poll(() => second.evaluate('document.activeElement?.textContent')).toBe('Yes, sign out everywhere');
    await expectAccessible(second);
    await screenshot(second, 'account-sign-out-everywhere');
    await second.keyboard.press('Enter');
    await second.waitForURL(/\/sign-in/);
    await second.reload();
    await second.getByRole('heading', { name: /^Sign in to / }).waitFor();

    await first.bringToFront();
    await first.evaluate('window.dispatchEvent(new Event("focus"))');
    await first.waitForURL(/\/sign-in\?expired=1/);
  });
});

describe('recent activity on the account page', () => {
  it("lists the user's own activity, ten at a time with “Load more”, and nothing of another user's", async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const neighbour = await aUser(tenant);
    await someLogins(web, tenant, user, 11);
    await someLogins(web, tenant, neighbour, 3);
    const page = await web.open(tenant, '/sign-in');
    await signIn(page, user);

    const section = page.getByRole('region', { name: 'Recent activity' });
    const items = section.getByRole('listitem');
    await items.first().waitFor();
    await expect(items.count()).resolves.toBe(10);
    await expect(items.first().textContent()).resolves.toMatch(/^Signed in.*Chrome on Linux/);
    await expect(items.nth(1).textContent()).resolves.toMatch(/^Signed in.*Scripted login\/1\.0/);
    await expectAccessible(page);
    await screenshot(page, 'account-activity');

    await section.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => items.count()).toBe(12);
    await expect(section.getByRole('button', { name: 'Load more' }).count()).resolves.toBe(0);
    // Focus is on the first record just shown.
    await expect(
      page.evaluate('document.activeElement === document.querySelectorAll("ol.activity li")[10]'),
    ).resolves.toBe(true);
    const kinds = await section.locator('.what').allTextContents();
    expect(kinds).toEqual(Array.from({ length: 12 }, () => 'Signed in'));
  });
});
