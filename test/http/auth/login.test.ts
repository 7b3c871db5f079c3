import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { hashCode } from '#shared/auth/codes.ts';
import { keys } from '#shared/store/keys.ts';
import type { LoginMode } from '#shared/tenancy/schemas.ts';
import type { StoredUserStatus } from '#shared/users/types.ts';
import {
  aTenantWith,
  aUser,
  forgetMailsTo,
  latestCodeTo,
  mailsTo,
  setLoginPolicy,
  type TestTenant,
} from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { type Answer, expectProblem, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();
const deps = makeTestDeps();

const SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';

function login(tenant: TestTenant, body: Record<string, unknown>, userAgent = SAFARI) {
  return post(`${api.url}/auth/login`, body, { ...tenant.headers, 'user-agent': userAgent });
}

function verify(tenant: TestTenant, challengeId: string, code: string) {
  return post(`${api.url}/auth/login/verify`, { challengeId, code }, { ...tenant.headers, 'user-agent': SAFARI });
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
      user: expect.objectContaining({ id: userId, status: 'ACTIVE' }),
    },
  });
}

function expectCodeChallenge(res: Answer, asked: number) {
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    success: true,
    data: {
      challengeRequired: true,
      challengeType: 'OTP_EMAIL',
      challengeId: expect.any(String),
      expiresAt: expect.any(String),
    },
  });
  expect(res.body.data).not.toHaveProperty('accessToken');
  // E-mail codes are valid 10 minutes (a few seconds of slack for the request itself).
  expect(Math.abs(Date.parse(res.body.data.expiresAt) - (asked + 10 * 60_000))).toBeLessThan(5_000);
}

/** The items of one user partition whose sort key starts with a prefix. */
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

