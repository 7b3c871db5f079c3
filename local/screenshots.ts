/**
 * `npm run screenshots`: the README's pictures of the hosted pages, made from
 * the real pages on a throwaway local stack (in memory, ephemeral ports) in
 * Debian's Chromium: the sign-in page, the account page and the console, of a
 * branded demo tenant, on a desktop and a phone, light and dark (the sign-in page in German too). Writes web/screenshots/*.png.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { createTenant } from '#shared/tenancy/create-tenant.ts';
import { REPO_ROOT, startLocalStack } from './stack.ts';

const OUT = resolve(REPO_ROOT, 'web/screenshots');
const DESKTOP = { width: 1100, height: 760 };
const PHONE = { width: 375, height: 760 };

const stack = await startLocalStack({ port: 0, sesPort: 0, secretsKey: randomBytes(32).toString('base64') });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
try {
  const deps = stack.deps;
  const tenant = await createTenant(deps, {
    name: 'Fern & Moss',
    adminEmail: 'ada@fernandmoss.test',
    origins: ['https://fernandmoss.test'],
    subdomain: 'fernandmoss',
    loginMode: 'PASSWORD_OR_OTP_EMAIL',
  });
  const origin = stack.hostedPagesOrigin.replace('{subdomain}', tenant.subdomain);
  const headers = { 'content-type': 'application/json', 'x-app-id': tenant.app, 'x-mid-key': tenant.mid };
  const call = async (method: string, path: string, body: unknown, token?: string) => {
    const res = await fetch(`${stack.apiUrl}${path}`, {
      method,
      headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
    return res.status === 204 ? undefined : await res.json();
  };
  // The brand, set as an admin would in the console's settings.
  const login = await call('POST', '/auth/login', { email: tenant.adminEmail, password: tenant.adminPassword });
  const adminToken = (login as { data: { accessToken: string } }).data.accessToken;
  await call('PATCH', `/merchants/${tenant.id}`, { primaryColor: '#2f5d3a', secondaryColor: '#eef3ec' }, adminToken);
  await call('PATCH', '/users/me', { firstName: 'Ada', lastName: 'Moss' }, adminToken);
  // A few customers, for the console's list.
  const people = ['Rowan Birch', 'Ivy Holm', 'Basil Reed', 'Hazel Grove', 'Sorrel Lake', 'Linden Marsh'];
  for (const person of people) {
    const [firstName, lastName] = person.split(' ') as [string, string];
    const email = `${firstName.toLowerCase()}@example.test`;
    await call('POST', '/users/invitations', { email, firstName, lastName }, adminToken);
  }

  mkdirSync(OUT, { recursive: true });
  // Each page as a desktop and a phone (375 px) show it, in the light and the dark scheme: `<name>.png`,
  // `<name>-dark.png`, `<name>-phone.png`, `<name>-phone-dark.png`.
  const shoot = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    for (const [suffix, viewport] of [
      ['', DESKTOP],
      ['-phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        const file = `${name}${suffix}${scheme === 'dark' ? '-dark' : ''}.png`;
        await page.screenshot({ path: resolve(OUT, file) });
        console.log(`wrote web/screenshots/${file}`);
      }
    }
    await page.setViewportSize(DESKTOP);
    await page.emulateMedia({ colorScheme: 'light' });
  };
  const context = await browser.newContext({ viewport: DESKTOP, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(`${origin}/sign-in`);
  await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
  await shoot(page, 'sign-in');

  await page.getByLabel('E-mail address').fill(tenant.adminEmail);
  await page.getByLabel('Password', { exact: true }).fill(tenant.adminPassword);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/account/);
  await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
  await shoot(page, 'account');

  await page.goto(`${origin}/console/users`);
  await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
  await page.getByText('7 users').waitFor();
  await shoot(page, 'console');

  // The sign-in page as a browser set to German sees it.
  const german = await browser.newContext({ viewport: DESKTOP, deviceScaleFactor: 1, locale: 'de-DE' });
  const germanPage = await german.newPage();
  await germanPage.goto(`${origin}/sign-in`);
  await germanPage.getByRole('button', { name: 'Anmelden', exact: true }).waitFor();
  await shoot(germanPage, 'sign-in-de');
} finally {
  await browser.close();
  await stack.stop();
}
process.exit(0);
