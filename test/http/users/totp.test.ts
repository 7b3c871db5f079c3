import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { totpCodeAt } from '#shared/auth/totp.ts';
import { keys } from '#shared/store/keys.ts';
import { aTenantWith, aUser, type TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { type Answer, bearer, expectProblem, identityApi, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();
const deps = makeTestDeps();
const { call, login: passwordLogin, logIn } = identityApi(() => api.url);

const STEP_MS = 30_000;

/** POST /users/me/totp/init carries no body. */
const init = (tenant: TestTenant, token: string): Promise<Answer> =>
  call('POST', '/users/me/totp/init', {
    'x-app-id': tenant.app,
    'x-mid-key': tenant.mid,
    authorization: `Bearer ${token}`,
  });

const verify = (tenant: TestTenant, token: string, code: string) =>
  post(`${api.url}/users/me/totp/verify`, { code }, bearer(tenant, token));

const disable = (tenant: TestTenant, token: string, code: string) =>
  post(`${api.url}/users/me/totp/disable`, { code }, bearer(tenant, token));

async function getMe(tenant: TestTenant, token: string) {
  const res = await call('GET', '/users/me', bearer(tenant, token));
  expect(res.status).toBe(200);
  return res.body as { id: string; email: string; totpEnabled: boolean };
}

/** Starts enrolment and reads the secret back out of the otpauth:// URI, as an authenticator app does. */
async function startEnrolment(tenant: TestTenant, token: string) {
  const res = await init(tenant, token);
  expect(res.status).toBe(200);
  const secret = new URL(res.body.qrUri).searchParams.get('secret');
  if (!secret) throw new Error(`no secret in ${res.body.qrUri}`);
  return { secret, backupCodes: res.body.backupCodes as string[], qrUri: res.body.qrUri as string };
}

const codeNow = (secret: string) => totpCodeAt(secret, new Date());
/** The code of the next step: still valid (±1 step), and not yet used when the current one was. */
const codeNext = (secret: string) => totpCodeAt(secret, new Date(Date.now() + STEP_MS));
/** Whether a code is one of the secret's codes the server accepts now (previous, current or next step). */
const isLiveCodeOf = (secret: string, code: string) =>
  [-STEP_MS, 0, STEP_MS].some((offset) => totpCodeAt(secret, new Date(Date.now() + offset)) === code);
/** A 6-digit code that is none of the secret's live codes. */
function wrongCodeFor(secret: string): string {
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!isLiveCodeOf(secret, candidate)) return candidate;
  }
}

/** A user with TOTP turned on through the API; `used` is the code that turned it on. */
async function enrolled(tenant: TestTenant) {
  const user = await aUser(tenant);
  const { accessToken: token } = await logIn(tenant, user.email, user.password);
  const { secret, backupCodes } = await startEnrolment(tenant, token);
  const used = codeNow(secret);
  expect((await verify(tenant, token, used)).status).toBe(204);
  return { user, token, secret, backupCodes, used };
}

async function activityTypes(tenant: TestTenant, userId: string): Promise<string[]> {
  const { Items } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.activityPartition(tenant, userId) },
    }),
  );
  return (Items ?? []).map((item) => item.type as string);
}

/** `allowUserDisableTotp` is a merchant setting the CLI fixes; set it on the merchant item directly. */
async function setAllowUserDisableTotp(tenant: TestTenant, allowed: boolean): Promise<void> {
  await deps.store.doc.send(
    new UpdateCommand({
      TableName: deps.store.tableName,
      Key: keys.merchant(tenant),
      UpdateExpression: 'SET allowUserDisableTotp = :allowed',
      ExpressionAttributeValues: { ':allowed': allowed },
    }),
  );
}

