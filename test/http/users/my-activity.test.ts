import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser, type TestTenant, type TestUser } from '#test/support/auth.ts';
import { bearer, expectInvalid, expectProblem, identityApi, isoTimestamp, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

/**
 * GET /users/me/activity?limit=&cursor= (the account page's "recent
 * activity"): the caller's own activity, newest first, paged like the
 * admin's GET /users/{id}/activity. The partition is the verified session's
 * tenant and user: nothing in the request can point it elsewhere.
 */

const api = useLocalStack();
const { call, logIn } = identityApi(() => api.url);

interface Item {
  id: string;
  type: string;
  at: string;
  ip: string;
  userAgent: string;
  actorId: string;
}

const myActivity = (tenant: TestTenant, token: string, query = '') =>
  call('GET', `/users/me/activity${query}`, bearer(tenant, token));

const signIn = (tenant: TestTenant, user: TestUser, userAgent = 'journey-agent/1.0') =>
  logIn(tenant, user.email, user.password, { 'user-agent': userAgent });

/** Every page of the caller's activity, `limit` a page. */
async function walk(tenant: TestTenant, token: string, limit: number) {
  const pages: { items: Item[]; nextCursor: string | null }[] = [];
  let cursor: string | null = null;
  do {
    const res = await myActivity(
      tenant,
      token,
      `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages.push(res.body);
    cursor = res.body.nextCursor;
    if (pages.length > 50) throw new Error('the cursor never ends');
  } while (cursor);
  return pages;
}

describe('GET /users/me/activity', () => {
  it("answers the caller's own activity, newest first: the logins and the password change just made", async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    await signIn(tenant, user);
    const { accessToken } = await signIn(tenant, user);
    const newPassword = `${user.password}-new7`;
    const changed = await post(
      `${api.url}/users/me/password`,
      { currentPassword: user.password, newPassword },
      { ...bearer(tenant, accessToken), 'user-agent': 'journey-agent/1.0' },
    );
    expect(changed.status, changed.text).toBe(204);

    const res = await myActivity(tenant, accessToken);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['items', 'nextCursor']);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.items.map((i: Item) => i.type)).toEqual(['PASSWORD_CHANGE', 'LOGIN', 'LOGIN']);
    for (const item of res.body.items) {
      expect(item).toEqual({
        id: expect.any(String),
        type: expect.any(String),
        at: isoTimestamp,
        ip: expect.any(String),
        userAgent: 'journey-agent/1.0',
        actorId: user.id,
        // A login says how the user proved who they are.
        method: item.type === 'LOGIN' ? 'PASSWORD' : null,
      });
    }
    const times = res.body.items.map((i: Item) => i.at);
    expect(times).toEqual([...times].sort().reverse());
  });

  it("never shows another user's entries, not even through that user's cursor", async () => {
    const tenant = await aTenantWith();
    const me = await aUser(tenant);
    const other = await aUser(tenant);
    // Mine first, then theirs: their cursor then points at a time after all of mine.
    await signIn(tenant, me);
    const myToken = (await signIn(tenant, me)).accessToken;
    for (let i = 0; i < 3; i++) await signIn(tenant, other, 'other-agent/2.0');
    const otherToken = (await signIn(tenant, other, 'other-agent/2.0')).accessToken;

    const mine: Item[] = (await myActivity(tenant, myToken, '?limit=100')).body.items;
    const theirs: Item[] = (await myActivity(tenant, otherToken, '?limit=100')).body.items;
    expect(mine).toHaveLength(2);
    expect(theirs).toHaveLength(4);
    expect(mine.every((i) => i.actorId === me.id && i.userAgent === 'journey-agent/1.0')).toBe(true);
    const theirIds = new Set(theirs.map((i) => i.id));
    expect(mine.filter((i) => theirIds.has(i.id))).toEqual([]);

    // Their cursor, on my activity: it continues in mine (all older than its point), never in theirs.
    const theirFirst = await myActivity(tenant, otherToken, '?limit=1');
    expect(theirFirst.body.nextCursor).toEqual(expect.any(String));
    const through = await myActivity(
      tenant,
      myToken,
      `?limit=100&cursor=${encodeURIComponent(theirFirst.body.nextCursor)}`,
    );
    expect(through.status, through.text).toBe(200);
    expect(through.body.items).toEqual(mine);
  });

  it('pages with limit and the opaque cursor until nextCursor is null, without overlap', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    for (let i = 0; i < 4; i++) await signIn(tenant, user);
    const { accessToken } = await signIn(tenant, user);
    const all: Item[] = (await myActivity(tenant, accessToken, '?limit=100')).body.items;
    expect(all).toHaveLength(5);

    const pages = await walk(tenant, accessToken, 2);
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((p) => p.items)).toEqual(all);
    expect(pages[0]?.nextCursor).not.toMatch(/T#|#U#|#ACT/);
  });

  it("refuses another tenant's token (403 TENANT_MISMATCH) and a request without one (401)", async () => {
    const tenant = await aTenantWith();
    const elsewhere = await aTenantWith();
    const stranger = await aUser(elsewhere);
    const { accessToken } = await signIn(elsewhere, stranger);
    expectProblem(await myActivity(tenant, accessToken), 403, 'TENANT_MISMATCH');
    expectProblem(await call('GET', '/users/me/activity', tenant.headers), 401, 'UNAUTHENTICATED');
    // With its own tenant's headers the same token reads its own activity only.
    const own = await myActivity(elsewhere, accessToken);
    expect(own.status).toBe(200);
    expect(own.body.items.map((i: Item) => i.actorId)).toEqual([stranger.id]);
  });

  it.each(['0', '101', 'x', '-1'])('answers 400 VALIDATION_FAILED for limit=%s', async (limit) => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken } = await signIn(tenant, user);
    expectInvalid(await myActivity(tenant, accessToken, `?limit=${limit}`), 'limit');
  });

  it('answers 400 VALIDATION_FAILED naming cursor for a cursor it did not make', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken } = await signIn(tenant, user);
    const forged = Buffer.from(JSON.stringify({ sk: 'PROFILE' })).toString('base64url');
    expectInvalid(await myActivity(tenant, accessToken, `?cursor=${forged}`), 'cursor');
    expectInvalid(await myActivity(tenant, accessToken, '?cursor=not-a-cursor!!'), 'cursor');
  });
});
