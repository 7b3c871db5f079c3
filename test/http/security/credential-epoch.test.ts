import { describe, expect, it } from 'vitest';
import { adminApi } from '#test/support/admin.ts';
import { aTenantWith, aUser, type TestTenant } from '#test/support/auth.ts';
import { bearer, expectProblem, identityApi, post, type Tokens } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

/**
 * The credential epoch (docs/security.md#sessions-and-the-credential-epoch)
 * through the local stack: a login in flight when
 * the password changes keeps no session, disabling ends every session for
 * good, and a user has at most 50 live sessions (the oldest ends).
 */

const api = useLocalStack();
const { call, login, logIn } = identityApi(() => api.url);
const { aSuperAdmin } = adminApi(() => api.url);

const getMe = (tenant: TestTenant, token: string) => call('GET', '/users/me', bearer(tenant, token));
const refresh = (tenant: TestTenant, refreshToken: string) =>
  post(`${api.url}/auth/refresh`, { refreshToken }, tenant.headers);

/** The session of these tokens is over: its access token answers 401 SESSION_REVOKED, its refresh token is refused. */
async function expectEnded(tenant: TestTenant, tokens: Tokens) {
  expectProblem(await getMe(tenant, tokens.accessToken), 401, 'SESSION_REVOKED');
  expectProblem(await refresh(tenant, tokens.refreshToken), 401, 'REFRESH_TOKEN_INVALID');
}

describe('logins with the old password racing a password change', () => {
  it('leave no live session once the change has answered: each one either failed or is ended', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const owner = await logIn(tenant, user.email, user.password);
    const intruder = await logIn(tenant, user.email, user.password);
    // The attack: logins with the old password keep starting while the owner changes it. Four: the account's window
    // holds five password checks in flight, and the owner's proof of the current password takes one; a fifth login
    // in flight would take its place and the change would answer 429 TOO_MANY_ATTEMPTS, as designed (on a slow
    // machine the logins are all still in flight when the change starts).
    const attempts: Promise<Awaited<ReturnType<typeof login>>>[] = [];
    const attacker = (async () => {
      for (let i = 0; i < 4; i++) {
        attempts.push(login(tenant, user.email, user.password));
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 60));
    const change = await post(
      `${api.url}/users/me/password`,
      { currentPassword: user.password, newPassword: 'Bird-nest-fern-77' },
      bearer(tenant, owner.accessToken),
    );
    expect(change.status).toBe(204);
    await attacker;
    const answers = await Promise.all(attempts);
    await expectEnded(tenant, intruder);
    for (const answer of answers) {
      if (answer.status === 200) await expectEnded(tenant, answer.body.data);
      else expectProblem(answer, 401, 'INVALID_CREDENTIALS');
    }
    // The owner's session goes on.
    expect((await getMe(tenant, owner.accessToken)).status).toBe(200);
    const sessions = await call('GET', '/users/me/sessions', bearer(tenant, owner.accessToken));
    expect(sessions.body).toHaveLength(1);
  });
});

describe('PATCH /users/{id}/status', () => {
  it('ends every session on DISABLED, and ACTIVE again brings none back', async () => {
    const owner = await aSuperAdmin();
    const user = await aUser(owner.tenant);
    const before = await logIn(owner.tenant, user.email, user.password);
    const setStatus = (status: string) => call('PATCH', `/users/${user.id}/status`, owner.headers, { status });
    expect((await setStatus('DISABLED')).status).toBe(200);
    await expectEnded(owner.tenant, before);
    expect((await setStatus('ACTIVE')).status).toBe(200);
    await expectEnded(owner.tenant, before);
    // A new login is a new session.
    expect((await getMe(owner.tenant, (await logIn(owner.tenant, user.email, user.password)).accessToken)).status).toBe(
      200,
    );
  });
});

describe('at most 50 live sessions per user', () => {
  it('ends the oldest when a 51st starts: its token 401 SESSION_REVOKED, its refresh refused; 50 listed', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const sessions: Tokens[] = [];
    // One after the other: "oldest" is well defined.
    for (let i = 0; i < 51; i++) sessions.push(await logIn(tenant, user.email, user.password));
    const [oldest, second, ...rest] = sessions as [Tokens, Tokens, ...Tokens[]];
    await expectEnded(tenant, oldest);
    for (const tokens of [second, ...rest]) expect((await getMe(tenant, tokens.accessToken)).status).toBe(200);
    expect((await refresh(tenant, second.refreshToken)).status).toBe(200);
    const listed = await call('GET', '/users/me/sessions', bearer(tenant, sessions[50]?.accessToken as string));
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(50);
  });
});
