import { createHash } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { hashBackupCode, totpCodeAt } from '#shared/auth/totp.ts';
import { keys } from '#shared/store/keys.ts';
import { aTenantWith, aUser, latestCodeTo, type TestTenant, type TestUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { type Answer, expectProblem, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();

const STEP_MS = 30_000;

function login(tenant: TestTenant, body: Record<string, unknown>) {
  return post(`${api.url}/auth/login`, body, tenant.headers);
}

function verify(tenant: TestTenant, challengeId: string, code: string) {
  return post(`${api.url}/auth/login/verify`, { challengeId, code }, tenant.headers);
}

function expectTokens(res: Answer, userId: string) {
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    success: true,
    data: {
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      tokenType: 'Bearer',
      expiresIn: 900,
      user: expect.objectContaining({ id: userId, status: 'ACTIVE', totpEnabled: true }),
    },
  });
}

function expectTotpChallenge(res: Answer): string {
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    success: true,
    data: {
      challengeRequired: true,
      challengeType: 'TOTP',
      challengeId: expect.any(String),
      expiresAt: expect.any(String),
    },
  });
  expect(res.body.data).not.toHaveProperty('accessToken');
  expect(res.body.data).not.toHaveProperty('refreshToken');
  return res.body.data.challengeId;
}

/** A password login of a TOTP user, up to the TOTP challenge. */
async function totpChallengeFor(tenant: TestTenant, user: TestUser): Promise<string> {
  return expectTotpChallenge(await login(tenant, { email: user.email, password: user.password }));
}

/**
 * Waits, when needed, until at least `ms` are left in the current 30 s step, so
 * that a code computed now is judged in the same step by the server. A computed
 * wait at a step boundary (at most `ms`), not a fixed sleep.
 */
async function awayFromStepEnd(ms = 4_000): Promise<void> {
  const left = STEP_MS - (Date.now() % STEP_MS);
  if (left < ms) await new Promise((done) => setTimeout(done, left + 50));
}

const secretOf = (user: TestUser) => {
  if (!user.totpSecret || !user.backupCodes) throw new Error('the user has no TOTP');
  return { secret: user.totpSecret, backupCodes: user.backupCodes };
};

describe('POST /auth/login for a user with TOTP', () => {
  it('answers a correct password with a TOTP challenge and no tokens', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { totp: true });
    await totpChallengeFor(tenant, user);
  });

  it('answers a wrong password with 401 INVALID_CREDENTIALS, not a challenge', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { totp: true });
    expectProblem(await login(tenant, { email: user.email, password: 'Wrong-pass-1' }), 401, 'INVALID_CREDENTIALS');
  });
});

