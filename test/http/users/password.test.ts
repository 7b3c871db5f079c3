import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { totpCodeAt } from '#shared/auth/totp.ts';
import { keys } from '#shared/store/keys.ts';
import { aTenantWith, aUser, mailsTo, type TestTenant, type TestUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { bearer, expectProblem, identityApi, post, type Tokens } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();
const deps = makeTestDeps();
const { call, login, logIn } = identityApi(() => api.url);

const STEP_MS = 30_000;

/** A password login of a TOTP user, finished with the code of the current step. */
async function logInWithTotp(tenant: TestTenant, user: TestUser & { totpSecret: string }): Promise<Tokens> {
  const first = await login(tenant, user.email, user.password);
  expect(first.body.data).toMatchObject({ challengeRequired: true, challengeType: 'TOTP' });
  const code = totpCodeAt(user.totpSecret, new Date());
  const res = await post(
    `${api.url}/auth/login/verify`,
    { challengeId: first.body.data.challengeId, code },
    tenant.headers,
  );
  expect(res.status).toBe(200);
  return res.body.data;
}

const changePassword = (tenant: TestTenant, token: string, body: Record<string, unknown>) =>
  post(`${api.url}/users/me/password`, body, bearer(tenant, token));

const getMe = (tenant: TestTenant, token: string) => call('GET', '/users/me', bearer(tenant, token));

const refresh = (tenant: TestTenant, refreshToken: string) =>
  post(`${api.url}/auth/refresh`, { refreshToken }, tenant.headers);

async function activityTypes(tenant: TestTenant, userId: string): Promise<string[]> {
  const { Items = [] } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.activityPartition(tenant, userId) },
      ConsistentRead: true,
    }),
  );
  return Items.map((item) => item.type as string);
}

const NEW_PASSWORD = 'Moss-and-fern-2024';

/** The user can log in with `works` and not with `fails`. */
async function expectPassword(tenant: TestTenant, user: TestUser, works: string, fails: string) {
  expect((await login(tenant, user.email, works)).status).toBe(200);
  expectProblem(await login(tenant, user.email, fails), 401, 'INVALID_CREDENTIALS');
}

/** Six digits that are not the code of any step the server accepts now (±1). */
function aWrongCode(secret: string): string {
  const near = [-1, 0, 1].map((step) => totpCodeAt(secret, new Date(Date.now() + step * STEP_MS)));
  let code = 123456;
  while (near.includes(String(code))) code++;
  return String(code);
}

function totpUser(user: TestUser) {
  if (!user.totpSecret || !user.backupCodes) throw new Error('the user has no TOTP');
  return { ...user, totpSecret: user.totpSecret, backupCodes: user.backupCodes };
}