async function tenantName(tenant: TestTenant): Promise<string> {
  const res = await fetch(`${api.url}/auth/discovery?clientId=${tenant.publicApiKey}`, {
    headers: { origin: 'https://shop.example' },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { name: string }).name;
}

describe('POST /users/me/totp/init', () => {
  it("answers an otpauth:// URI (issuer = the tenant's name, label with the e-mail, base32 secret) and 10 distinct backup codes", async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    const res = await init(tenant, token);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['backupCodes', 'qrUri']);

    const qrUri = res.body.qrUri as string;
    expect(qrUri.startsWith('otpauth://totp/')).toBe(true);
    const uri = new URL(qrUri);
    expect(uri.searchParams.get('issuer')).toBe(await tenantName(tenant));
    expect(decodeURIComponent(uri.pathname)).toContain(user.email);
    expect(uri.searchParams.get('secret')).toMatch(/^[A-Z2-7]{32}$/);

    const backupCodes = res.body.backupCodes as string[];
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);
    // 4 groups of 6 Crockford base32 characters: 120 bits.
    for (const code of backupCodes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{6}(-[0-9a-hjkmnp-tv-z]{6}){3}$/);
  });

  it('does not turn TOTP on yet: totpEnabled stays false and a password login still gives tokens', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    await startEnrolment(tenant, token);
    expect((await getMe(tenant, token)).totpEnabled).toBe(false);
    const login = await passwordLogin(tenant, user.email, user.password);
    expect(login.status).toBe(200);
    expect(login.body.data).toMatchObject({ accessToken: expect.any(String), user: { totpEnabled: false } });
    expect(login.body.data).not.toHaveProperty('challengeRequired');
  });

  it('returns 409 TOTP_ALREADY_ENABLED when TOTP is already on', async () => {
    const tenant = await aTenantWith();
    const { token } = await enrolled(tenant);
    expectProblem(await init(tenant, token), 409, 'TOTP_ALREADY_ENABLED');
  });

  it('returns 403 TOTP_NOT_ALLOWED in a tenant that does not allow TOTP', async () => {
    const tenant = await aTenantWith({ totpAllowed: false });
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    expectProblem(await init(tenant, token), 403, 'TOTP_NOT_ALLOWED');
    expect((await getMe(tenant, token)).totpEnabled).toBe(false);
  });

  it('replaces the pending secret and backup codes when called again before verify', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    const first = await startEnrolment(tenant, token);
    const second = await startEnrolment(tenant, token);
    expect(second.secret).not.toBe(first.secret);

    const firstCode = codeNow(first.secret);
    // One chance in about 300,000 that the old secret's code is also a live code of the new one; then this says nothing.
    if (!isLiveCodeOf(second.secret, firstCode)) {
      expectProblem(await verify(tenant, token, firstCode), 401, 'INVALID_CODE');
    }
    expect((await verify(tenant, token, codeNow(second.secret))).status).toBe(204);
    // The first enrolment's backup codes are gone with it.
    expectProblem(await disable(tenant, token, first.backupCodes[0] as string), 401, 'INVALID_CODE');
    expect((await getMe(tenant, token)).totpEnabled).toBe(true);
  });

  it('stores neither the secret nor a backup code in clear on the profile', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    const { secret, backupCodes } = await startEnrolment(tenant, token);
    const profile = async () => {
      const { Item } = await deps.store.doc.send(
        new GetCommand({ TableName: deps.store.tableName, Key: keys.user(tenant, user.id), ConsistentRead: true }),
      );
      return JSON.stringify(Item);
    };
    const expectNothingInClear = (stored: string) => {
      expect(stored).not.toContain(secret);
      for (const code of backupCodes) {
        expect(stored).not.toContain(code);
        expect(stored).not.toContain(code.replaceAll('-', ''));
      }
    };
    expectNothingInClear(await profile()); // pending
    expect((await verify(tenant, token, codeNow(secret))).status).toBe(204);
    expectNothingInClear(await profile()); // enabled
  });
});

