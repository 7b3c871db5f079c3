import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';

const web = useWebStack();

describe('the console’s guard', () => {
  it('a plain user cannot reach the console, sees no link to it, and the API refuses them', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const page = await web.open(tenant, '/sign-in?next=/console/users');
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'No access' }).waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('The console is for administrators');
    const main = page.getByRole('navigation', { name: 'Main' });
    await expect(main.getByRole('link', { name: 'Account' }).isVisible()).resolves.toBe(true);
    await expect(main.getByRole('link', { name: 'Console' }).count()).resolves.toBe(0);
    await expect(page.getByRole('navigation', { name: 'Console' }).count()).resolves.toBe(0);
    await expect(page.getByRole('table').count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'console-no-access');

    // The same user over HTTP: their token is good for /users/me and refused for the admin list.
    const api = `${web.origin(tenant).replace(/\/\/[^/]+\.localhost:/, '//localhost:')}/api/v1`;
    const login = await fetch(`${api}/auth/login`, {
      method: 'POST',
      headers: tenant.headers,
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(login.status).toBe(200);
    const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;
    const bearer = { 'x-app-id': tenant.app, 'x-mid-key': tenant.mid, authorization: `Bearer ${accessToken}` };
    expect((await fetch(`${api}/users/me`, { headers: bearer })).status).toBe(200);
    const refused = await fetch(`${api}/users`, { headers: bearer });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('FORBIDDEN');
  });
});
