import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser, latestCodeTo, mailsTo, type TestTenant } from '#test/support/auth.ts';
import { expectProblem, identityApi, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();
const { call, login } = identityApi(() => api.url);

let counter = 0;
const anEmail = (name = 'fern') => `${name}-${process.pid}-${Date.now().toString(36)}-${++counter}@shop.test`;
const NEW_PASSWORD = 'Philodendron-7-vine';

const forgot = (tenant: TestTenant, email: string) =>
  post(`${api.url}/auth/forgot-password`, { email }, tenant.headers);
const reset = (tenant: TestTenant, challengeId: string, code: string, newPassword = NEW_PASSWORD) =>
  post(`${api.url}/auth/reset-password`, { challengeId, code, newPassword }, tenant.headers);
const refresh = (tenant: TestTenant, refreshToken: string) =>
  post(`${api.url}/auth/refresh`, { refreshToken }, tenant.headers);

const logout = (tenant: TestTenant, accessToken: string) =>
  call('DELETE', '/auth/logout', {
    'x-app-id': tenant.app,
    'x-mid-key': tenant.mid,
    authorization: `Bearer ${accessToken}`,
  });

const otherThan = (code: string) => (code === '000000' ? '111111' : '000000');

/** An ACTIVE user who asked for a reset: the challenge and the mailed code. */
async function aResetRequest() {
  const tenant = await aTenantWith();
  const user = await aUser(tenant, { email: anEmail() });
  const res = await forgot(tenant, user.email);
  expect(res.status).toBe(202);
  const challengeId = res.body.challengeId as string;
  return { tenant, user, challengeId, code: await latestCodeTo(api.stack.sesUrl, user.email) };
}

describe('POST /auth/forgot-password', () => {
  it('answers 202 { challengeId } alike for a known and an unknown e-mail, and mails only the known one', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { email: anEmail() });
    const unknown = anEmail('nobody');

    const known = await forgot(tenant, user.email);
    const stranger = await forgot(tenant, unknown);

    for (const res of [known, stranger]) {
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ challengeId: expect.any(String) });
    }
    expect(stranger.body.challengeId.length).toBe(known.body.challengeId.length);
    expect(stranger.body.challengeId.replace(/[0-9a-z]/g, 'x')).toBe(known.body.challengeId.replace(/[0-9a-z]/g, 'x'));
    const mails = await mailsTo(api.stack.sesUrl, user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/reset/i);
    expect(await mailsTo(api.stack.sesUrl, unknown)).toEqual([]);
  });

  it('finds the account whatever the case and surrounding spaces of the e-mail', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { email: anEmail() });
    const res = await forgot(tenant, `  ${user.email.toUpperCase()} `);
    expect(res.status).toBe(202);
    const code = await latestCodeTo(api.stack.sesUrl, user.email);
    expect((await reset(tenant, res.body.challengeId, code)).status).toBe(204);
    expect((await login(tenant, user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('does not mail the holder of that e-mail in another tenant', async () => {
    const tenant = await aTenantWith();
    const other = await aTenantWith();
    const user = await aUser(other, { email: anEmail() });
    const res = await forgot(tenant, user.email);
    expect(res.status).toBe(202);
    expect(await mailsTo(api.stack.sesUrl, user.email)).toEqual([]);
  });
});

describe('POST /auth/reset-password', () => {
  it('answers 204 to the mailed code: the new password logs in, the old one no longer does', async () => {
    const { tenant, user, challengeId, code } = await aResetRequest();
    const res = await reset(tenant, challengeId, code);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await login(tenant, user.email, NEW_PASSWORD)).status).toBe(200);
    expectProblem(await login(tenant, user.email, user.password), 401, 'INVALID_CREDENTIALS');
  });

  it('revokes every session of the user: old access tokens answer SESSION_REVOKED, old refresh tokens 401', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { email: anEmail() });
    const sessions = [];
    for (let i = 0; i < 2; i++) {
      const res = await login(tenant, user.email, user.password);
      expect(res.status).toBe(200);
      sessions.push(res.body.data as { accessToken: string; refreshToken: string });
    }
    const challenge = await forgot(tenant, user.email);
    const code = await latestCodeTo(api.stack.sesUrl, user.email);
    expect((await reset(tenant, challenge.body.challengeId, code)).status).toBe(204);

    for (const session of sessions) {
      expectProblem(await logout(tenant, session.accessToken), 401, 'SESSION_REVOKED');
      expectProblem(await refresh(tenant, session.refreshToken), 401, 'REFRESH_TOKEN_INVALID');
    }
    // A session started after the reset is live.
    const fresh = await login(tenant, user.email, NEW_PASSWORD);
    expect((await logout(tenant, fresh.body.data.accessToken)).status).toBe(204);
  });

  it('lifts a lockout: after the reset the owner logs in at once and is shown ACTIVE, not TIMED_OUT', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { email: anEmail() });
    for (let i = 0; i < 5; i++) {
      expectProblem(await login(tenant, user.email, `Wrong-${i}-guess`), 401, 'INVALID_CREDENTIALS');
    }
    expectProblem(await login(tenant, user.email, user.password), 429, 'TOO_MANY_ATTEMPTS');

    const challenge = await forgot(tenant, user.email);
    const code = await latestCodeTo(api.stack.sesUrl, user.email);
    expect((await reset(tenant, challenge.body.challengeId, code)).status).toBe(204);

    const res = await login(tenant, user.email, NEW_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.data.user.status).toBe('ACTIVE');
  });

  it('mails the owner a notice that the password was reset', async () => {
    const { tenant, user, challengeId, code } = await aResetRequest();
    expect((await reset(tenant, challengeId, code)).status).toBe(204);
    const mails = await mailsTo(api.stack.sesUrl, user.email);
    expect(mails).toHaveLength(2);
    expect(mails.at(-1)?.subject).toMatch(/password was reset/i);
  });

  it('returns 401 INVALID_CODE for a wrong code and leaves the password as it was', async () => {
    const { tenant, user, challengeId, code } = await aResetRequest();
    expectProblem(await reset(tenant, challengeId, otherThan(code)), 401, 'INVALID_CODE');
    expect((await login(tenant, user.email, user.password)).status).toBe(200);
    expectProblem(await login(tenant, user.email, NEW_PASSWORD), 401, 'INVALID_CREDENTIALS');
  });

  it('returns 401 INVALID_CODE to the right code after 5 wrong ones', async () => {
    const { tenant, user, challengeId, code } = await aResetRequest();
    for (let i = 0; i < 5; i++) {
      expectProblem(await reset(tenant, challengeId, otherThan(code)), 401, 'INVALID_CODE');
    }
    expectProblem(await reset(tenant, challengeId, code), 401, 'INVALID_CODE');
    expect((await login(tenant, user.email, user.password)).status).toBe(200);
  });

  it('returns 400 PASSWORD_TOO_COMMON for a common new password, and the code still works after', async () => {
    const { tenant, user, challengeId, code } = await aResetRequest();
    const res = await reset(tenant, challengeId, code, 'Password1');
    expectProblem(res, 400, 'PASSWORD_TOO_COMMON');
    expect(res.body.errors).toEqual([expect.objectContaining({ path: 'newPassword' })]);
    expect((await login(tenant, user.email, user.password)).status).toBe(200);
    expect((await reset(tenant, challengeId, code)).status).toBe(204);
  });

  it('returns 400 VALIDATION_FAILED on newPassword for a password without a digit', async () => {
    const { tenant, challengeId, code } = await aResetRequest();
    const res = await reset(tenant, challengeId, code, 'Philodendron-vine');
    expectProblem(res, 400, 'VALIDATION_FAILED');
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'newPassword' })]));
  });

  it('returns 401 INVALID_CODE when a reset code is used a second time', async () => {
    const { tenant, user, challengeId, code } = await aResetRequest();
    expect((await reset(tenant, challengeId, code)).status).toBe(204);
    expectProblem(await reset(tenant, challengeId, code, 'Another-88-password'), 401, 'INVALID_CODE');
    expect((await login(tenant, user.email, NEW_PASSWORD)).status).toBe(200);
    expectProblem(await login(tenant, user.email, 'Another-88-password'), 401, 'INVALID_CREDENTIALS');
  });

  it('never resets anything through the challenge of an unknown e-mail', async () => {
    const tenant = await aTenantWith();
    const res = await forgot(tenant, anEmail('nobody'));
    expect(res.status).toBe(202);
    for (const code of ['000000', '123456']) {
      expectProblem(await reset(tenant, res.body.challengeId, code), 401, 'INVALID_CODE');
    }
  });

  it("returns 401 INVALID_CODE for another tenant's challenge", async () => {
    const { tenant, user, challengeId, code } = await aResetRequest();
    const other = await aTenantWith();
    expectProblem(await reset(other, challengeId, code), 401, 'INVALID_CODE');
    expect((await login(tenant, user.email, user.password)).status).toBe(200);
  });

  it('returns 401 INVALID_CODE for a signup challenge: codes are bound to their purpose', async () => {
    const tenant = await aTenantWith();
    const email = anEmail('newcomer');
    const signup = await post(
      `${api.url}/auth/signup`,
      { app: tenant.app, mid: tenant.mid, email, password: 'Monstera-42-leaf', firstName: 'N', lastName: 'C' },
      tenant.headers,
    );
    expect(signup.status).toBe(201);
    const code = await latestCodeTo(api.stack.sesUrl, email);
    expectProblem(await reset(tenant, signup.body.data.challengeId, code), 401, 'INVALID_CODE');
  });
});