describe('POST /users/me/password', () => {
  it('answers 204; the new password logs in and the old one no longer does', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken } = await logIn(tenant, user.email, user.password);
    const res = await changePassword(tenant, accessToken, {
      currentPassword: user.password,
      newPassword: NEW_PASSWORD,
    });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    await expectPassword(tenant, user, NEW_PASSWORD, user.password);
  });

  it('keeps the current session and revokes every other session of the user at once', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const here = await logIn(tenant, user.email, user.password);
    const phone = await logIn(tenant, user.email, user.password);
    const laptop = await logIn(tenant, user.email, user.password);
    const res = await changePassword(tenant, here.accessToken, {
      currentPassword: user.password,
      newPassword: NEW_PASSWORD,
    });
    expect(res.status).toBe(204);

    expect((await getMe(tenant, here.accessToken)).status).toBe(200);
    for (const other of [phone, laptop]) {
      expectProblem(await getMe(tenant, other.accessToken), 401, 'SESSION_REVOKED');
      expectProblem(await refresh(tenant, other.refreshToken), 401, 'REFRESH_TOKEN_INVALID');
    }
    // The current session's refresh token lives on too.
    expect((await refresh(tenant, here.refreshToken)).status).toBe(200);
  });

  it('records a PASSWORD_CHANGE activity by the user', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken } = await logIn(tenant, user.email, user.password);
    await changePassword(tenant, accessToken, { currentPassword: user.password, newPassword: NEW_PASSWORD });
    const { Items = [] } = await deps.store.doc.send(
      new QueryCommand({
        TableName: deps.store.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.activityPartition(tenant, user.id) },
        ConsistentRead: true,
      }),
    );
    expect(Items.filter((item) => item.type === 'PASSWORD_CHANGE')).toEqual([
      expect.objectContaining({ userId: user.id, actorId: user.id }),
    ]);
  });

  it("mails a notice to the user's address", async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken } = await logIn(tenant, user.email, user.password);
    expect(await mailsTo(api.stack.sesUrl, user.email)).toEqual([]);
    await changePassword(tenant, accessToken, { currentPassword: user.password, newPassword: NEW_PASSWORD });
    const mails = await mailsTo(api.stack.sesUrl, user.email);
    expect(mails.map((mail) => mail.subject)).toEqual([expect.stringMatching(/password was changed/i)]);
    // A notice, never the password itself.
    expect(JSON.stringify(mails)).not.toContain(NEW_PASSWORD);
  });

  it('answers 401 INVALID_CREDENTIALS to a wrong currentPassword and changes nothing', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const here = await logIn(tenant, user.email, user.password);
    const other = await logIn(tenant, user.email, user.password);
    const res = await changePassword(tenant, here.accessToken, {
      currentPassword: 'Not-my-password-1',
      newPassword: NEW_PASSWORD,
    });
    expectProblem(res, 401, 'INVALID_CREDENTIALS');
    expect((await getMe(tenant, other.accessToken)).status).toBe(200);
    expect((await getMe(tenant, here.accessToken)).status).toBe(200);
    expect(await activityTypes(tenant, user.id)).not.toContain('PASSWORD_CHANGE');
    expect(await mailsTo(api.stack.sesUrl, user.email)).toEqual([]);
    await expectPassword(tenant, user, user.password, NEW_PASSWORD);
  });

  it.each([
    ['too short', 'Fern-1'],
    ['without a digit', 'Moss-and-fern-only'],
    ['without a letter', '1234-5678-90'],
    ['too long', `a1${'x'.repeat(127)}`],
  ])(
    'answers 400 VALIDATION_FAILED naming newPassword for a new password %s, and changes nothing',
    async (_, newPassword) => {
      const tenant = await aTenantWith();
      const user = await aUser(tenant);
      const { accessToken } = await logIn(tenant, user.email, user.password);
      const res = await changePassword(tenant, accessToken, { currentPassword: user.password, newPassword });
      expectProblem(res, 400, 'VALIDATION_FAILED');
      expect(res.body.errors).toEqual([expect.objectContaining({ path: 'newPassword' })]);
      expect((await login(tenant, user.email, user.password)).status).toBe(200);
    },
  );

  it.each(['password1', 'Password1', 'qwerty123'])(
    'answers 400 PASSWORD_TOO_COMMON naming newPassword for a common password (%s), and changes nothing',
    async (newPassword) => {
      const tenant = await aTenantWith();
      const user = await aUser(tenant);
      const { accessToken } = await logIn(tenant, user.email, user.password);
      const res = await changePassword(tenant, accessToken, { currentPassword: user.password, newPassword });
      expectProblem(res, 400, 'PASSWORD_TOO_COMMON');
      expect(res.body.errors).toEqual([expect.objectContaining({ path: 'newPassword' })]);
      await expectPassword(tenant, user, user.password, newPassword);
    },
  );

  describe('with TOTP on', () => {
    it('answers 400 VALIDATION_FAILED naming totpCode when no code is sent, and changes nothing', async () => {
      const tenant = await aTenantWith();
      const user = totpUser(await aUser(tenant, { totp: true }));
      const { accessToken } = await logInWithTotp(tenant, user);
      const res = await changePassword(tenant, accessToken, {
        currentPassword: user.password,
        newPassword: NEW_PASSWORD,
      });
      expectProblem(res, 400, 'VALIDATION_FAILED');
      expect(res.body.errors).toEqual([expect.objectContaining({ path: 'totpCode' })]);
      expect(await activityTypes(tenant, user.id)).not.toContain('PASSWORD_CHANGE');
    });

    it('answers 401 INVALID_CODE to a wrong code, and changes nothing', async () => {
      const tenant = await aTenantWith();
      const user = totpUser(await aUser(tenant, { totp: true }));
      const here = await logInWithTotp(tenant, user);
      const res = await changePassword(tenant, here.accessToken, {
        currentPassword: user.password,
        newPassword: NEW_PASSWORD,
        totpCode: aWrongCode(user.totpSecret),
      });
      expectProblem(res, 401, 'INVALID_CODE');
      expect(await activityTypes(tenant, user.id)).not.toContain('PASSWORD_CHANGE');
      // Still the old password: it answers with the TOTP step, the new one is refused.
      expect((await login(tenant, user.email, user.password)).body.data.challengeRequired).toBe(true);
      expectProblem(await login(tenant, user.email, NEW_PASSWORD), 401, 'INVALID_CREDENTIALS');
    });

    it('answers 401 INVALID_CODE to the code the login just used (codes are single use)', async () => {
      const tenant = await aTenantWith();
      const user = totpUser(await aUser(tenant, { totp: true }));
      const first = await login(tenant, user.email, user.password);
      const code = totpCodeAt(user.totpSecret, new Date());
      const verified = await post(
        `${api.url}/auth/login/verify`,
        { challengeId: first.body.data.challengeId, code },
        tenant.headers,
      );
      const res = await changePassword(tenant, verified.body.data.accessToken, {
        currentPassword: user.password,
        newPassword: NEW_PASSWORD,
        totpCode: code,
      });
      expectProblem(res, 401, 'INVALID_CODE');
    });

    it('answers 204 with a valid code of the next step', async () => {
      const tenant = await aTenantWith();
      const user = totpUser(await aUser(tenant, { totp: true }));
      const { accessToken } = await logInWithTotp(tenant, user);
      // The login used the current step, and a step is accepted once: take the next one (±1 is allowed).
      const res = await changePassword(tenant, accessToken, {
        currentPassword: user.password,
        newPassword: NEW_PASSWORD,
        totpCode: totpCodeAt(user.totpSecret, new Date(Date.now() + STEP_MS)),
      });
      expect(res.status).toBe(204);
      expect((await login(tenant, user.email, NEW_PASSWORD)).body.data.challengeRequired).toBe(true);
    });

    it('answers 204 with a backup code, which then is used up', async () => {
      const tenant = await aTenantWith();
      const user = totpUser(await aUser(tenant, { totp: true }));
      const { accessToken } = await logInWithTotp(tenant, user);
      const backupCode = user.backupCodes[0] as string;
      const res = await changePassword(tenant, accessToken, {
        currentPassword: user.password,
        newPassword: NEW_PASSWORD,
        totpCode: backupCode,
      });
      expect(res.status).toBe(204);
      const again = await changePassword(tenant, accessToken, {
        currentPassword: NEW_PASSWORD,
        newPassword: 'Second-change-77',
        totpCode: backupCode,
      });
      expectProblem(again, 401, 'INVALID_CODE');
    });
  });
});
