import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { aRoleName } from '#test/support/admin.ts';
import { aTenantWith } from '#test/support/auth.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';
import { openAsOwner } from './account-steps.ts';

const web = useWebStack();

/** The roles as listed, top to bottom. */
const listedRoles = (page: Page) => page.locator('#main tbody th .role-name').allTextContents();

describe('roles', () => {
  it('the admin creates a MERCHANT role, sees it in priority order, and deletes it after confirming; SYSTEM roles offer no delete', async () => {
    const tenant = await aTenantWith();
    const page = await openAsOwner(web, tenant, '/console/roles', { ready: '#main tbody th .role-name' });
    await expect(listedRoles(page)).resolves.toEqual(['SUPER_ADMIN', 'ADMIN', 'USER', 'DEFAULT']);
    for (const name of ['SUPER_ADMIN', 'ADMIN', 'USER', 'DEFAULT']) {
      const row = page.getByRole('row', { name: new RegExp(`\\b${name}\\b`) });
      await expect(row.getByRole('button').count(), name).resolves.toBe(0);
      await expect(row.textContent()).resolves.toContain('cannot be deleted');
    }
    await expectAccessible(page);
    await screenshot(page, 'console-roles');

    // Priorities 0 and 1 are SUPER_ADMIN's and ADMIN's: the form says so before asking the service.
    const name = aRoleName('Editor');
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Priority', { exact: true }).fill('1');
    await page.getByRole('button', { name: 'Create role' }).click();
    await page.getByText('Enter a whole number from 2 to 1000.').waitFor();
    await expect(page.getByLabel('Priority', { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
    await expectAccessible(page);

    await page.getByLabel('Priority', { exact: true }).fill('20');
    await page.getByLabel('Description (optional)').fill('Edits the catalogue');
    await page.getByRole('button', { name: 'Create role' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `The role ${name} was created, with priority 20.` })
      .waitFor();
    await expect(listedRoles(page)).resolves.toEqual(['SUPER_ADMIN', 'ADMIN', name, 'USER', 'DEFAULT']);
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row.textContent()).resolves.toContain('Edits the catalogue');
    await expectAccessible(page);
    await screenshot(page, 'console-roles-created');

    // The same name again is refused as a sentence.
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Priority', { exact: true }).fill('30');
    await page.getByRole('button', { name: 'Create role' }).click();
    await page.getByRole('alert').filter({ hasText: 'There is a role with this name already.' }).waitFor();

    // Delete asks first; Escape keeps the role.
    await row.getByRole('button', { name: `Delete ${name}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain(`Delete the role ${name}?`);
    await expectAccessible(page);
    await screenshot(page, 'console-roles-delete');
    await page.keyboard.press('Escape');
    await expect(dialog.isVisible()).resolves.toBe(false);
    await expect(listedRoles(page)).resolves.toContain(name);

    await row.getByRole('button', { name: `Delete ${name}` }).click();
    await dialog.getByRole('button', { name: 'Delete role' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `The role ${name} was deleted.` })
      .waitFor();
    await expect(listedRoles(page)).resolves.toEqual(['SUPER_ADMIN', 'ADMIN', 'USER', 'DEFAULT']);

    // Gone for the service too: a fresh page lists the four SYSTEM roles only.
    await page.reload();
    await page.locator('#main tbody th .role-name').first().waitFor();
    await expect(listedRoles(page)).resolves.toEqual(['SUPER_ADMIN', 'ADMIN', 'USER', 'DEFAULT']);
  });
});
