import { describe, expect, it } from 'vitest';
import { totpCodeAt } from '#shared/auth/totp.ts';
import { aTenantWith, aUser, type TestTenant, type TestUser } from '#test/support/auth.ts';
import { bearer, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();

async function signedIn(tenant: TestTenant, user: TestUser) {
  const first = await post(`${api.url}/auth/login`, { email: user.email, password: user.password }, tenant.headers);
  const second = await post(
    `${api.url}/auth/login/verify`,
    { challengeId: first.body.data.challengeId, code: totpCodeAt(user.totpSecret ?? '', new Date()) },
    tenant.headers,
  );
  expect(second.status).toBe(200);
  return bearer(tenant, second.body.data.accessToken);
}

/** A six-digit code that is none of the three the window accepts now. */
function wrongCode(secret: string): string {
  const valid = new Set([-30_000, 0, 30_000].map((d) => totpCodeAt(secret, new Date(Date.now() + d))));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

describe('proofs asked of a signed-in user are guarded like logins', () => {
  it('locks the account after 5 wrong TOTP codes at /users/me/totp/disable: the 6th answers 429, even a right one', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { totp: true });
    const headers = await signedIn(tenant, user);
    const secret = user.totpSecret ?? '';
    for (let i = 0; i < 5; i++) {
      const res = await post(`${api.url}/users/me/totp/disable`, { code: wrongCode(secret) }, headers);
      expect([res.status, res.body.code]).toEqual([401, 'INVALID_CODE']);
    }
    const right = totpCodeAt(secret, new Date(Date.now() + 30_000));
    const locked = await post(`${api.url}/users/me/totp/disable`, { code: right }, headers);
    expect([locked.status, locked.body.code]).toEqual([429, 'TOO_MANY_ATTEMPTS']);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // The lock is the account's: password login is refused too.
    const login = await post(`${api.url}/auth/login`, { email: user.email, password: user.password }, tenant.headers);
    expect(login.status).toBe(429);
  });

  it('counts wrong current passwords at /users/me/password against the same lockout', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { totp: true });
    const headers = await signedIn(tenant, user);
    for (let i = 0; i < 5; i++) {
      const res = await post(
        `${api.url}/users/me/password`,
        { currentPassword: `Wrong-${i}-pass9`, newPassword: 'Greenhouse-42x', totpCode: '000000' },
        headers,
      );
      expect([res.status, res.body.code]).toEqual([401, 'INVALID_CREDENTIALS']);
    }
    const sixth = await post(
      `${api.url}/users/me/password`,
      { currentPassword: user.password, newPassword: 'Greenhouse-42x', totpCode: '000000' },
      headers,
    );
    expect([sixth.status, sixth.body.code]).toEqual([429, 'TOO_MANY_ATTEMPTS']);
  });
});