describe('POST /auth/login/verify with a TOTP challenge', () => {
  it('logs in with the current TOTP code', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { totp: true });
    const challengeId = await totpChallengeFor(tenant, user);
    expectTokens(await verify(tenant, challengeId, totpCodeAt(secretOf(user).secret, new Date())), user.id);
  });

  it('refuses a code once accepted with 401 INVALID_CODE, on a new login and challenge', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { totp: true });
    const code = totpCodeAt(secretOf(user).secret, new Date());
    expectTokens(await verify(tenant, await totpChallengeFor(tenant, user), code), user.id);
    expectProblem(await verify(tenant, await totpChallengeFor(tenant, user), code), 401, 'INVALID_CODE');
  });

  it('returns 401 INVALID_CODE for a wrong code, and the right one still works', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { totp: true });
    const challengeId = await totpChallengeFor(tenant, user);
    const code = totpCodeAt(secretOf(user).secret, new Date());
    const wrong = code === '000000' ? '000001' : '000000';
    expectProblem(await verify(tenant, challengeId, wrong), 401, 'INVALID_CODE');
    expectTokens(await verify(tenant, challengeId, totpCodeAt(secretOf(user).secret, new Date())), user.id);
  });

  it('accepts a code of the previous step (30 s ago) once, when not used before', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { totp: true });
    const first = await totpChallengeFor(tenant, user);
    const second = await totpChallengeFor(tenant, user);
    await awayFromStepEnd();
    const code = totpCodeAt(secretOf(user).secret, new Date(Date.now() - 30_000));
    expectTokens(await verify(tenant, first, code), user.id);
    expectProblem(await verify(tenant, second, code), 401, 'INVALID_CODE');
  });

  it('refuses a code of three steps ago (90 s) with 401 INVALID_CODE', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { totp: true });
    const challengeId = await totpChallengeFor(tenant, user);
    const { secret } = secretOf(user);
    const old = totpCodeAt(secret, new Date(Date.now() - 90_000));
    // One chance in a million that the old code equals a live one; then the check says nothing.
    const live = [-30_000, 0, 30_000].map((offset) => totpCodeAt(secret, new Date(Date.now() + offset)));
    if (!live.includes(old)) expectProblem(await verify(tenant, challengeId, old), 401, 'INVALID_CODE');
    expectTokens(await verify(tenant, challengeId, totpCodeAt(secret, new Date())), user.id);
  });

  it('accepts a backup code once: the same backup code again returns 401 INVALID_CODE', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { totp: true });
    const [backup, another] = secretOf(user).backupCodes;
    if (!backup || !another) throw new Error('no backup codes');
    expectTokens(await verify(tenant, await totpChallengeFor(tenant, user), backup), user.id);
    expectProblem(await verify(tenant, await totpChallengeFor(tenant, user), backup), 401, 'INVALID_CODE');
    expectTokens(await verify(tenant, await totpChallengeFor(tenant, user), another), user.id);
  });

  it('stores backup codes salted with the user id: one code of one user is no code of another', async () => {
    const tenant = await aTenantWith();
    const [owner, other] = [await aUser(tenant, { totp: true }), await aUser(tenant, { totp: true })];
    const [code = ''] = secretOf(owner).backupCodes;
    const deps = makeTestDeps();
    // The other user holds the owner's code as its own stored hash would be: no good, it is salted with the owner's id.
    await deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.tableName,
        Key: keys.user(tenant, other.id),
        UpdateExpression: 'SET backupCodes.#h = :true',
        ExpressionAttributeNames: { '#h': hashBackupCode(owner.id, code) },
        ExpressionAttributeValues: { ':true': true },
      }),
    );
    expectProblem(await verify(tenant, await totpChallengeFor(tenant, other), code), 401, 'INVALID_CODE');
    expectTokens(await verify(tenant, await totpChallengeFor(tenant, owner), code), owner.id);
  });

  it('accepts a backup code of the old format (12 characters, unsalted hash) once, however typed', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { totp: true });
    const deps = makeTestDeps();
    // As enrolment stored codes before 120-bit codes: SHA-256 of `backup:<code>`, no salt.
    const legacy = (code: string) => createHash('sha256').update(`backup:${code}`).digest('hex');
    await deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.tableName,
        Key: keys.user(tenant, user.id),
        UpdateExpression: 'SET backupCodes.#a = :true, backupCodes.#b = :true',
        ExpressionAttributeNames: { '#a': legacy('k3m9x2pq7hcd'), '#b': legacy('0a1b2c3d4e5f') },
        ExpressionAttributeValues: { ':true': true },
      }),
    );
    expectTokens(await verify(tenant, await totpChallengeFor(tenant, user), 'k3m9-x2pq-7hcd'), user.id);
    expectProblem(await verify(tenant, await totpChallengeFor(tenant, user), 'k3m9-x2pq-7hcd'), 401, 'INVALID_CODE');
    expectTokens(await verify(tenant, await totpChallengeFor(tenant, user), '0A1B 2C3D 4E5F'), user.id);
    const { Item } = await deps.store.doc.send(
      new GetCommand({ TableName: deps.store.tableName, Key: keys.user(tenant, user.id), ConsistentRead: true }),
    );
    // Both used up; the 10 current codes (salted, `v2:`) remain.
    expect(Object.keys(Item?.backupCodes ?? {})).toHaveLength(10);
    for (const hash of Object.keys(Item?.backupCodes ?? {})) expect(hash).toMatch(/^v2:[0-9a-f]{64}$/);
  });

  it("does not accept a TOTP code of another user's secret", async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { totp: true });
    const other = await aUser(tenant, { totp: true });
    const challengeId = await totpChallengeFor(tenant, user);
    const { secret } = secretOf(user);
    const foreign = totpCodeAt(secretOf(other).secret, new Date());
    const own = [-30_000, 0, 30_000].map((offset) => totpCodeAt(secret, new Date(Date.now() + offset)));
    if (!own.includes(foreign)) expectProblem(await verify(tenant, challengeId, foreign), 401, 'INVALID_CODE');
  });

  it('asks for the e-mail code and then the TOTP code in an OTP_EMAIL tenant', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant, { totp: true });
    const started = await login(tenant, { email: user.email });
    expect(started.body.data).toMatchObject({ challengeRequired: true, challengeType: 'OTP_EMAIL' });
    const mailed = await latestCodeTo(api.stack.sesUrl, user.email);
    const afterCode = await verify(tenant, started.body.data.challengeId, mailed);
    const totpChallenge = expectTotpChallenge(afterCode);
    expect(totpChallenge).not.toBe(started.body.data.challengeId);
    expectTokens(await verify(tenant, totpChallenge, totpCodeAt(secretOf(user).secret, new Date())), user.id);
  });

  it('does not take the e-mail code as the answer to the TOTP step', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant, { totp: true });
    const started = await login(tenant, { email: user.email });
    const mailed = await latestCodeTo(api.stack.sesUrl, user.email);
    const totpChallenge = expectTotpChallenge(await verify(tenant, started.body.data.challengeId, mailed));
    const { secret } = secretOf(user);
    const live = [-30_000, 0, 30_000].map((offset) => totpCodeAt(secret, new Date(Date.now() + offset)));
    if (!live.includes(mailed)) expectProblem(await verify(tenant, totpChallenge, mailed), 401, 'INVALID_CODE');
  });
});
