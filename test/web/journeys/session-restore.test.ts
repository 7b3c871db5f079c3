import { describe, expect, it } from 'vitest';
import { aTenantWith } from '#test/support/auth.ts';
import { useWebStack } from '../support/web-stack.ts';

const web = useWebStack();

describe('a session across page loads', () => {
  it('survives a reload (the svc_rt cookie restores it), opens the console at its first section, and ends at sign-out', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const page = await web.open(tenant, '/sign-in?next=/console');
    await page.getByLabel('E-mail address').fill(tenant.adminEmail);
    await page.getByLabel('Password').fill(tenant.adminPassword);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/console\/users$/);
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/users');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in$/);
    expect((await page.context().cookies()).find((c) => c.name === 'svc_rt')).toBeUndefined();
    await page.goto(`${web.origin(tenant)}/account`);
    await page.waitForURL(/\/sign-in\?next=%2Faccount$/);
  });
});
