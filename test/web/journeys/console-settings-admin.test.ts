import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminApi } from '#test/support/admin.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';

const web = useWebStack();
/** The API's own URL (plain localhost: the edge serves pages only on tenants' hosts). */
const api = adminApi(() => `${web.origin({ subdomain: 'x' }).replace('//x.localhost', '//localhost')}/api/v1`);

async function signIn(tenant: { subdomain: string }, email: string, password: string, next: string): Promise<Page> {
  const page = await web.open(tenant, `/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.pathname === next);
  await page.locator('#main form').first().waitFor();
  return page;
}

/**
 * An ADMIN who is not SUPER_ADMIN (docs/security.md#roles-and-authority): authority 1, so MERCHANT
 * roles (priority 2 and up) are theirs to create and delete, SYSTEM roles no
 * one's; merchant settings and API keys are any admin's (keys: a user's, with
 * a recent sign-in), and any admin may revoke any key of the tenant.
 */
describe('an ADMIN who is not SUPER_ADMIN', () => {
  it('is offered what ADMIN may do on the roles, settings and API keys pages, and nothing more', async () => {
    const owner = await api.aSuperAdmin();
    const { tenant } = owner;
    const admin = await api.anAdmin(owner);
    // A role the owner made, and a key the owner made: another admin's doing, within ADMIN's reach.
    const role = await api.aRole(owner, 5);
    const ownersKey = await api.call('POST', `/merchants/${tenant.id}/api-keys`, owner.headers, { label: 'Owner key' });
    expect(ownersKey.status, JSON.stringify(ownersKey.body)).toBe(201);

    const page = await signIn(tenant, admin.user.email, admin.user.password, '/console/roles');
    await page.locator('#main table').waitFor();
    // No SYSTEM role offers a delete, not even those below ADMIN; the owner's MERCHANT role does.
    for (const name of ['SUPER_ADMIN', 'ADMIN', 'USER', 'DEFAULT']) {
      const row = page.getByRole('row', { name: new RegExp(`\\b${name}\\b`) });
      await expect(row.getByRole('button').count(), name).resolves.toBe(0);
    }
    await page.getByRole('button', { name: `Delete ${role.name}` }).waitFor();
    await expect(page.getByLabel('Priority', { exact: true }).getAttribute('min')).resolves.toBe('2');
    await expectAccessible(page);
    await screenshot(page, 'console-roles-as-admin');
    await page.getByRole('button', { name: `Delete ${role.name}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete role' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `The role ${role.name} was deleted.` })
      .waitFor();

    // Settings: an ADMIN changes how people sign up.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('radio', { name: /By invitation/ }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Your settings are saved' }).waitFor();
    const merchant = await api.call('GET', '/merchants/me', owner.headers);
    expect(merchant.body.signupMode).toBe('INVITATION_ONLY');
    await expectAccessible(page);

    // API keys: the owner's is listed as theirs and may be revoked; the ADMIN makes one of their own.
    await page.getByRole('link', { name: 'API keys' }).click();
    const ownersRow = page.getByRole('row', { name: /Owner key/ });
    await ownersRow.waitFor();
    await expect(ownersRow.textContent()).resolves.toContain(tenant.adminEmail);
    await page.getByLabel('Label').fill('Admin key');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('heading', { name: 'Your new key “Admin key”' }).waitFor();
    await expect(page.getByRole('row', { name: /Admin key/ }).textContent()).resolves.toContain(
      `You (${admin.user.email})`,
    );
    await expectAccessible(page);
    await screenshot(page, 'console-api-keys-as-admin');
    await ownersRow.getByRole('button', { name: 'Revoke Owner key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('status').filter({ hasText: 'The key “Owner key” was revoked.' }).waitFor();
    const keys = await api.call('GET', `/merchants/${tenant.id}/api-keys`, owner.headers);
    expect(keys.body.map((k: { label: string }) => k.label)).toEqual(['Admin key']);
  });
});
