import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { TestTenant } from '#test/support/auth.ts';
import {
  continueAsLabel,
  type OidcUpstream,
  startOidcUpstream,
  type UpstreamAccount,
} from '#test/support/upstream/oidc-upstream.ts';
import type { WebStack } from './web-stack.ts';

/**
 * "Demo ID" for the journeys: a real OpenID Provider on loopback (test/support/upstream/oidc-upstream.ts) with two
 * people, Ada, whose address it has verified, and Charles, whose address it has not; and a tenant's provider of kind
 * OIDC pointing at it, made through the admin API as the console would, its redirect URI registered at Demo ID.
 */

export const ADA: UpstreamAccount = {
  sub: 'ada',
  email: 'ada@demo-id.example',
  emailVerified: true,
  name: 'Ada Lovelace',
  givenName: 'Ada',
  familyName: 'Lovelace',
};

export const CHARLES: UpstreamAccount = {
  sub: 'charles',
  email: 'charles@demo-id.example',
  emailVerified: false,
  name: 'Charles Babbage',
  givenName: 'Charles',
  familyName: 'Babbage',
};

/** Demo ID, started before the file's journeys and stopped after them. */
export function useDemoId(): { readonly upstream: OidcUpstream } {
  let upstream: OidcUpstream | undefined;
  beforeAll(async () => {
    upstream = await startOidcUpstream({ accounts: [ADA, CHARLES] });
  });
  afterAll(() => upstream?.close());
  return {
    get upstream() {
      if (!upstream) throw new Error('Demo ID is not started yet');
      return upstream;
    },
  };
}

/** The identity API beside the pages (`/api/v1` on localhost), for what a journey arranges. */
function apiOf(web: WebStack, tenant: TestTenant): string {
  return `http://localhost:${new URL(web.origin(tenant)).port}/api/v1`;
}

/** The tenant's first admin's bearer headers, signed in just now (writes of providers need a recent sign-in). */
async function ownerHeaders(web: WebStack, tenant: TestTenant): Promise<Record<string, string>> {
  const res = await fetch(`${apiOf(web, tenant)}/auth/login`, {
    method: 'POST',
    headers: tenant.headers,
    body: JSON.stringify({ email: tenant.adminEmail, password: tenant.adminPassword }),
  });
  const body = (await res.json()) as { data?: { accessToken?: string } };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { ...tenant.headers, authorization: `Bearer ${body.data?.accessToken}` };
}

/** A provider of the tenant, made by its admin through the API as the console would (POST /sign-in-providers). */
export async function aProvider(
  web: WebStack,
  tenant: TestTenant,
  body: Record<string, unknown>,
): Promise<{ id: string; displayName: string; redirectUri: string }> {
  const res = await fetch(`${apiOf(web, tenant)}/sign-in-providers`, {
    method: 'POST',
    headers: await ownerHeaders(web, tenant),
    body: JSON.stringify(body),
  });
  const provider = (await res.json()) as { id: string; displayName: string; redirectUri: string };
  expect(res.status, JSON.stringify(provider)).toBe(201);
  return provider;
}

/**
 * The tenant's provider "Demo ID" (kind OIDC, issuer Demo ID's), and a client of its own at Demo ID whose redirect
 * URI is the one the API says to register. Answers the provider as the API does.
 */
export async function aDemoIdProvider(
  web: WebStack,
  tenant: TestTenant,
  upstream: OidcUpstream,
  options: { displayName?: string; trustEmail?: boolean } = {},
): Promise<{ id: string; displayName: string; redirectUri: string }> {
  const client = { clientId: `demo-${tenant.subdomain}`, clientSecret: `secret-${tenant.subdomain}` };
  const provider = await aProvider(web, tenant, {
    kind: 'OIDC',
    displayName: options.displayName ?? 'Demo ID',
    issuer: upstream.issuer,
    ...client,
    ...(options.trustEmail === undefined ? {} : { trustEmail: options.trustEmail }),
  });
  await upstream.addClient({ ...client, redirectUris: [provider.redirectUri] });
  return provider;
}

/** At Demo ID's page (its account chooser): picks `account`, "Continue as Ada Lovelace <ada@demo-id.example>". */
export async function continueAtDemoId(page: Page, upstream: OidcUpstream, account: UpstreamAccount): Promise<void> {
  await page.waitForURL((url) => url.origin === new URL(upstream.issuer).origin);
  await page.getByRole('heading', { name: 'Demo ID' }).waitFor();
  await page.getByRole('button', { name: continueAsLabel(account) }).click();
}

/** Demo ID forgets who signed in with it in this browser: its account chooser shows again on the next visit. */
export async function forgetDemoIdSession(page: Page, upstream: OidcUpstream): Promise<void> {
  await page.context().clearCookies({ domain: new URL(upstream.issuer).hostname });
}
