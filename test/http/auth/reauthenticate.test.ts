import { describe, expect, it } from 'vitest';
import { totpCodeAt } from '#shared/auth/totp.ts';
import {
  aTenantWith,
  aUser,
  forgetMailsTo,
  latestCodeTo,
  mailsTo,
  type TestTenant,
  type TestUser,
} from '#test/support/auth.ts';
import { bearer, expectInvalid, expectProblem, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

/**
 * POST /auth/reauthenticate (docs/security.md#recent-authentication): the
 * password, or an e-mail code where the tenant's mode takes codes, plus a
 * TOTP or backup code when TOTP is on. Wrong answers are
 * counted like wrong logins. What it unlocks (and that a stale session is
 * refused) is in test/integration/auth/recent-authentication.test.ts, whose
 * clock the test moves.
 */

const api = useLocalStack();

const reauthenticate = (tenant: TestTenant, token: string, body: unknown) =>
  post(`${api.url}/auth/reauthenticate`, body, bearer(tenant, token));

/** Signs in with the password (and the TOTP code of the current step, for a TOTP user); the access token. */
async function signedIn(tenant: TestTenant, user: TestUser): Promise<string> {
  const first = await post(`${api.url}/auth/login`, { email: user.email, password: user.password }, tenant.headers);
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  if (!first.body.data.challengeRequired) return first.body.data.accessToken;
  const second = await post(
    `${api.url}/auth/login/verify`,
    { challengeId: first.body.data.challengeId, code: totpCodeAt(user.totpSecret ?? '', new Date()) },
    tenant.headers,
  );
  expect(second.status, JSON.stringify(second.body)).toBe(200);
  return second.body.data.accessToken;
}

/** Signs in with an e-mail code (an OTP_EMAIL or PASSWORD_OR_OTP_EMAIL tenant); the access token. */
async function signedInByCode(tenant: TestTenant, user: TestUser): Promise<string> {
  // A minute later, as far as the mail limit goes (one login code a minute per address): tests sign in twice.
  await forgetMailsTo(tenant, 'LOGIN', user.email);
  const first = await post(`${api.url}/auth/login`, { email: user.email, loginMode: 'OTP_EMAIL' }, tenant.headers);
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  const code = await latestCodeTo(api.stack.sesUrl, user.email);
  const second = await post(
    `${api.url}/auth/login/verify`,
    { challengeId: first.body.data.challengeId, code },
    tenant.headers,
  );
  expect(second.status, JSON.stringify(second.body)).toBe(200);
  return second.body.data.accessToken;
}

/** A six-digit code that is none of the three the TOTP window accepts now. */
function wrongTotp(secret: string): string {
  const valid = new Set([-30_000, 0, 30_000].map((d) => totpCodeAt(secret, new Date(Date.now() + d))));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

/** A six-digit code other than `right`. */
const otherThan = (right: string) => String((Number(right) + 1) % 1_000_000).padStart(6, '0');

describe('POST /auth/reauthenticate with the password', () => {
  it('answers 204 with no body for the right password', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const res = await reauthenticate(tenant, await signedIn(tenant, user), { password: user.password });
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
  });

  it('answers 401 INVALID_CREDENTIALS for a wrong password, counted against the lockout: the 6th try is 429 even when right, and login is locked too', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const token = await signedIn(tenant, user);
    for (let i = 0; i < 5; i++) {
      expectProblem(await reauthenticate(tenant, token, { password: `Wrong-${i}-pass9` }), 401, 'INVALID_CREDENTIALS');
    }
    const sixth = await reauthenticate(tenant, token, { password: user.password });
    expectProblem(sixth, 429, 'TOO_MANY_ATTEMPTS');
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    const login = await post(`${api.url}/auth/login`, { email: user.email, password: user.password }, tenant.headers);
    expectProblem(login, 429, 'TOO_MANY_ATTEMPTS');
  });

  it('with TOTP on: 400 naming totpCode without one, 401 INVALID_CODE for a wrong one, 204 with a right one or a backup code', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { totp: true });
    const secret = user.totpSecret ?? '';
    const token = await signedIn(tenant, user);
    expectInvalid(await reauthenticate(tenant, token, { password: user.password }), 'totpCode');
    expectProblem(
      await reauthenticate(tenant, token, { password: user.password, totpCode: wrongTotp(secret) }),
      401,
      'INVALID_CODE',
    );
    // The login's step is used up; the next step's code is inside the window.
    const next = totpCodeAt(secret, new Date(Date.now() + 30_000));
    expect((await reauthenticate(tenant, token, { password: user.password, totpCode: next })).status).toBe(204);
    const backup = user.backupCodes?.[0] ?? '';
    expect((await reauthenticate(tenant, token, { password: user.password, totpCode: backup })).status).toBe(204);
    // A backup code works once.
    expectProblem(
      await reauthenticate(tenant, token, { password: user.password, totpCode: backup }),
      401,
      'INVALID_CODE',
    );
  });

  it('answers 403 LOGIN_MODE_NOT_ALLOWED for a password in an OTP_EMAIL tenant, and for an e-mail code in a PASSWORD tenant', async () => {
    const otp = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const otpUser = await aUser(otp);
    const otpToken = await signedInByCode(otp, otpUser);
    expectProblem(await reauthenticate(otp, otpToken, { password: otpUser.password }), 403, 'LOGIN_MODE_NOT_ALLOWED');

    const pw = await aTenantWith();
    const pwUser = await aUser(pw);
    const pwToken = await signedIn(pw, pwUser);
    const before = (await mailsTo(api.stack.sesUrl, pwUser.email)).length;
    expectProblem(await reauthenticate(pw, pwToken, { loginMode: 'OTP_EMAIL' }), 403, 'LOGIN_MODE_NOT_ALLOWED');
    expectProblem(
      await reauthenticate(pw, pwToken, { challengeId: 'chl_x', code: '123456' }),
      403,
      'LOGIN_MODE_NOT_ALLOWED',
    );
    expect(await mailsTo(api.stack.sesUrl, pwUser.email)).toHaveLength(before);
  });

  it('answers 400 for an empty body, or a password with an e-mail code where both are taken', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' });
    const user = await aUser(tenant);
    const token = await signedIn(tenant, user);
    expectInvalid(await reauthenticate(tenant, token, {}), 'password');
    expectInvalid(await reauthenticate(tenant, token, { password: user.password, loginMode: 'OTP_EMAIL' }), 'password');
    expectInvalid(await reauthenticate(tenant, token, { code: '123456' }), 'challengeId');
  });

  it('answers 401 without a bearer, and 401 SESSION_REVOKED after logout', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const token = await signedIn(tenant, user);
    expectProblem(
      await post(`${api.url}/auth/reauthenticate`, { password: user.password }, tenant.headers),
      401,
      'UNAUTHENTICATED',
    );
    const out = await fetch(`${api.url}/auth/logout`, { method: 'DELETE', headers: bearer(tenant, token) });
    expect(out.status).toBe(204);
    expectProblem(await reauthenticate(tenant, token, { password: user.password }), 401, 'SESSION_REVOKED');
  });
});

