import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { useLocalStack } from '#test/support/server.ts';
import { CLIENT_BUNDLE } from './support/paths.ts';

/**
 * The SDK's browser build in headless Chromium (Debian's `chromium`, driven by
 * playwright-core; no browser download): a page on an origin the tenant
 * allows discovers the tenant, logs in on the identity API's other origin
 * (CORS), and leaves the `svc_rt` cookie with the attributes of the contract.
 */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const SEVEN_DAYS_S = 7 * 24 * 60 * 60;

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>identity client</title></head>
<body>
<script type="module">
  import * as sdk from '/index.js';
  globalThis.sdk = sdk;
</script>
</body></html>`;

const api = useLocalStack();
let site: Server;
let origin: string;
let userDataDir: string;
let context: BrowserContext;
let page: Page;

function listen(server: Server): Promise<number> {
  return new Promise((done, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => done((server.address() as AddressInfo).port));
  });
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  site = createServer((req, res) => {
    if (req.url === '/index.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(readFileSync(CLIENT_BUNDLE));
    } else if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    } else {
      res.writeHead(404).end();
    }
  });
  origin = `http://127.0.0.1:${await listen(site)}`;
  userDataDir = mkdtempSync(join(tmpdir(), 'identity-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  page = context.pages()[0] ?? (await context.newPage());
}, 60_000);

afterAll(async () => {
  await context?.close();
  await new Promise((done) => site?.close(done));
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

describe('the client in Chromium', () => {
  it('discovers the tenant from an allowed origin, logs in, and keeps svc_rt: URL-encoded, 7 days, path /, Lax, not HttpOnly, not Secure', async () => {
    const tenant = await aTenantWith({ origins: [origin] });
    const user = await aUser(tenant);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => (globalThis as any).sdk !== undefined);

    const loginAnswer = page.waitForResponse((r) => r.url().endsWith('/auth/login') && r.request().method() === 'POST');
    const loggedInAt = Date.now();
    const result = await page.evaluate(
      async ({ baseUrl, clientId, slug, email, password }) => {
        const { IdentityClient } = (globalThis as any).sdk;
        // Default fetch and cookie store: globalThis.fetch and document.cookie.
        const client = new IdentityClient({ baseUrl });
        (globalThis as any).client = client;
        const tenant = await client.discover({ clientId, slug });
        const login = await client.login({ email, password });
        const me = await client.me.get();
        return { app: tenant.app, loginEmail: login.user.email, meId: me.id, authenticated: client.isAuthenticated() };
      },
      {
        baseUrl: api.url,
        clientId: tenant.publicApiKey,
        slug: tenant.subdomain,
        email: user.email,
        password: user.password,
      },
    );
    expect(result).toEqual({ app: tenant.app, loginEmail: user.email, meId: user.id, authenticated: true });
    const { refreshToken } = (await (await loginAnswer).json()).data as { refreshToken: string };

    const cookies = (await context.cookies(origin)).filter((c) => c.name === 'svc_rt');
    expect(cookies).toHaveLength(1);
    const [cookie] = cookies;
    expect(cookie).toMatchObject({
      name: 'svc_rt',
      value: encodeURIComponent(refreshToken),
      domain: '127.0.0.1',
      path: '/',
      sameSite: 'Lax',
      httpOnly: false,
      secure: false,
    });
    const expectedExpiry = loggedInAt / 1000 + SEVEN_DAYS_S;
    expect(Math.abs((cookie?.expires ?? 0) - expectedExpiry)).toBeLessThan(60);
    expect(pageErrors).toEqual([]);
  });

  it('refreshes with the token in the body (no Cookie header), then logout clears the cookie', async () => {
    // Continues the session the test above started in this page.
    const refreshRequest = page.waitForRequest((r) => r.url().endsWith('/auth/refresh') && r.method() === 'POST');
    const before = (await context.cookies(origin)).find((c) => c.name === 'svc_rt');
    expect(before).toBeDefined();

    const refreshed = await page.evaluate(async () => {
      const client = (globalThis as any).client;
      const old = client.getAccessToken();
      await client.refresh();
      return client.getAccessToken() !== old;
    });
    expect(refreshed).toBe(true);
    const request = await refreshRequest;
    expect(request.postDataJSON()).toEqual({ refreshToken: decodeURIComponent(before?.value ?? '') });
    expect(await request.headerValue('cookie')).toBeNull();

    const after = (await context.cookies(origin)).find((c) => c.name === 'svc_rt');
    expect(after?.value).not.toBe(before?.value);
    // The lifetime counts from login: a refresh keeps the cookie's expiry.
    expect(Math.abs((after?.expires ?? 0) - (before?.expires ?? 0))).toBeLessThan(2);

    const state = await page.evaluate(async () => {
      const client = (globalThis as any).client;
      await client.logout();
      return { authenticated: client.isAuthenticated(), cookie: (globalThis as any).document.cookie };
    });
    expect(state).toEqual({ authenticated: false, cookie: '' });
    expect((await context.cookies(origin)).filter((c) => c.name === 'svc_rt')).toEqual([]);
  });
});