describe('POST /users/me/totp/verify', () => {
  it('turns TOTP on with a code of the new secret: 204, totpEnabled, a TOTP challenge at login, TOTP_ENABLED', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    const { secret } = await startEnrolment(tenant, token);

    const res = await verify(tenant, token, codeNow(secret));
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await getMe(tenant, token)).totpEnabled).toBe(true);
    const login = await passwordLogin(tenant, user.email, user.password);
    expect(login.status).toBe(200);
    expect(login.body.data).toEqual({
      challengeRequired: true,
      challengeType: 'TOTP',
      challengeId: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(await activityTypes(tenant, user.id)).toContain('TOTP_ENABLED');
  });

  it('returns 401 INVALID_CODE for a wrong code, and TOTP stays off', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    const { secret } = await startEnrolment(tenant, token);
    expectProblem(await verify(tenant, token, wrongCodeFor(secret)), 401, 'INVALID_CODE');
    expect((await getMe(tenant, token)).totpEnabled).toBe(false);
    expect((await passwordLogin(tenant, user.email, user.password)).body.data.accessToken).toEqual(expect.any(String));
    expect(await activityTypes(tenant, user.id)).not.toContain('TOTP_ENABLED');
  });

  it('returns 409 TOTP_ALREADY_ENABLED when TOTP is already on', async () => {
    const tenant = await aTenantWith();
    const { token, secret } = await enrolled(tenant);
    expectProblem(await verify(tenant, token, codeNext(secret)), 409, 'TOTP_ALREADY_ENABLED');
  });

  it('returns 409 CONFLICT without a pending enrolment (init first)', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    expectProblem(await verify(tenant, token, '123456'), 409, 'CONFLICT');
  });

  it('accepts the enrolling code once: the same code then fails at disable and at login (401 INVALID_CODE)', async () => {
    const tenant = await aTenantWith();
    const { user, token, secret, used } = await enrolled(tenant);

    expectProblem(await disable(tenant, token, used), 401, 'INVALID_CODE');
    expect((await getMe(tenant, token)).totpEnabled).toBe(true);

    const login = await passwordLogin(tenant, user.email, user.password);
    expect(login.body.data.challengeType).toBe('TOTP');
    const res = await post(
      `${api.url}/auth/login/verify`,
      { challengeId: login.body.data.challengeId, code: used },
      tenant.headers,
    );
    expectProblem(res, 401, 'INVALID_CODE');
    // A code not used yet still works.
    expect((await disable(tenant, token, codeNext(secret))).status).toBe(204);
  });
});

describe('POST /users/me/totp/disable', () => {
  it('turns TOTP off with a fresh code: 204, totpEnabled false, TOTP_DISABLED, password login gives tokens', async () => {
    const tenant = await aTenantWith();
    const { user, token, secret } = await enrolled(tenant);
    const res = await disable(tenant, token, codeNext(secret));
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await getMe(tenant, token)).totpEnabled).toBe(false);
    expect(await activityTypes(tenant, user.id)).toContain('TOTP_DISABLED');
    const login = await passwordLogin(tenant, user.email, user.password);
    expect(login.status).toBe(200);
    expect(login.body.data).toMatchObject({ accessToken: expect.any(String), user: { totpEnabled: false } });
  });

  it('turns TOTP off with a backup code', async () => {
    const tenant = await aTenantWith();
    const { token, backupCodes } = await enrolled(tenant);
    expect((await disable(tenant, token, backupCodes[3] as string)).status).toBe(204);
    expect((await getMe(tenant, token)).totpEnabled).toBe(false);
  });

  it('returns 401 INVALID_CODE for a wrong code, and TOTP stays on', async () => {
    const tenant = await aTenantWith();
    const { token, secret } = await enrolled(tenant);
    expectProblem(await disable(tenant, token, wrongCodeFor(secret)), 401, 'INVALID_CODE');
    expectProblem(await disable(tenant, token, 'zzzz-zzzz-zzzz'), 401, 'INVALID_CODE');
    expect((await getMe(tenant, token)).totpEnabled).toBe(true);
  });

  it('returns 409 CONFLICT when TOTP is off', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    expectProblem(await disable(tenant, token, '123456'), 409, 'CONFLICT');
  });

  it('returns 403 TOTP_REMOVAL_NOT_ALLOWED when the tenant does not let users turn TOTP off, and TOTP stays on', async () => {
    const tenant = await aTenantWith();
    const { user, token, secret } = await enrolled(tenant);
    await setAllowUserDisableTotp(tenant, false);
    expectProblem(await disable(tenant, token, codeNext(secret)), 403, 'TOTP_REMOVAL_NOT_ALLOWED');
    expect((await getMe(tenant, token)).totpEnabled).toBe(true);
    expect((await passwordLogin(tenant, user.email, user.password)).body.data.challengeType).toBe('TOTP');
  });
});
