import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '#shared/store/keys.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import { adminApi, anEmail, aStoredUser, USER_RESPONSE_FIELDS } from '#test/support/admin.ts';
import { aTenantWith, aUser, forgetMailsTo, latestCodeTo, mailsTo, type TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { expectInvalid, expectProblem, isoTimestamp, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();
const deps = makeTestDeps();
const { call, login, logIn, bearer, aSuperAdmin, aSignedInUser, getUser, setStatus, activityOf, aRole, grant } =
  adminApi(() => api.url);

const CHROME_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const PASSWORD = 'Monstera-42-leaf';

const getMe = (tenant: TestTenant, token: string) => call('GET', '/users/me', bearer(tenant, token));

/** Every item under a DynamoDB partition key, as stored. */
async function itemsUnder(pk: string): Promise<Record<string, unknown>[]> {
  const { Items } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}

/** Walks a user's activity `limit` records a page; answers each page. */
async function pagesOf(headers: Record<string, string>, userId: string, limit: number) {
  const pages: { items: { id: string; at: string }[]; nextCursor: string | null }[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await call('GET', `/users/${userId}/activity?${query}`, headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages.push(res.body);
    cursor = res.body.nextCursor;
    if (pages.length > 100) throw new Error('the cursor never ends');
  } while (cursor);
  return pages;
}

/** `n` USER_ENABLED records on a user (an ACTIVE user set ACTIVE again records one each time). */
async function someActivity(headers: Record<string, string>, userId: string, n: number) {
  for (let i = 0; i < n; i += 10) {
    const results = await Promise.all(
      Array.from({ length: Math.min(10, n - i) }, () => setStatus({ headers }, userId, 'ACTIVE')),
    );
    for (const res of results) expect(res.status).toBe(200);
  }
}

const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('GET /users', () => {
  it('returns 200 with every user of the tenant, the admin included, as exact UserResponses without secrets', async () => {
    const admin = await aSuperAdmin();
    const plain = await aUser(admin.tenant);
    const withTotp = await aUser(admin.tenant, { totp: true });
    const elsewhere = await aUser(await aTenantWith());

    const res = await call('GET', '/users', admin.headers);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Array.isArray(res.body)).toBe(true);
    const ids = res.body.map((u: { id: string }) => u.id).sort();
    expect(ids).toEqual([admin.userId, plain.id, withTotp.id].sort());
    expect(ids).not.toContain(elsewhere.id);

    for (const user of res.body) expect(Object.keys(user).sort()).toEqual(USER_RESPONSE_FIELDS);
    const byId = new Map(res.body.map((u: { id: string }) => [u.id, u]));
    expect(byId.get(plain.id)).toEqual({
      id: plain.id,
      email: plain.email,
      emailStatus: 'VALIDATED',
      firstName: 'Test',
      lastName: 'User',
      phone: null,
      status: 'ACTIVE',
      totpEnabled: false,
      roles: [{ roleId: expect.any(String), name: 'DEFAULT', priority: 99, expiresAt: null }],
      registeredAt: isoTimestamp,
      lastLoginAt: null,
    });
    expect(byId.get(withTotp.id)).toMatchObject({ id: withTotp.id, totpEnabled: true });
    expect(byId.get(admin.userId)).toMatchObject({
      email: admin.tenant.adminEmail,
      status: 'ACTIVE',
      lastLoginAt: isoTimestamp,
      roles: [
        { roleId: expect.any(String), name: 'SUPER_ADMIN', priority: 0, expiresAt: null },
        { roleId: expect.any(String), name: 'DEFAULT', priority: 99, expiresAt: null },
      ],
    });

    const text = JSON.stringify(res.body);
    for (const secret of [
      'passwordHash',
      'totpSecret',
      'backupCodes',
      'grants',
      'grantedBy',
      'gsi1pk',
      '"pk"',
      '"sk"',
      'argon2',
      plain.password,
      admin.tenant.adminPassword,
      withTotp.totpSecret ?? 'n/a',
      ...(withTotp.backupCodes ?? []),
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('GET /users: read through the users index, which carries no secret', () => {
  it('answers for every user exactly what GET /users/{id} (the profile) answers, every field set', async () => {
    const admin = await aSuperAdmin();
    const withTotp = await aUser(admin.tenant, { totp: true });
    const locked = await aUser(admin.tenant);
    const legacy = await aUser(admin.tenant);
    await grant(admin, withTotp.id, (await aRole(admin, 20)).id, '2999-01-01T00:00:00.000Z');
    const setOnProfile = (id: string, fields: Record<string, unknown>) =>
      deps.store.doc.send(
        new UpdateCommand({
          TableName: deps.store.tableName,
          Key: keys.user(admin.tenant, id),
          UpdateExpression: `SET ${Object.keys(fields)
            .map((name) => `#${name} = :${name}`)
            .join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(Object.keys(fields).map((name) => [`#${name}`, name])),
          ExpressionAttributeValues: Object.fromEntries(Object.entries(fields).map(([name, v]) => [`:${name}`, v])),
        }),
      );
    await setOnProfile(withTotp.id, {
      phone: '+44 20 7946 0018',
      lastLoginAt: '2026-11-21T09:00:00.000Z',
      emailStatus: 'VALIDATION_SENT',
      emailValidationExpiresAt: '2999-01-01T00:00:00.000Z',
    });
    await setOnProfile(locked.id, { lockedUntil: '2999-01-01T00:00:00.000Z' });
    // A profile stored before VALIDATION_SENT: read as VALIDATION_SENT from its status and registeredAt.
    await setOnProfile(legacy.id, {
      emailStatus: 'PENDING',
      status: 'INVITED',
      registeredAt: new Date().toISOString(),
    });

    const res = await call('GET', '/users', admin.headers);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(4);
    for (const listed of res.body) {
      expect((await getUser(admin, listed.id)).body).toEqual({ ...listed, mailSuppression: null, passkeyCount: 0 });
    }
    const byId = new Map<string, Record<string, any>>(res.body.map((u: { id: string }) => [u.id, u]));
    expect(byId.get(withTotp.id)).toMatchObject({
      phone: '+44 20 7946 0018',
      lastLoginAt: '2026-11-21T09:00:00.000Z',
      emailStatus: 'VALIDATION_SENT',
      totpEnabled: true,
    });
    expect(byId.get(withTotp.id)?.roles).toContainEqual(
      expect.objectContaining({ priority: 20, expiresAt: '2999-01-01T00:00:00.000Z' }),
    );
    expect(byId.get(locked.id)).toMatchObject({ status: 'TIMED_OUT' });
    expect(byId.get(legacy.id)).toMatchObject({ status: 'INVITED', emailStatus: 'VALIDATION_SENT' });
  });
});

describe('GET /users/{id}', () => {
  it('returns 200 with the UserResponse the list shows, and (ours) mailSuppression: null while mail flows and passkeyCount', async () => {
    const admin = await aSuperAdmin();
    const user = await aUser(admin.tenant);
    const res = await getUser(admin, user.id);
    expect(res.status).toBe(200);
    const { mailSuppression, passkeyCount, ...shown } = res.body;
    expect(mailSuppression).toBeNull();
    expect(passkeyCount).toBe(0);
    expect(Object.keys(shown).sort()).toEqual(USER_RESPONSE_FIELDS);
    const listed = (await call('GET', '/users', admin.headers)).body.find((u: { id: string }) => u.id === user.id);
    expect(shown).toEqual(listed);
  });

  it.each([
    ['an unknown id', 'usr_00000000000000000000'],
    ['a malformed id', 'nope'],
    ['an id with a key separator', 'usr_0000%23PROFILE'],
    ['an over-long id', `usr_${'a'.repeat(300)}`],
    ['a role id', 'rol_00000000000000000000'],
  ])('returns 404 NOT_FOUND for %s', async (_, id) => {
    const admin = await aSuperAdmin();
    expectProblem(await getUser(admin, id), 404, 'NOT_FOUND');
  });

  it("returns 404 NOT_FOUND for another tenant's user id, the other tenant's admin included", async () => {
    const admin = await aSuperAdmin();
    const other = await aSuperAdmin();
    const theirs = await aUser(other.tenant);
    expectProblem(await getUser(admin, theirs.id), 404, 'NOT_FOUND');
    expectProblem(await getUser(admin, other.userId), 404, 'NOT_FOUND');
    expect((await getUser(other, theirs.id)).status).toBe(200);
  });
});

describe('POST /users/invitations', () => {
  it('returns 201 { userId, status: INVITED }, mails an invitationToken that signup turns into an ACTIVE user', async () => {
    const admin = await aSuperAdmin();
    const email = anEmail('invitee');
    const res = await call('POST', '/users/invitations', admin.headers, { email, firstName: 'Ida' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ userId: expect.stringMatching(/^usr_/), status: 'INVITED' });
    const { userId } = res.body;
    expect((await getUser(admin, userId)).body).toMatchObject({
      id: userId,
      email,
      status: 'INVITED',
      // The invitation went out and is good for 7 days.
      emailStatus: 'VALIDATION_SENT',
      firstName: 'Ida',
      lastName: null,
    });

    const mails = await mailsTo(api.stack.sesUrl, email);
    expect(mails).toHaveLength(1);
    const invitationToken = /invitationToken=([A-Za-z0-9_-]+)/.exec(mails[0]?.body.text ?? '')?.[1];
    expect(invitationToken).toBeDefined();

    const signup = await post(
      `${api.url}/auth/signup`,
      {
        app: admin.tenant.app,
        mid: admin.tenant.mid,
        email,
        password: PASSWORD,
        firstName: 'Ida',
        lastName: 'Lovelace',
        invitationToken,
      },
      admin.tenant.headers,
    );
    expect(signup.status).toBe(201);
    expect(signup.body).toEqual({ success: true, data: null });
    expect((await getUser(admin, userId)).body).toMatchObject({
      id: userId,
      status: 'ACTIVE',
      emailStatus: 'VALIDATED',
      lastName: 'Lovelace',
    });
    expect((await logIn(admin.tenant, email, PASSWORD)).user.id).toBe(userId);
  });

  it("mails the invitation in the inviting admin's name with its expiry in words; an API key's in the tenant's", async () => {
    const admin = await aSuperAdmin();
    expect((await call('PATCH', '/users/me', admin.headers, { firstName: 'Ana', lastName: 'Admin' })).status).toBe(200);
    const email = anEmail('invitee');
    const before = Date.now();
    expect((await call('POST', '/users/invitations', admin.headers, { email })).status).toBe(201);
    const after = Date.now();
    const [mail] = await mailsTo(api.stack.sesUrl, email);
    const tenantName = (await call('GET', '/merchants/me', admin.headers)).body.name;
    expect(mail?.subject).toBe(`Ana Admin invited you to ${tenantName}`);
    // The expiry in words, in UTC, 7 days after the invitation (to the minute).
    const [, weekday, date, time] =
      /works once, until ([A-Z][a-z]+day) (\d{1,2} [A-Z][a-z]+ \d{4}), (\d\d:\d\d) UTC\./.exec(mail?.body.text ?? '') ??
      [];
    const lapses = Date.parse(`${date} ${time} UTC`);
    expect(lapses).toBeGreaterThan(before + 7 * 86_400_000 - 60_000);
    expect(lapses).toBeLessThanOrEqual(after + 7 * 86_400_000);
    expect(weekday).toBe(new Date(lapses).toLocaleString('en', { weekday: 'long', timeZone: 'UTC' }));
    // The link carries the token; no block of it stands beside the link.
    const lines = (mail?.body.text ?? '').split('\n').filter((line) => line.includes('invitationToken='));
    expect(lines).toEqual([
      expect.stringMatching(/^Accept the invitation: http:\/\/\S+\/sign-up\?invitationToken=inv_/),
    ]);

    const key = await call('POST', `/merchants/${admin.tenant.id}/api-keys`, admin.headers, { label: 'invites' });
    expect(key.status).toBe(201);
    const byKey = anEmail('invitee');
    const keyHeaders = { ...admin.tenant.headers, 'x-api-key': key.body.apiKey };
    expect((await call('POST', '/users/invitations', keyHeaders, { email: byKey })).status).toBe(201);
    expect((await mailsTo(api.stack.sesUrl, byKey))[0]?.subject).toBe(`You are invited to ${tenantName}`);
  });

  it('returns 409 ALREADY_EXISTS for an e-mail that has a user (in any case, invited or not) and mails nothing', async () => {
    const admin = await aSuperAdmin();
    const user = await aUser(admin.tenant);
    const invited = anEmail('invitee');
    expect((await call('POST', '/users/invitations', admin.headers, { email: invited })).status).toBe(201);
    for (const email of [user.email, `  ${user.email.toUpperCase()} `, invited, admin.tenant.adminEmail]) {
      const res = await call('POST', '/users/invitations', admin.headers, { email });
      expectProblem(res, 409, 'ALREADY_EXISTS');
    }
    expect(await mailsTo(api.stack.sesUrl, user.email)).toEqual([]);
    expect(await mailsTo(api.stack.sesUrl, invited)).toHaveLength(1);
  });

  it.each([
    [{}, 'email'],
    [{ email: 'not-an-address' }, 'email'],
    [{ email: 'a@shop.test', role: 'ADMIN' }, 'role'],
  ])('returns 400 VALIDATION_FAILED for %j', async (body, path) => {
    const admin = await aSuperAdmin();
    expectInvalid(await call('POST', '/users/invitations', admin.headers, body), path);
  });
});

describe('PATCH /users/{id}/status', () => {
  it.each([
    // A DISABLED user's password is still right, so login says the account is disabled.
    ['DISABLED', 'USER_DISABLED', 403, 'ACCOUNT_DISABLED'],
    // COMPROMISED voids the password (docs/security.md#passwords): it is no longer a right credential.
    ['COMPROMISED', 'USER_COMPROMISED', 401, 'INVALID_CREDENTIALS'],
  ] as const)(
    '%s ends the sessions at once (401 SESSION_REVOKED), records %s, and login with the old password is %i %s',
    async (status, activity, loginStatus, loginCode) => {
      const admin = await aSuperAdmin();
      const user = await aSignedInUser(admin.tenant);
      expect((await getMe(admin.tenant, user.token)).status).toBe(200);

      const res = await setStatus(admin, user.userId, status);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(USER_RESPONSE_FIELDS);
      expect(res.body).toMatchObject({ id: user.userId, status });
      expect((await getUser(admin, user.userId)).body.status).toBe(status);

      expectProblem(await getMe(admin.tenant, user.token), 401, 'SESSION_REVOKED');
      const refreshed = await post(
        `${api.url}/auth/refresh`,
        { refreshToken: user.refreshToken },
        admin.tenant.headers,
      );
      expect(refreshed.status).toBe(401);
      expectProblem(await login(admin.tenant, user.user.email, user.user.password), loginStatus, loginCode);

      expect(await activityOf(admin, user.userId)).toContainEqual({
        id: expect.any(String),
        type: activity,
        at: isoTimestamp,
        ip: expect.any(String),
        userAgent: expect.any(String),
        actorId: admin.userId,
        method: null,
      });
    },
  );

  it('ACTIVE again lets a DISABLED user log in, and records USER_ENABLED by the admin', async () => {
    const admin = await aSuperAdmin();
    const user = await aUser(admin.tenant);
    expect((await setStatus(admin, user.id, 'DISABLED')).status).toBe(200);
    const res = await setStatus(admin, user.id, 'ACTIVE');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ACTIVE');
    expect((await login(admin.tenant, user.email, user.password)).status).toBe(200);

    const activity = await activityOf(admin, user.id);
    const byAdmin = activity.filter((a) => a.actorId === admin.userId).map((a) => a.type);
    expect(byAdmin.sort()).toEqual(['USER_DISABLED', 'USER_ENABLED']);
  });

  it.each(['INVITED', 'TIMED_OUT', 'INACTIVE', 'disabled', '', 42, null])(
    'returns 400 VALIDATION_FAILED for status %j and changes nothing',
    async (status) => {
      const admin = await aSuperAdmin();
      const user = await aSignedInUser(admin.tenant);
      const before = (await getUser(admin, user.userId)).body;
      expectInvalid(await setStatus(admin, user.userId, status), 'status');
      expect((await getUser(admin, user.userId)).body).toEqual(before);
      expect((await getMe(admin.tenant, user.token)).status).toBe(200);
    },
  );

  it('returns 404 NOT_FOUND for an unknown user', async () => {
    const admin = await aSuperAdmin();
    expectProblem(await setStatus(admin, 'usr_00000000000000000000', 'DISABLED'), 404, 'NOT_FOUND');
  });
});

describe('DELETE /users/{id}', () => {
  it('returns 204 and removes the user and every item of theirs; tokens, login and GET fail; an audit record stays', async () => {
    const admin = await aSuperAdmin();
    const user = await aSignedInUser(admin.tenant);
    const userPk = keys.userPartition(admin.tenant, user.userId);
    const activityPk = keys.activityPartition(admin.tenant, user.userId);
    // The user has a profile, a session, a device and activity to lose.
    expect((await itemsUnder(userPk)).length).toBeGreaterThanOrEqual(3);
    expect((await itemsUnder(activityPk)).length).toBeGreaterThanOrEqual(1);

    const res = await call('DELETE', `/users/${user.userId}`, admin.headers);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();

    expectProblem(await getUser(admin, user.userId), 404, 'NOT_FOUND');
    expectProblem(await getMe(admin.tenant, user.token), 401, 'SESSION_REVOKED');
    expectProblem(await login(admin.tenant, user.user.email, user.user.password), 401, 'INVALID_CREDENTIALS');
    const listed = (await call('GET', '/users', admin.headers)).body.map((u: { id: string }) => u.id);
    expect(listed).not.toContain(user.userId);

    expect(await itemsUnder(userPk)).toEqual([]);
    expect(await itemsUnder(activityPk)).toEqual([]);
    expect(await userRepo(deps.store).findByEmail(admin.tenant, user.user.email, deps.clock.now())).toBeNull();

    const audit = await itemsUnder(keys.audit(admin.tenant, '', '').pk);
    expect(audit).toContainEqual(
      expect.objectContaining({
        type: 'USER_DELETED',
        subjectId: user.userId,
        actorId: admin.userId,
        at: isoTimestamp,
      }),
    );
    // The audit record names the subject; it holds nothing of theirs beyond the id.
    expect(JSON.stringify(audit)).not.toContain(user.user.email);
  });

  it('frees the e-mail: it can sign up again as a new user', async () => {
    const admin = await aSuperAdmin();
    const user = await aUser(admin.tenant);
    expect((await call('DELETE', `/users/${user.id}`, admin.headers)).status).toBe(204);

    const signup = await post(
      `${api.url}/auth/signup`,
      {
        app: admin.tenant.app,
        mid: admin.tenant.mid,
        email: user.email,
        password: PASSWORD,
        firstName: 'A',
        lastName: 'B',
      },
      admin.tenant.headers,
    );
    expect(signup.status).toBe(201);
    const code = await latestCodeTo(api.stack.sesUrl, user.email);
    const verified = await post(
      `${api.url}/auth/signup/verify`,
      { challengeId: signup.body.data.challengeId, code },
      admin.tenant.headers,
    );
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body.data.user).toMatchObject({ email: user.email, status: 'ACTIVE' });
    expect(verified.body.data.user.id).not.toBe(user.id);
    expect((await login(admin.tenant, user.email, PASSWORD)).status).toBe(200);
  });

  it('voids the invitation of a deleted INVITED user and frees the address for a new invitation', async () => {
    const admin = await aSuperAdmin();
    const email = anEmail('invitee');
    const invited = await call('POST', '/users/invitations', admin.headers, { email });
    expect(invited.status).toBe(201);
    const token = /invitationToken=([A-Za-z0-9_-]+)/.exec(
      (await mailsTo(api.stack.sesUrl, email))[0]?.body.text ?? '',
    )?.[1];
    expect((await call('DELETE', `/users/${invited.body.userId}`, admin.headers)).status).toBe(204);

    const signup = await post(
      `${api.url}/auth/signup`,
      {
        app: admin.tenant.app,
        mid: admin.tenant.mid,
        email,
        password: PASSWORD,
        firstName: 'A',
        lastName: 'B',
        invitationToken: token,
      },
      admin.tenant.headers,
    );
    expectProblem(signup, 403, 'SIGNUP_NOT_ALLOWED');
    expectProblem(await login(admin.tenant, email, PASSWORD), 401, 'INVALID_CREDENTIALS');
    // A minute later, as far as the mail limit goes (one invitation a minute per address).
    await forgetMailsTo(admin.tenant, 'INVITATION', email);
    const again = await call('POST', '/users/invitations', admin.headers, { email });
    expect(again.status).toBe(201);
    expect(again.body.userId).not.toBe(invited.body.userId);
  });

  it('returns 404 NOT_FOUND for a user already deleted, and for an unknown one', async () => {
    const admin = await aSuperAdmin();
    const user = await aStoredUser(admin.tenant);
    expect((await call('DELETE', `/users/${user.id}`, admin.headers)).status).toBe(204);
    expectProblem(await call('DELETE', `/users/${user.id}`, admin.headers), 404, 'NOT_FOUND');
    expectProblem(await call('DELETE', '/users/usr_00000000000000000000', admin.headers), 404, 'NOT_FOUND');
  });
});

describe('DELETE /users/{id}/totp', () => {
  it('returns 204, turns TOTP off so that a password login gives tokens, and records TOTP_DISABLED by the admin', async () => {
    const admin = await aSuperAdmin();
    const user = await aUser(admin.tenant, { totp: true });
    const before = await login(admin.tenant, user.email, user.password);
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({ challengeRequired: true, challengeType: 'TOTP' });

    const res = await call('DELETE', `/users/${user.id}/totp`, admin.headers);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await getUser(admin, user.id)).body.totpEnabled).toBe(false);

    const after = await login(admin.tenant, user.email, user.password);
    expect(after.status).toBe(200);
    expect(after.body.data).toMatchObject({ accessToken: expect.any(String), tokenType: 'Bearer' });
    expect(after.body.data.challengeRequired).toBeUndefined();

    expect(await activityOf(admin, user.id)).toContainEqual(
      expect.objectContaining({ type: 'TOTP_DISABLED', actorId: admin.userId }),
    );
  });

  it('returns 404 NOT_FOUND for an unknown user', async () => {
    const admin = await aSuperAdmin();
    expectProblem(await call('DELETE', '/users/usr_00000000000000000000/totp', admin.headers), 404, 'NOT_FOUND');
  });
});

describe('GET /users/{id}/devices', () => {
  it('returns the DeviceResponses of the browsers the user signed in with, most recent first; a second password login within the day counts nothing', async () => {
    const admin = await aSuperAdmin();
    const user = await aUser(admin.tenant);
    await logIn(admin.tenant, user.email, user.password, { 'user-agent': CHROME_ON_WINDOWS });
    await logIn(admin.tenant, user.email, user.password, { 'user-agent': CHROME_ON_WINDOWS });
    await logIn(admin.tenant, user.email, user.password, { 'user-agent': SAFARI_ON_IPHONE });

    const res = await call('GET', `/users/${user.id}/devices`, admin.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
        os: 'iOS 17.5',
        browser: 'Mobile Safari 17',
        firstSeenAt: isoTimestamp,
        lastSeenAt: isoTimestamp,
        seenCount: 1,
      },
      {
        fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
        os: 'Windows 10',
        browser: 'Chrome 131',
        firstSeenAt: isoTimestamp,
        lastSeenAt: isoTimestamp,
        seenCount: 1,
      },
    ]);
    const [phone, desktop] = res.body;
    expect(phone.fingerprint).not.toBe(desktop.fingerprint);
    // The record is a day fresh: the second login from the desktop wrote no device item.
    expect(desktop.lastSeenAt).toBe(desktop.firstSeenAt);
    expect(phone.lastSeenAt >= desktop.lastSeenAt).toBe(true);
  });

  it('returns [] for a user who never signed in, and 404 NOT_FOUND for an unknown one', async () => {
    const admin = await aSuperAdmin();
    const user = await aStoredUser(admin.tenant);
    const res = await call('GET', `/users/${user.id}/devices`, admin.headers);
    expect([res.status, res.body]).toEqual([200, []]);
    expectProblem(await call('GET', '/users/usr_00000000000000000000/devices', admin.headers), 404, 'NOT_FOUND');
  });
});

describe('GET /users/{id}/activity', () => {
  it('returns ActivityResponses newest first, 50 by default with a nextCursor', async () => {
    const admin = await aSuperAdmin();
    const user = await aStoredUser(admin.tenant);
    await someActivity(admin.headers, user.id, 55);

    const res = await call('GET', `/users/${user.id}/activity`, admin.headers);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['items', 'nextCursor']);
    expect(res.body.items).toHaveLength(50);
    expect(res.body.nextCursor).toEqual(expect.any(String));
    for (const item of res.body.items) {
      expect(item).toEqual({
        id: expect.any(String),
        type: 'USER_ENABLED',
        at: isoTimestamp,
        ip: expect.any(String),
        userAgent: expect.any(String),
        actorId: admin.userId,
        method: null,
      });
    }
    const times = res.body.items.map((i: { at: string }) => i.at);
    expect(times).toEqual([...times].sort().reverse());

    const all = await call('GET', `/users/${user.id}/activity?limit=100`, admin.headers);
    expect(all.body.items).toHaveLength(55);
    expect(all.body.nextCursor).toBeNull();
    expect(all.body.items.slice(0, 50)).toEqual(res.body.items);
  });

  it('pages with limit=2: the opaque cursor continues without overlap until nextCursor is null', async () => {
    const admin = await aSuperAdmin();
    const user = await aStoredUser(admin.tenant);
    await someActivity(admin.headers, user.id, 7);
    const all = await activityOf(admin, user.id);
    expect(all).toHaveLength(7);

    const pages = await pagesOf(admin.headers, user.id, 2);
    for (const page of pages) expect(page.items.length).toBeLessThanOrEqual(2);
    expect(pages.length).toBeGreaterThanOrEqual(4);
    expect(pages.at(-1)?.nextCursor).toBeNull();
    const paged = pages.flatMap((p) => p.items);
    expect(paged).toEqual(all);
    expect(new Set(paged.map((i) => i.id)).size).toBe(7);
    // Opaque: nothing of the store's keys shows through.
    const cursor = pages[0]?.nextCursor ?? '';
    expect(cursor).not.toMatch(/T#|#U#|#ACT/);
  });

  it.each(['0', '101', 'x', '-1', '1.5', '1000'])('returns 400 VALIDATION_FAILED for limit=%s', async (limit) => {
    const admin = await aSuperAdmin();
    const user = await aStoredUser(admin.tenant);
    expectInvalid(await call('GET', `/users/${user.id}/activity?limit=${limit}`, admin.headers), 'limit');
  });

  it.each([
    ['not base64 JSON', () => 'not-a-cursor!!'],
    ['a truncated cursor', (real: string) => real.slice(0, -6)],
    ['a cursor with a numeric sort key', () => base64url('{"sk":42}')],
    ['a cursor without a sort key', () => base64url('{"pk":"x"}')],
    ['a cursor of JSON null', () => base64url('null')],
    ['a cursor with an empty sort key', () => base64url('{"sk":""}')],
    ['a cursor over 512 characters', () => 'A'.repeat(600)],
  ])('returns 400 VALIDATION_FAILED naming cursor for a tampered cursor: %s', async (_, tamper) => {
    const admin = await aSuperAdmin();
    const user = await aStoredUser(admin.tenant);
    await someActivity(admin.headers, user.id, 3);
    const first = await call('GET', `/users/${user.id}/activity?limit=1`, admin.headers);
    const cursor = tamper(first.body.nextCursor);
    const res = await call('GET', `/users/${user.id}/activity?cursor=${encodeURIComponent(cursor)}`, admin.headers);
    expectInvalid(res, 'cursor');
  });

  it("reads nothing of another user through that user's cursor: it only continues in the requested user's activity", async () => {
    const admin = await aSuperAdmin();
    const mine = await aStoredUser(admin.tenant);
    const theirs = await aStoredUser(admin.tenant);
    await someActivity(admin.headers, mine.id, 4);
    await someActivity(admin.headers, theirs.id, 4);
    const myIds = (await activityOf(admin, mine.id)).map((a) => a.id);
    const theirIds = (await activityOf(admin, theirs.id)).map((a) => a.id);

    const theirFirst = await call('GET', `/users/${theirs.id}/activity?limit=1`, admin.headers);
    const cursor = encodeURIComponent(theirFirst.body.nextCursor);
    // Their cursor, even with their partition written into it, on my activity.
    const decoded = JSON.parse(Buffer.from(theirFirst.body.nextCursor, 'base64url').toString('utf8'));
    const withPk = encodeURIComponent(
      base64url(JSON.stringify({ ...decoded, pk: keys.activityPartition(admin.tenant, theirs.id) })),
    );
    for (const c of [cursor, withPk]) {
      const res = await call('GET', `/users/${mine.id}/activity?limit=100&cursor=${c}`, admin.headers);
      if (res.status === 200) {
        const ids = res.body.items.map((i: { id: string }) => i.id);
        for (const id of ids) expect(myIds).toContain(id);
        for (const id of ids) expect(theirIds).not.toContain(id);
      } else {
        expectInvalid(res, 'cursor');
      }
    }
  });

  it('returns 404 NOT_FOUND for an unknown user', async () => {
    const admin = await aSuperAdmin();
    expectProblem(await call('GET', '/users/usr_00000000000000000000/activity', admin.headers), 404, 'NOT_FOUND');
  });
});