describe('POST /auth/reauthenticate with an e-mail code', () => {
  it('in an OTP_EMAIL tenant: { loginMode: "OTP_EMAIL" } mails a code to the user and answers 200 { challengeId }; the code answers 204, once', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant);
    const token = await signedInByCode(tenant, user);
    const asked = await reauthenticate(tenant, token, { loginMode: 'OTP_EMAIL' });
    expect(asked.status, asked.text).toBe(200);
    expect(asked.body).toEqual({ challengeId: expect.any(String) });
    const mail = (await mailsTo(api.stack.sesUrl, user.email)).at(-1);
    expect(mail?.subject).toMatch(/Confirm it is you/);
    const code = await latestCodeTo(api.stack.sesUrl, user.email);
    const done = await reauthenticate(tenant, token, { challengeId: asked.body.challengeId, code });
    expect(done.status, done.text).toBe(204);
    // Single use.
    expectProblem(
      await reauthenticate(tenant, token, { challengeId: asked.body.challengeId, code }),
      401,
      'INVALID_CODE',
    );
  });

  it('with TOTP on, the code step needs totpCode too (400 without, 401 INVALID_CODE when wrong)', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' });
    const user = await aUser(tenant, { totp: true });
    const token = await signedIn(tenant, user);
    const asked = await reauthenticate(tenant, token, { loginMode: 'OTP_EMAIL' });
    expect(asked.status, asked.text).toBe(200);
    const code = await latestCodeTo(api.stack.sesUrl, user.email);
    const step = { challengeId: asked.body.challengeId, code };
    expectInvalid(await reauthenticate(tenant, token, step), 'totpCode');
    expectProblem(
      await reauthenticate(tenant, token, { ...step, totpCode: wrongTotp(user.totpSecret ?? '') }),
      401,
      'INVALID_CODE',
    );
    const done = await reauthenticate(tenant, token, { ...step, totpCode: user.backupCodes?.[0] });
    expect(done.status, done.text).toBe(204);
  });

  it("refuses one user's code to another user, and to another session of the same user (401 INVALID_CODE); it stays good for its own", async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const owner = await aUser(tenant);
    const other = await aUser(tenant);
    const ownerToken = await signedInByCode(tenant, owner);
    const otherToken = await signedInByCode(tenant, other);
    const ownerSecondSession = await signedInByCode(tenant, owner);
    const asked = await reauthenticate(tenant, ownerToken, { loginMode: 'OTP_EMAIL' });
    expect(asked.status, asked.text).toBe(200);
    const code = await latestCodeTo(api.stack.sesUrl, owner.email);
    const step = { challengeId: asked.body.challengeId, code };
    expectProblem(await reauthenticate(tenant, otherToken, step), 401, 'INVALID_CODE');
    expectProblem(await reauthenticate(tenant, ownerSecondSession, step), 401, 'INVALID_CODE');
    expect((await reauthenticate(tenant, ownerToken, step)).status).toBe(204);
  });

  it('counts a wrong code against the lockout: after 5 wrong codes a new challenge answers 429 unseen', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant);
    const token = await signedInByCode(tenant, user);
    const asked = await reauthenticate(tenant, token, { loginMode: 'OTP_EMAIL' });
    const code = await latestCodeTo(api.stack.sesUrl, user.email);
    for (let i = 0; i < 5; i++) {
      expectProblem(
        await reauthenticate(tenant, token, { challengeId: asked.body.challengeId, code: otherThan(code) }),
        401,
        'INVALID_CODE',
      );
    }
    // The challenge itself is dead (5 wrong answers kill it, as at login); a fresh one gives no new tries.
    expectProblem(
      await reauthenticate(tenant, token, { challengeId: asked.body.challengeId, code }),
      401,
      'INVALID_CODE',
    );
    const again = await reauthenticate(tenant, token, { loginMode: 'OTP_EMAIL' });
    expectProblem(
      await reauthenticate(tenant, token, { challengeId: again.body.challengeId, code }),
      429,
      'TOO_MANY_ATTEMPTS',
    );
  });
});
