import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { TestTenant, TestUser } from '#test/support/auth.ts';
import { bearer, post } from '#test/support/http.ts';
import { type RegisteredClient, registerClient } from '#test/support/oidc.ts';
import type { WebStack } from './web-stack.ts';

/**
 * What the interoperability journeys (test/web/journeys/oidc-interop-*.test.ts) share: the relying party's side
 * of the flow, a loopback HTTP server of the test (`http://127.0.0.1:<port>`, a valid loopback redirect URI)
 * that records every URL it receives and answers what the journey asks of it; the client registered by the
 * tenant's owner through the admin API; and the user's part on the hosted sign-in page.
 */

/** Answers one request, or returns false to fall through to the plain "back at the client" page. */
export type LoopbackHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => boolean | Promise<boolean>;

export interface LoopbackClient {
  /** `http://127.0.0.1:<port>`, known once the file's beforeAll ran. */
  readonly origin: string;
  /** Every URL the server received, oldest first. */
  readonly received: URL[];
}

/** Starts the client's loopback server for the file (beforeAll) and stops it after (afterAll). */
export function useLoopbackClient(handler?: LoopbackHandler): LoopbackClient {
  let server: Server | undefined;
  let origin = '';
  const received: URL[] = [];
  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', origin);
      received.push(url);
      try {
        if (handler && (await handler(req, res, url))) return;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          '<!doctype html><html lang="en"><title>The client</title><main><h1>Back at the client</h1></main></html>',
        );
      } catch (error) {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`the test's client failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
      }
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server?.closeAllConnections();
        server ? server.close(() => resolve()) : resolve();
      }),
  );
  return {
    get origin() {
      if (!origin) throw new Error('the loopback client is not started yet');
      return origin;
    },
    received,
  };
}

/** The browser back at the client: waits for `path` on the loopback origin and answers its query. */
export async function landedAt(page: Page, origin: string, path: string): Promise<URL> {
  await page.waitForURL((url) => url.origin === origin && url.pathname === path);
  return new URL(page.url());
}

/** The identity API beside the hosted pages (`http://localhost:<port>/api/v1`), for the journeys' own setup. */
export const apiUrlOf = (web: WebStack, tenant: TestTenant) =>
  `${web.origin(tenant).replace(/\/\/[^/]+\.localhost:/, '//localhost:')}/api/v1`;

/** A client registered by the tenant's owner through the admin API (signed in just now, as registration asks). */
export async function registerClientAsOwner(
  web: WebStack,
  tenant: TestTenant,
  body: Record<string, unknown>,
): Promise<RegisteredClient> {
  const apiUrl = apiUrlOf(web, tenant);
  const login = await post(
    `${apiUrl}/auth/login`,
    { email: tenant.adminEmail, password: tenant.adminPassword },
    tenant.headers,
  );
  expect(login.status, login.text).toBe(200);
  return registerClient(apiUrl, { headers: bearer(tenant, login.body.data.accessToken) }, body);
}

/** The code the user's authenticator app shows now. */
export const totpNow = (user: TestUser) =>
  new TOTP({
    secret: Secret.fromBase32(user.totpSecret as string),
    digits: 6,
    period: 30,
    algorithm: 'SHA1',
  }).generate();

/** The user's part on the hosted sign-in form: e-mail and password (the page is already showing the form). */
export async function signInWithPassword(page: Page, user: TestUser): Promise<void> {
  await page.getByLabel('E-mail address').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The second step of a user with TOTP: the authenticator code, once the page asks for it. */
export async function verifyWithTotp(page: Page, user: TestUser, beforeVerify?: () => Promise<void>): Promise<void> {
  await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
  await beforeVerify?.();
  // The sixth digit sends it.
  await page.getByLabel('Authenticator code').fill(totpNow(user));
}

/**
 * A fresh browser context (no cookie, no storage) whose page is at `url`, outside the tenant's pages (a client's
 * own page): the web stack opens it on the tenant's sign-in page first, so that the page is watched for CSP
 * violations and uncaught errors as every journey's page is.
 */
export async function openFreshAt(web: WebStack, tenant: TestTenant, url: string): Promise<Page> {
  const page = await web.open(tenant, '/sign-in');
  await page.goto(url);
  return page;
}
