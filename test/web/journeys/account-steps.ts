import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Deps } from '#shared/deps.ts';
import { keys } from '#shared/store/keys.ts';
import type { TestTenant, TestUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import type { WebStack } from '../support/web-stack.ts';

/**
 * Steps the account journeys share: signing in through the page, the API
 * beside the page (same local stack), and ageing a sign-in past the 10
 * minutes of recent authentication, as the integration tests of
 * reauthentication do (the session's `authenticatedAt` in the store).
 */

/** Signs in on the tenant's page with a password, then a TOTP or backup code if asked; lands on /account. */
export async function signIn(
  page: Page,
  user: { email: string; password: string },
  second?: { totpCode: string } | { backupCode: string },
): Promise<void> {
  await page.getByLabel('E-mail address').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  if (second) {
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    if ('backupCode' in second) {
      await page.getByRole('button', { name: 'Use a backup code instead' }).click();
      await page.getByLabel('Backup code').fill(second.backupCode);
      await page.getByRole('button', { name: 'Verify' }).click();
    } else {
      // The sixth digit sends it.
      await page.getByLabel('Authenticator code').fill(second.totpCode);
    }
  }
  await page.waitForURL(/\/account$/);
  await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
}

/**
 * The user's account page, signed in through the API (web.openSignedIn): for the journeys whose subject is the
 * account, not signing in; a password user without a second step.
 */
export async function openAccount(
  web: WebStack,
  tenant: TestTenant,
  user: { email: string; password: string },
): Promise<Page> {
  const page = await web.openSignedIn(tenant, user, '/account');
  await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
  return page;
}

/** The identity API of the stack the pages are served from (`/api/v1` on localhost), for what the test arranges. */
export function apiOf(web: WebStack, tenant: TestTenant): string {
  const url = new URL(web.origin(tenant));
  return `http://localhost:${url.port}/api/v1`;
}

/** `n` password logins through the API (each records a LOGIN in the user's activity). */
export async function someLogins(web: WebStack, tenant: TestTenant, user: TestUser, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${apiOf(web, tenant)}/auth/login`, {
      method: 'POST',
      headers: { ...tenant.headers, 'user-agent': 'Scripted login/1.0' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
  }
}

/**
 * Every live session of the user now counts as signed in `minutes` ago: guarded changes ask to reauthenticate.
 * `deps`: the stack's, when it has a table of its own (a stack that delivers webhooks).
 */
export async function ageSignIns(
  tenant: TestTenant,
  userId: string,
  minutes = 11,
  deps: Deps = makeTestDeps(),
): Promise<void> {
  const { Items = [] } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.userPartition(tenant, userId), ':prefix': keys.sessionPrefix },
      ConsistentRead: true,
    }),
  );
  expect(Items.length).toBeGreaterThan(0);
  const then = new Date(Date.now() - minutes * 60_000).toISOString();
  for (const item of Items) {
    await deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.tableName,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: 'SET authenticatedAt = :then',
        ExpressionAttributeValues: { ':then': then },
      }),
    );
  }
}

/** The text of the page's status notices (role=status), for assertions on what the user is told. */
export async function notices(page: Page): Promise<string[]> {
  return (await page.getByRole('status').allTextContents()).map((t) => t.trim()).filter(Boolean);
}

/** The tenant's TOTP policy set on its merchant item (the console's settings do it through the API). */
export async function setTotpPolicy(
  tenant: TestTenant,
  policy: { totpAllowed?: boolean; allowUserDisableTotp?: boolean },
): Promise<void> {
  const deps = makeTestDeps();
  const entries = Object.entries(policy);
  await deps.store.doc.send(
    new UpdateCommand({
      TableName: deps.store.tableName,
      Key: keys.merchant(tenant),
      UpdateExpression: `SET ${entries.map((_, i) => `#k${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#k${i}`, k])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
    }),
  );
}

/**
 * The tenant's first admin (SUPER_ADMIN), signed in through the API (the sign-in form has journeys of its own), at
 * `path` in a browser of `locale`, once the page's own content is there: its first form, what `ready` names, or,
 * with `ready: null`, at once (the journey waits for what it is about).
 */
export async function openAsOwner(
  web: WebStack,
  tenant: TestTenant,
  path: string,
  { ready = '#main form', locale }: { ready?: string | null; locale?: string } = {},
): Promise<Page> {
  const owner = { email: tenant.adminEmail, password: tenant.adminPassword };
  const page = await web.openSignedIn(tenant, owner, path, locale ? { locale } : {});
  if (ready) await page.locator(ready).first().waitFor();
  return page;
}

/** Changes the tenant's settings as its admin would (PATCH /merchants/{id}), before its pages open. */
export async function changeSettings(
  web: WebStack,
  tenant: TestTenant,
  settings: Record<string, unknown>,
): Promise<void> {
  const login = await fetch(`${apiOf(web, tenant)}/auth/login`, {
    method: 'POST',
    headers: tenant.headers,
    body: JSON.stringify({ email: tenant.adminEmail, password: tenant.adminPassword }),
  });
  const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
  const res = await fetch(`${apiOf(web, tenant)}/merchants/${tenant.id}`, {
    method: 'PATCH',
    headers: { ...tenant.headers, authorization: `Bearer ${token}` },
    body: JSON.stringify(settings),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}