describe('POST /auth/login with a password', () => {
  it('returns 200 with the tokens and the ACTIVE user, lastLoginAt set', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const before = Date.now();
    const res = await login(tenant, { email: user.email, password: user.password });
    expectTokens(res, user.id);
    expect(res.body.data.user).toEqual({
      id: user.id,
      email: user.email,
      emailStatus: 'VALIDATED',
      firstName: 'Test',
      lastName: 'User',
      phone: null,
      status: 'ACTIVE',
      totpEnabled: false,
      roles: [expect.objectContaining({ name: 'DEFAULT', priority: 99, expiresAt: null })],
      registeredAt: expect.any(String),
      lastLoginAt: expect.any(String),
    });
    expect(Date.parse(res.body.data.user.lastLoginAt)).toBeGreaterThanOrEqual(before - 1_000);
    expect(Date.parse(res.body.data.user.lastLoginAt)).toBeLessThanOrEqual(Date.now() + 1_000);
  });

  it('issues an ES256 access token with the contract claims, verifiable with the JWKS', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken } = (await login(tenant, { email: user.email, password: user.password })).body.data;
    const jwks = createRemoteJWKSet(new URL(`${api.url}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(accessToken, jwks, {
      issuer: api.url,
      audience: tenant.app,
      algorithms: ['ES256'],
    });
    expect(protectedHeader.kid).toEqual(expect.any(String));
    expect(decodeProtectedHeader(accessToken).alg).toBe('ES256');
    const claims = decodeJwt(accessToken);
    expect(claims).toEqual(payload);
    expect(claims).toEqual({
      iss: api.url,
      aud: tenant.app,
      sub: user.id,
      sid: expect.stringMatching(/.+/),
      app: tenant.app,
      mid: tenant.mid,
      roles: expect.arrayContaining(['DEFAULT']),
      iat: expect.any(Number),
      exp: expect.any(Number),
      jti: expect.stringMatching(/.+/),
    });
    expect(typeof claims.aud).toBe('string');
    expect((claims.exp as number) - (claims.iat as number)).toBe(900);
  });

  it('gives each login its own session id and token id', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const one = decodeJwt((await login(tenant, { email: user.email, password: user.password })).body.data.accessToken);
    const two = decodeJwt((await login(tenant, { email: user.email, password: user.password })).body.data.accessToken);
    expect(one.sid).not.toBe(two.sid);
    expect(one.jti).not.toBe(two.jti);
  });

  it('trims the e-mail and compares it case-insensitively', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const res = await login(tenant, { email: `  ${user.email.toUpperCase()} `, password: user.password });
    expectTokens(res, user.id);
  });

  it('returns the same 401 INVALID_CREDENTIALS body for a wrong password and for an unknown e-mail', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const wrongPassword = await login(tenant, { email: user.email, password: 'Wrong-pass-1' });
    const unknownEmail = await login(tenant, { email: `nobody-${user.id}@shop.test`, password: user.password });
    expectProblem(wrongPassword, 401, 'INVALID_CREDENTIALS');
    expectProblem(unknownEmail, 401, 'INVALID_CREDENTIALS');
    expect(unknownEmail.body).toEqual(wrongPassword.body);
  });

  it.each<[StoredUserStatus, string]>([
    ['DISABLED', 'ACCOUNT_DISABLED'],
    ['COMPROMISED', 'ACCOUNT_DISABLED'],
    ['INACTIVE', 'ACCOUNT_INACTIVE'],
    ['INVITED', 'ACCOUNT_INACTIVE'],
  ])('returns 403 %s → %s after the correct password, and no tokens', async (status, code) => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { status });
    const res = await login(tenant, { email: user.email, password: user.password });
    expectProblem(res, 403, code);
    expect(res.body).not.toHaveProperty('data');
  });

  it.each<StoredUserStatus>(['DISABLED', 'COMPROMISED', 'INACTIVE', 'INVITED'])(
    'returns 401 INVALID_CREDENTIALS for a wrong password whatever the status (%s): the status does not leak',
    async (status) => {
      const tenant = await aTenantWith();
      const user = await aUser(tenant, { status });
      const res = await login(tenant, { email: user.email, password: 'Wrong-pass-1' });
      expectProblem(res, 401, 'INVALID_CREDENTIALS');
      const unknown = await login(tenant, { email: `nobody-${user.id}@shop.test`, password: 'Wrong-pass-1' });
      expect(res.body).toEqual(unknown.body);
    },
  );

  it('records a LOGIN activity with the IP and the User-Agent', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    expectTokens(await login(tenant, { email: user.email, password: user.password }), user.id);
    const activity = await itemsOf(keys.activityPartition(tenant, user.id));
    expect(activity).toEqual([
      expect.objectContaining({ type: 'LOGIN', userId: user.id, actorId: user.id, userAgent: SAFARI }),
    ]);
    expect(activity[0]?.ip).toMatch(/^(127\.0\.0\.1|::1)$/);
  });

  it('records a session and a device; a second login with the same User-Agent within the day leaves the device as it was', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const partition = keys.userPartition(tenant, user.id);
    const first = await login(tenant, { email: user.email, password: user.password });
    const sid = decodeJwt(first.body.data.accessToken).sid;
    const sessions = await itemsOf(partition, 'SESSION#');
    expect(sessions).toEqual([expect.objectContaining({ id: sid, userId: user.id, revokedAt: null })]);
    const devices = await itemsOf(partition, 'DEVICE#');
    expect(devices).toEqual([expect.objectContaining({ seenCount: 1 })]);

    expectTokens(await login(tenant, { email: user.email, password: user.password }), user.id);
    expect(await itemsOf(partition, 'SESSION#')).toHaveLength(2);
    expect(await itemsOf(partition, 'DEVICE#')).toEqual(devices);
  });

  it('records nothing but LOGIN_FAILED for a wrong password: no session, no device', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    expectProblem(await login(tenant, { email: user.email, password: 'Wrong-pass-1' }), 401, 'INVALID_CREDENTIALS');
    const partition = keys.userPartition(tenant, user.id);
    expect(await itemsOf(partition, 'SESSION#')).toEqual([]);
    expect(await itemsOf(partition, 'DEVICE#')).toEqual([]);
    expect((await itemsOf(keys.activityPartition(tenant, user.id))).map((item) => item.type)).toEqual(['LOGIN_FAILED']);
  });

  it('returns 400 VALIDATION_FAILED naming password for { email } alone in a PASSWORD tenant', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    const res = await login(tenant, { email: user.email });
    expectProblem(res, 400, 'VALIDATION_FAILED');
    expect(res.body.errors).toEqual([expect.objectContaining({ path: 'password' })]);
    expect(await mailsTo(api.stack.sesUrl, user.email)).toEqual([]);
  });
});

describe('POST /auth/login with an e-mail code', () => {
  it('mails a code in an OTP_EMAIL tenant and answers an OTP_EMAIL challenge; the code logs in', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant);
    const asked = Date.now();
    const res = await login(tenant, { email: user.email });
    expectCodeChallenge(res, asked);
    const mails = await mailsTo(api.stack.sesUrl, user.email);
    expect(mails).toHaveLength(1);
    const code = await latestCodeTo(api.stack.sesUrl, user.email);
    expect(code).toMatch(/^\d{6}$/);
    expectTokens(await verify(tenant, res.body.data.challengeId, code), user.id);
  });

  it.each<[string, Record<string, unknown>]>([
    ['{ email }', {}],
    ['loginMode OTP_EMAIL', { loginMode: 'OTP_EMAIL' }],
  ])('takes %s in a PASSWORD_OR_OTP_EMAIL tenant: a code by mail, then tokens', async (_, extra) => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' });
    const user = await aUser(tenant);
    const asked = Date.now();
    const res = await login(tenant, { email: user.email, ...extra });
    expectCodeChallenge(res, asked);
    const code = await latestCodeTo(api.stack.sesUrl, user.email);
    expectTokens(await verify(tenant, res.body.data.challengeId, code), user.id);
  });

  it('takes a password too in a PASSWORD_OR_OTP_EMAIL tenant', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' });
    const user = await aUser(tenant);
    expectTokens(await login(tenant, { email: user.email, password: user.password }), user.id);
    expect(await mailsTo(api.stack.sesUrl, user.email)).toEqual([]);
  });

  it('answers an unknown e-mail the same way, mails nothing, and no code passes its challenge', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const known = await aUser(tenant);
    const unknownEmail = `nobody-${known.id}@shop.test`;
    const asked = Date.now();
    const knownRes = await login(tenant, { email: known.email });
    const unknownRes = await login(tenant, { email: unknownEmail });
    expectCodeChallenge(knownRes, asked);
    expectCodeChallenge(unknownRes, asked);
    expect(Object.keys(unknownRes.body.data).sort()).toEqual(Object.keys(knownRes.body.data).sort());
    expect(await mailsTo(api.stack.sesUrl, unknownEmail)).toEqual([]);

    const { challengeId } = unknownRes.body.data;
    expectProblem(await verify(tenant, challengeId, '000000'), 401, 'INVALID_CODE');
    // Even the code the decoy was made with: set a known one, as if an attacker had guessed it.
    await deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.tableName,
        Key: keys.challenge(tenant, challengeId),
        UpdateExpression: 'SET codeHash = :hash',
        ExpressionAttributeValues: { ':hash': hashCode('424242', challengeId) },
      }),
    );
    expectProblem(await verify(tenant, challengeId, '424242'), 401, 'INVALID_CODE');
  });

  it('returns 401 INVALID_CODE for a wrong code; the right one still works after one miss', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant);
    const { challengeId } = (await login(tenant, { email: user.email })).body.data;
    const code = await latestCodeTo(api.stack.sesUrl, user.email);
    const wrong = code === '000000' ? '000001' : '000000';
    expectProblem(await verify(tenant, challengeId, wrong), 401, 'INVALID_CODE');
    expectTokens(await verify(tenant, challengeId, code), user.id);
  });

  it('returns 401 INVALID_CODE even for the right code after 5 wrong ones: the challenge is dead', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant);
    const { challengeId } = (await login(tenant, { email: user.email })).body.data;
    const code = await latestCodeTo(api.stack.sesUrl, user.email);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) expectProblem(await verify(tenant, challengeId, wrong), 401, 'INVALID_CODE');
    expectProblem(await verify(tenant, challengeId, code), 401, 'INVALID_CODE');
  });

  it('accepts a code once: the right code a second time returns 401 INVALID_CODE', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant);
    const { challengeId } = (await login(tenant, { email: user.email })).body.data;
    const code = await latestCodeTo(api.stack.sesUrl, user.email);
    expectTokens(await verify(tenant, challengeId, code), user.id);
    expectProblem(await verify(tenant, challengeId, code), 401, 'INVALID_CODE');
  });

  it("does not accept one challenge's code on another challenge", async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant);
    const first = (await login(tenant, { email: user.email })).body.data.challengeId;
    const firstCode = await latestCodeTo(api.stack.sesUrl, user.email);
    // A minute later, as far as the mail limit goes (one code a minute per address).
    await forgetMailsTo(tenant, 'LOGIN', user.email);
    const second = (await login(tenant, { email: user.email })).body.data.challengeId;
    const secondCode = await latestCodeTo(api.stack.sesUrl, user.email);
    if (firstCode !== secondCode) expectProblem(await verify(tenant, second, firstCode), 401, 'INVALID_CODE');
    expectTokens(await verify(tenant, first, firstCode), user.id);
    expectTokens(await verify(tenant, second, secondCode), user.id);
  });

  it("returns 401 INVALID_CODE for another tenant's challenge, even with its right code", async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const otherTenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant);
    const { challengeId } = (await login(tenant, { email: user.email })).body.data;
    const code = await latestCodeTo(api.stack.sesUrl, user.email);
    expectProblem(await verify(otherTenant, challengeId, code), 401, 'INVALID_CODE');
    expectTokens(await verify(tenant, challengeId, code), user.id);
  });

  it('does not log in with a password-reset code: 401 INVALID_CODE', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant);
    const reset = await post(`${api.url}/auth/forgot-password`, { email: user.email }, tenant.headers);
    expect(reset.status).toBe(202);
    const code = await latestCodeTo(api.stack.sesUrl, user.email);
    expectProblem(await verify(tenant, reset.body.challengeId, code), 401, 'INVALID_CODE');
  });

  it('returns 403 LOGIN_MODE_NOT_ALLOWED for a password in an OTP_EMAIL tenant, and mails nothing', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant);
    expectProblem(await login(tenant, { email: user.email, password: user.password }), 403, 'LOGIN_MODE_NOT_ALLOWED');
    expect(await mailsTo(api.stack.sesUrl, user.email)).toEqual([]);
  });

  it('returns 403 LOGIN_MODE_NOT_ALLOWED for loginMode OTP_EMAIL in a PASSWORD tenant, and mails nothing', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    expectProblem(await login(tenant, { email: user.email, loginMode: 'OTP_EMAIL' }), 403, 'LOGIN_MODE_NOT_ALLOWED');
    expect(await mailsTo(api.stack.sesUrl, user.email)).toEqual([]);
  });

  it.each<[LoginMode, number, string]>([
    ['PASSWORD', 403, 'LOGIN_MODE_NOT_ALLOWED'],
    ['OTP_EMAIL', 403, 'LOGIN_MODE_NOT_ALLOWED'],
    ['PASSWORD_OR_OTP_EMAIL', 400, 'VALIDATION_FAILED'],
  ])(
    'judges the mode first for a password with loginMode OTP_EMAIL: in a %s tenant %i %s, and mails nothing',
    async (loginMode, status, code) => {
      const tenant = await aTenantWith({ loginMode });
      const user = await aUser(tenant);
      const res = await login(tenant, { email: user.email, password: user.password, loginMode: 'OTP_EMAIL' });
      expectProblem(res, status, code);
      expect(await mailsTo(api.stack.sesUrl, user.email)).toEqual([]);
    },
  );

  it("applies a change of the tenant's login mode on the very next request", async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const user = await aUser(tenant);
    expectTokens(await login(tenant, { email: user.email, password: user.password }), user.id);

    await setLoginPolicy(tenant, { loginMode: 'OTP_EMAIL' });
    expectProblem(await login(tenant, { email: user.email, password: user.password }), 403, 'LOGIN_MODE_NOT_ALLOWED');
    expectCodeChallenge(await login(tenant, { email: user.email }), Date.now());

    await setLoginPolicy(tenant, { loginMode: 'PASSWORD' });
    expectProblem(await login(tenant, { email: user.email, loginMode: 'OTP_EMAIL' }), 403, 'LOGIN_MODE_NOT_ALLOWED');
    expectTokens(await login(tenant, { email: user.email, password: user.password }), user.id);
  });
});
