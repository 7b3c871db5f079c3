import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser, type TestUser } from '#test/support/auth.ts';
import { expectAccessible, screenshot, useWebStack } from '../support/web-stack.ts';

const web = useWebStack();

async function signIn(page: Page, user: TestUser) {
  await page.getByLabel('E-mail address').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/account$/);
  await page.getByText(user.email).first().waitFor();
}

describe('two tenants in one browser', () => {
  it('each tenant’s host keeps its own session cookie, and each page stays signed in as its own user', async () => {
    const [tenantA, tenantB] = await Promise.all([aTenantWith(), aTenantWith()]);
    const [userA, userB] = await Promise.all([aUser(tenantA), aUser(tenantB)]);
    const originA = web.origin(tenantA);
    const originB = web.origin(tenantB);
    expect(new URL(originA).hostname).toMatch(/^t-.+\.localhost$/);
    expect(new URL(originA).hostname).not.toBe(new URL(originB).hostname);

    const pageA = await web.open(tenantA, '/sign-in');
    await signIn(pageA, userA);
    const context = pageA.context();
    const refreshCookie = async (origin: string) =>
      (await context.cookies(origin)).filter((cookie) => cookie.name === 'svc_rt');
    const [cookieA] = await refreshCookie(originA);
    expect(cookieA?.value).toBeTruthy();
    // Host-only: it goes to tenant A's host and no other.
    expect(cookieA?.domain).toBe(new URL(originA).hostname);
    await expect(refreshCookie(originB)).resolves.toEqual([]);

    // The same browser (one context), another tab, the other tenant's host.
    const pageB = await web.tab(pageA, `${originB}/sign-in`);
    await pageB.getByRole('heading', { name: /^Sign in to Shop / }).waitFor();
    await signIn(pageB, userB);
    const [cookieB] = await refreshCookie(originB);
    expect(cookieB?.value).toBeTruthy();
    expect(cookieB?.value).not.toBe(cookieA?.value);
    await expect(refreshCookie(originA)).resolves.toEqual([cookieA]);
    await expect(refreshCookie(originB)).resolves.toHaveLength(1);

    // A reload restores each session from its own cookie.
    for (const [page, user, other] of [
      [pageA, userA, userB],
      [pageB, userB, userA],
    ] as const) {
      await page.reload();
      await page.waitForURL(/\/account$/);
      await page.getByText(user.email).first().waitFor();
      await expect(page.getByText(other.email).count()).resolves.toBe(0);
      await expectAccessible(page);
    }
    await screenshot(pageA, 'two-tenants-a');
    await screenshot(pageB, 'two-tenants-b');
    const [afterA] = await refreshCookie(originA);
    const [afterB] = await refreshCookie(originB);
    expect(afterA?.value).toBeTruthy();
    expect(afterB?.value).toBeTruthy();
    expect(afterA?.value).not.toBe(afterB?.value);
    await expect(refreshCookie(originA)).resolves.toHaveLength(1);
    await expect(refreshCookie(originB)).resolves.toHaveLength(1);
  });
});
