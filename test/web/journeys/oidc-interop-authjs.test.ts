import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { localhostFetch } from '#test/support/oidc.ts';
import { type AuthJsConfig, loadAuthJs } from '../support/authjs.ts';
import {
  openFreshAt,
  registerClientAsOwner,
  signInWithPassword,
  useLoopbackClient,
  verifyWithTotp,
} from '../support/oidc-interop.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';

/**
 * Auth.js (@auth/core) as a server-side confidential client: the test's loopback server hands every request
 * under /auth to `Auth(request, config)` with an `oidc` provider configured by three settings (issuer, client
 * id and secret), as the README shows for Next.js. The browser starts on Auth.js's own sign-in page, signs in on
 * the tenant's hosted page, comes back to Auth.js's callback, and its Auth.js session names the user.
 */

const web = useWebStack();
const { Auth, customFetch } = await loadAuthJs();

/** The Auth.js configuration of the journey running now. */
let config: AuthJsConfig | undefined;
/** What Auth.js logged as errors (its logger), to say why a sign-in failed. */
const authErrors: string[] = [];

/** node:http → a web Request for Auth.js, and its Response back (every Set-Cookie kept apart). */
async function handOver(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  if (!config) throw new Error('no Auth.js configuration for this journey');
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const answer = await Auth(
    new Request(url, { method: req.method, headers, ...(hasBody ? { body: Buffer.concat(chunks) } : {}) }),
    config,
  );
  answer.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  res.writeHead(answer.status);
  res.end(Buffer.from(await answer.arrayBuffer()));
}

const app = useLoopbackClient(async (req, res, url) => {
  if (url.pathname !== '/auth' && !url.pathname.startsWith('/auth/')) return false;
  await handOver(req, res, url);
  return true;
});

/** A tenant, its user, and an Auth.js app whose `shop` provider is a confidential client of the tenant. */
async function anAuthJsApp(options: { totp?: boolean; checks?: ('pkce' | 'state' | 'nonce')[] } = {}) {
  const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
  const user = await aUser(tenant, { totp: options.totp ?? false });
  const client = await registerClientAsOwner(web, tenant, {
    name: 'Shop web',
    type: 'confidential',
    redirectUris: [`${app.origin}/auth/callback/shop`],
    firstParty: true,
  });
  const issuer = web.origin(tenant);
  authErrors.length = 0;
  config = {
    basePath: '/auth',
    trustHost: true,
    secret: 'an Auth.js secret for the interoperability journey, long enough',
    logger: { error: (error) => authErrors.push(`${error.name}: ${error.message} ${String(error.cause ?? '')}`) },
    providers: [
      {
        // The README's three settings; Node cannot resolve *.localhost, so Auth.js is given localhostFetch.
        id: 'shop',
        name: 'Shop',
        type: 'oidc',
        issuer,
        clientId: client.clientId,
        clientSecret: client.clientSecret as string,
        ...(options.checks ? { checks: options.checks } : {}),
        [customFetch]: localhostFetch,
      },
    ],
  };
  return { tenant, user, issuer };
}

/** Back from the hosted page: Auth.js redeemed the code at its callback and sent the browser on. */
async function backAtTheApp(page: Page, issuer: string): Promise<URL> {
  await page.waitForURL((url) => url.origin === app.origin && !url.pathname.startsWith('/auth/callback'));
  expect(authErrors).toEqual([]);
  const callback = app.received.findLast((url) => url.pathname === '/auth/callback/shop');
  expect(callback?.searchParams.get('code')).toEqual(expect.any(String));
  expect(callback?.searchParams.get('iss')).toBe(issuer);
  return new URL(page.url());
}

/** GET /auth/session in the browser: Auth.js's session, as its client-side helpers read it. */
async function sessionInTheBrowser(page: Page) {
  await page.goto(`${app.origin}/auth/session`);
  return JSON.parse((await page.locator('body').textContent()) ?? 'null');
}

describe('Auth.js with the hosted sign-in page', () => {
  it('the README’s configuration: Auth.js’s sign-in page → the hosted sign-in page → /auth/callback/shop, and the Auth.js session names the user', async () => {
    const { tenant, user, issuer } = await anAuthJsApp();
    const page = await openFreshAt(web, tenant, `${app.origin}/auth/signin`);
    await page.getByRole('button', { name: 'Sign in with Shop' }).click();
    await page.getByRole('heading', { name: 'Sign in to continue to Shop web' }).waitFor();
    expect(new URL(page.url()).origin).toBe(issuer);
    await expectAccessible(page);
    await screenshot(page, 'oidc-interop-authjs-sign-in');
    await signInWithPassword(page, user);
    await backAtTheApp(page, issuer);

    const session = await sessionInTheBrowser(page);
    // `name` from the profile scope: what Auth.js shows as the user's name.
    expect(session).toMatchObject({ user: { email: user.email, name: 'Test User' }, expires: expect.any(String) });
    await screenshot(page, 'oidc-interop-authjs-session');
  });

  it('every check Auth.js has (PKCE, state, nonce), started by GET /auth/csrf and POST /auth/signin/shop, with a TOTP user', async () => {
    const { tenant, user, issuer } = await anAuthJsApp({ totp: true, checks: ['pkce', 'state', 'nonce'] });
    const page = await openFreshAt(web, tenant, `${app.origin}/`);
    const authorizeRequests: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === issuer && url.pathname === '/api/v1/oidc/authorize') authorizeRequests.push(url);
    });
    // What an app's own "Sign in" button does: the CSRF token (its cookie lands in the browser's jar), then a
    // form POST to the provider's sign-in.
    const csrf = await page.request.get(`${app.origin}/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    await page.setContent(
      `<!doctype html><html lang="en"><title>Shop</title><main><h1>Shop</h1>
      <form method="post" action="${app.origin}/auth/signin/shop">
        <input type="hidden" name="csrfToken" value="${csrfToken}">
        <input type="hidden" name="callbackUrl" value="${app.origin}/after-sign-in">
        <button>Sign in with Shop</button>
      </form></main></html>`,
    );
    await page.getByRole('button', { name: 'Sign in with Shop' }).click();
    await page.getByRole('heading', { name: 'Sign in to continue to Shop web' }).waitFor();
    const sent = authorizeRequests[0]?.searchParams;
    expect(sent?.get('code_challenge_method')).toBe('S256');
    expect(sent?.get('state')).toEqual(expect.any(String));
    expect(sent?.get('nonce')).toEqual(expect.any(String));
    expect(sent?.get('scope')).toBe('openid profile email');

    await signInWithPassword(page, user);
    await verifyWithTotp(page, user);
    const landed = await backAtTheApp(page, issuer);
    expect(landed.pathname).toBe('/after-sign-in');
    const session = await sessionInTheBrowser(page);
    expect(session).toMatchObject({ user: { email: user.email } });
  });
});
