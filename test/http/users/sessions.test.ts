import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '#shared/store/keys.ts';
import { aTenantWith, aUser, type TestTenant, type TestUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { bearer, expectProblem, identityApi, isoTimestamp, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();
const deps = makeTestDeps();
const { call, logIn } = identityApi(() => api.url);

const CHROME_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** A password login from a device: every session of this file has a User-Agent, Chrome on Windows unless told. */
const logInFrom = (tenant: TestTenant, user: TestUser, userAgent = CHROME_ON_WINDOWS) =>
  logIn(tenant, user.email, user.password, { 'user-agent': userAgent });

const getMe = (tenant: TestTenant, token: string) => call('GET', '/users/me', bearer(tenant, token));
const listSessions = (tenant: TestTenant, token: string) => call('GET', '/users/me/sessions', bearer(tenant, token));
const revokeSession = (tenant: TestTenant, token: string, sessionId: string) =>
  call('DELETE', `/users/me/sessions/${encodeURIComponent(sessionId)}`, bearer(tenant, token));
const revokeAll = (tenant: TestTenant, token: string) => call('POST', '/sessions/revoke-all', bearer(tenant, token));
const refresh = (tenant: TestTenant, refreshToken: string) =>
  post(`${api.url}/auth/refresh`, { refreshToken }, tenant.headers);

/** The id of the session a token belongs to, as the session list shows it. */
async function currentSessionId(tenant: TestTenant, token: string): Promise<string> {
  const res = await listSessions(tenant, token);
  expect(res.status).toBe(200);
  const current = (res.body as { id: string; current: boolean }[]).filter((s) => s.current);
  expect(current).toHaveLength(1);
  return current[0]?.id as string;
}

async function itemsOf(pk: string, prefix?: string) {
  const { Items = [] } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: prefix ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk',
      ExpressionAttributeValues: prefix ? { ':pk': pk, ':prefix': prefix } : { ':pk': pk },
      ConsistentRead: true,
    }),
  );
  return Items;
}

const localIp = expect.stringMatching(/^(127\.0\.0\.1|::1)$/);

describe('GET /users/me/sessions', () => {
  it("lists the caller's live sessions with device names, marking only the caller's as current", async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const desktop = await logInFrom(tenant, user, CHROME_ON_WINDOWS);
    const phone = await logInFrom(tenant, user, SAFARI_ON_IPHONE);

    const res = await listSessions(tenant, desktop.accessToken);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    const byBrowser = [...res.body].sort((a, b) => a.browser.localeCompare(b.browser));
    expect(byBrowser).toEqual([
      {
        id: expect.any(String),
        current: true,
        browser: 'Chrome 131',
        os: 'Windows 10',
        ip: localIp,
        lastActivityAt: isoTimestamp,
        createdAt: isoTimestamp,
        clientName: null,
      },
      {
        id: expect.any(String),
        current: false,
        browser: 'Mobile Safari 17',
        os: 'iOS 17.5',
        ip: localIp,
        lastActivityAt: isoTimestamp,
        createdAt: isoTimestamp,
        clientName: null,
      },
    ]);
    for (const session of res.body) {
      expect(Object.keys(session).sort()).toEqual([
        'browser',
        'clientName',
        'createdAt',
        'current',
        'id',
        'ip',
        'lastActivityAt',
        'os',
      ]);
    }
    expect(byBrowser[0].id).not.toBe(byBrowser[1].id);

    // Seen from the phone, the phone's session is the current one.
    const fromPhone = await listSessions(tenant, phone.accessToken);
    expect(fromPhone.body.find((s: { current: boolean }) => s.current)).toMatchObject({
      id: byBrowser[1].id,
      browser: 'Mobile Safari 17',
    });
  });

  it('shows browser and os as null for a client that is not a known browser', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken } = await logInFrom(tenant, user, 'curl/8.5.0');
    const res = await listSessions(tenant, accessToken);
    expect(res.body).toEqual([expect.objectContaining({ current: true, browser: null, os: null })]);
    expect(res.body[0]).toHaveProperty('browser', null);
    expect(res.body[0]).toHaveProperty('os', null);
  });

  it('leaves out a revoked session', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const desktop = await logInFrom(tenant, user, CHROME_ON_WINDOWS);
    const phone = await logInFrom(tenant, user, SAFARI_ON_IPHONE);
    const phoneSession = await currentSessionId(tenant, phone.accessToken);
    expect((await revokeSession(tenant, desktop.accessToken, phoneSession)).status).toBe(204);
    const res = await listSessions(tenant, desktop.accessToken);
    expect(res.body).toEqual([expect.objectContaining({ current: true, browser: 'Chrome 131' })]);
  });

  it("does not list another user's sessions", async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const other = await aUser(tenant);
    const mine = await logInFrom(tenant, user);
    await logInFrom(tenant, other);
    await logInFrom(tenant, other);
    expect((await listSessions(tenant, mine.accessToken)).body).toHaveLength(1);
  });
});

