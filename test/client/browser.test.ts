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

/** In a page: a client whose fetch sends a token marked expired as one the service refuses (401), as on expiry. */
async function aTabClient(tab: Page, baseUrl: string, clientId: string) {
  await tab.goto(`${origin}/`);
  await tab.waitForFunction(() => (globalThis as any).sdk !== undefined);
  await tab.evaluate(
    async ({ baseUrl, clientId }) => {
      const g = globalThis as any;
      g.expiredTokens = new Set<string>();
      g.signals = 0;
      const fetchExpiring = (url: string, init: any) => {
        const token = init?.headers?.authorization?.slice('Bearer '.length);
        if (token && g.expiredTokens.has(token)) {
          init = { ...init, headers: { ...init.headers, authorization: 'Bearer expired.access.token' } };
        }
        return fetch(url, init);
      };
      g.client = new g.sdk.IdentityClient({ baseUrl, fetch: fetchExpiring, onSessionExpired: () => g.signals++ });
      await g.client.discover({ clientId });
    },
    { baseUrl, clientId },
  );
}

describe('three tabs of one origin sharing svc_rt', () => {
  it('all refresh at once with expired access tokens: one chain, every tab signed in, no signal; revoke-all elsewhere then signs each out once', async () => {
    const tenant = await aTenantWith({ origins: [origin] });
    const user = await aUser(tenant);
    const tabs = [await context.newPage(), await context.newPage(), await context.newPage()] as [Page, Page, Page];
    const pageErrors: string[] = [];
    for (const tab of tabs) tab.on('pageerror', (error) => pageErrors.push(error.message));
    for (const tab of tabs) await aTabClient(tab, api.url, tenant.publicApiKey);
    // The first tab signs in; the others resume from the cookie, as tabs opened later do.
    await tabs[0].evaluate(({ email, password }) => (globalThis as any).client.login({ email, password }), {
      email: user.email,
      password: user.password,
    });
    for (const tab of tabs.slice(1)) await tab.evaluate(() => (globalThis as any).client.refresh());

    const presented: string[] = [];
    const onRequest = (request: { url(): string; method(): string; postDataJSON(): any }) => {
      if (request.url().endsWith('/auth/refresh') && request.method() === 'POST') {
        presented.push(request.postDataJSON().refreshToken);
      }
    };
    context.on('request', onRequest);
    // Every tab's access token has expired (the laptop woke up); all call the API at once.
    await Promise.all(
      tabs.map((tab) =>
        tab.evaluate(() => {
          const g = globalThis as any;
          g.expiredTokens.add(g.client.getAccessToken());
        }),
      ),
    );
    const mine = await Promise.all(
      tabs.map((tab) => tab.evaluate(async () => (await (globalThis as any).client.me.get()).id)),
    );
    context.off('request', onRequest);
    expect(mine).toEqual([user.id, user.id, user.id]);
    // One refresh per tab, each with the token the tab before it stored (Web Locks): one chain, no race.
    expect(presented).toHaveLength(3);
    expect(new Set(presented).size).toBe(3);
    expect(await Promise.all(tabs.map((tab) => tab.evaluate(() => (globalThis as any).signals)))).toEqual([0, 0, 0]);

    // Revoke-all from another device: every tab's next call ends its session, each signalling once.
    const elsewhere = await fetch(`${api.url}/auth/login`, {
      method: 'POST',
      headers: tenant.headers,
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    const { accessToken } = ((await elsewhere.json()) as any).data;
    const revoked = await fetch(`${api.url}/sessions/revoke-all`, {
      method: 'POST',
      headers: { ...tenant.headers, authorization: `Bearer ${accessToken}` },
    });
    expect(revoked.status).toBe(204);
    const after = await Promise.all(
      tabs.map((tab) =>
        tab.evaluate(async () => {
          const g = globalThis as any;
          const outcome = await g.client.me.get().then(
            () => 'signed in',
            (error: any) => error.code,
          );
          return { outcome, authenticated: g.client.isAuthenticated() };
        }),
      ),
    );
    for (const state of after) expect(state.authenticated).toBe(false);
    // A second call is refused without another signal.
    await Promise.all(
      tabs.map((tab) => tab.evaluate(() => (globalThis as any).client.me.get().catch(() => undefined))),
    );
    expect(await Promise.all(tabs.map((tab) => tab.evaluate(() => (globalThis as any).signals)))).toEqual([1, 1, 1]);
    expect((await context.cookies(origin)).filter((c) => c.name === 'svc_rt')).toEqual([]);
    expect(pageErrors).toEqual([]);
    for (const tab of tabs) await tab.close();
  }, 60_000);
});