describe('DELETE /users/me/sessions/{sessionId}', () => {
  it("answers 204 and ends that session at once: its access and refresh tokens stop working, the caller's goes on", async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const desktop = await logInFrom(tenant, user, CHROME_ON_WINDOWS);
    const phone = await logInFrom(tenant, user, SAFARI_ON_IPHONE);
    const phoneSession = await currentSessionId(tenant, phone.accessToken);

    const res = await revokeSession(tenant, desktop.accessToken, phoneSession);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();

    expectProblem(await getMe(tenant, phone.accessToken), 401, 'SESSION_REVOKED');
    expectProblem(await refresh(tenant, phone.refreshToken), 401, 'REFRESH_TOKEN_INVALID');
    expect((await getMe(tenant, desktop.accessToken)).status).toBe(200);
    expect((await refresh(tenant, desktop.refreshToken)).status).toBe(200);
  });

  it('records a SESSION_REVOKED activity by the user', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const desktop = await logInFrom(tenant, user, CHROME_ON_WINDOWS);
    const phone = await logInFrom(tenant, user, SAFARI_ON_IPHONE);
    await revokeSession(tenant, desktop.accessToken, await currentSessionId(tenant, phone.accessToken));
    const activity = await itemsOf(keys.activityPartition(tenant, user.id));
    expect(activity.filter((item) => item.type === 'SESSION_REVOKED')).toEqual([
      expect.objectContaining({ userId: user.id, actorId: user.id, ip: localIp }),
    ]);
  });

  it.each([
    ['an unknown id', 'ses_0000000000aaaaaaaaaa'],
    ['a malformed id', 'x'],
    ['a malformed id with #', 'ses_#'],
    ['an id with a key separator', 'ses_0000000000aaaaaaaaaa#x'],
    ['an overlong id', `ses_${'a'.repeat(100)}`],
  ])('answers 404 NOT_FOUND to %s', async (_, sessionId) => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken } = await logInFrom(tenant, user);
    expectProblem(await revokeSession(tenant, accessToken, sessionId), 404, 'NOT_FOUND');
    expect((await getMe(tenant, accessToken)).status).toBe(200);
  });

  it("answers 404 NOT_FOUND to another user's session id, which goes on working", async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const other = await aUser(tenant);
    const mine = await logInFrom(tenant, user);
    const theirs = await logInFrom(tenant, other);
    const theirSession = await currentSessionId(tenant, theirs.accessToken);

    expectProblem(await revokeSession(tenant, mine.accessToken, theirSession), 404, 'NOT_FOUND');
    expect((await getMe(tenant, theirs.accessToken)).status).toBe(200);
    expect((await refresh(tenant, theirs.refreshToken)).status).toBe(200);
    expect(await itemsOf(keys.activityPartition(tenant, user.id))).not.toContainEqual(
      expect.objectContaining({ type: 'SESSION_REVOKED' }),
    );
  });

  it("ends the caller's own session when given its id", async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken, refreshToken } = await logInFrom(tenant, user);
    expect((await revokeSession(tenant, accessToken, await currentSessionId(tenant, accessToken))).status).toBe(204);
    expectProblem(await getMe(tenant, accessToken), 401, 'SESSION_REVOKED');
    expectProblem(await refresh(tenant, refreshToken), 401, 'REFRESH_TOKEN_INVALID');
  });

  it('answers 404 NOT_FOUND to a session already revoked', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const desktop = await logInFrom(tenant, user);
    const phone = await logInFrom(tenant, user, SAFARI_ON_IPHONE);
    const phoneSession = await currentSessionId(tenant, phone.accessToken);
    expect((await revokeSession(tenant, desktop.accessToken, phoneSession)).status).toBe(204);
    expectProblem(await revokeSession(tenant, desktop.accessToken, phoneSession), 404, 'NOT_FOUND');
  });
});

describe('POST /sessions/revoke-all', () => {
  it('answers 204 and ends every session of the caller, this one too: access and refresh tokens die', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const here = await logInFrom(tenant, user, CHROME_ON_WINDOWS);
    const phone = await logInFrom(tenant, user, SAFARI_ON_IPHONE);
    const laptop = await logInFrom(tenant, user, CHROME_ON_WINDOWS);

    const res = await revokeAll(tenant, here.accessToken);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();

    for (const session of [here, phone, laptop]) {
      expectProblem(await getMe(tenant, session.accessToken), 401, 'SESSION_REVOKED');
      expectProblem(await refresh(tenant, session.refreshToken), 401, 'REFRESH_TOKEN_INVALID');
    }
    // The user can still sign in again afterwards.
    const again = await logInFrom(tenant, user);
    expect((await listSessions(tenant, again.accessToken)).body).toHaveLength(1);
  });

  it("leaves other users' sessions alone", async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const other = await aUser(tenant);
    const mine = await logInFrom(tenant, user);
    const theirs = await logInFrom(tenant, other);
    expect((await revokeAll(tenant, mine.accessToken)).status).toBe(204);
    expect((await getMe(tenant, theirs.accessToken)).status).toBe(200);
  });

  it('records a SESSION_REVOKED activity', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken } = await logInFrom(tenant, user);
    await revokeAll(tenant, accessToken);
    const activity = await itemsOf(keys.activityPartition(tenant, user.id));
    expect(activity.map((item) => item.type)).toContain('SESSION_REVOKED');
  });
});

describe('device records', () => {
  it('counts two logins with the same User-Agent within a day as one device seen once, and another User-Agent as a second device', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const partition = keys.userPartition(tenant, user.id);
    await logInFrom(tenant, user, CHROME_ON_WINDOWS);
    await logInFrom(tenant, user, CHROME_ON_WINDOWS);
    expect(await itemsOf(partition, 'DEVICE#')).toEqual([
      expect.objectContaining({ userAgent: CHROME_ON_WINDOWS, seenCount: 1 }),
    ]);

    await logInFrom(tenant, user, SAFARI_ON_IPHONE);
    const devices = await itemsOf(partition, 'DEVICE#');
    expect(devices).toHaveLength(2);
    expect(devices).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ userAgent: CHROME_ON_WINDOWS, seenCount: 1 }),
        expect.objectContaining({ userAgent: SAFARI_ON_IPHONE, seenCount: 1 }),
      ]),
    );
    const [a, b] = devices;
    expect(a?.fingerprint).not.toBe(b?.fingerprint);
  });
});
