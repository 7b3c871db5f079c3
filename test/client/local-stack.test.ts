import { describe, expect, it, vi } from 'vitest';
import { aTenantWith, aUser, latestCodeTo, mailsTo } from '#test/support/auth.ts';
import { useLocalStack } from '#test/support/server.ts';
import { type FetchLike, hasRoles, IdentityClient, memoryCookieStore, pageUsers } from '../../client/src/index.ts';

const api = useLocalStack();
const ORIGIN = 'https://shop.example';

/** Node's fetch sends no Origin; discovery wants one, as a browser on the tenant's origin would send. */
const fromOrigin =
  (origin: string): FetchLike =>
  (url, init) =>
    fetch(url, { ...init, headers: { ...init.headers, origin } });

function aClient(options: { onSessionExpired?: () => void } = {}) {
  return new IdentityClient({ baseUrl: api.url, fetch: fromOrigin(ORIGIN), ...options });
}

describe('IdentityClient against the local stack', () => {
  it('discovers the tenant, logs in, reads /users/me, refreshes and logs out', async () => {
    const tenant = await aTenantWith({ origins: [ORIGIN] });
    const user = await aUser(tenant);
    const cookies = memoryCookieStore();
    const client = new IdentityClient({ baseUrl: api.url, fetch: fromOrigin(ORIGIN), cookies });

    const config = await client.discover({ clientId: tenant.publicApiKey, slug: tenant.subdomain });
    expect(config).toMatchObject({
      app: tenant.app,
      mid: tenant.mid,
      publicApiKey: tenant.publicApiKey,
      loginMode: 'PASSWORD',
    });

    const login = await client.login({ email: user.email, password: user.password });
    expect(login).toMatchObject({ user: { id: user.id, email: user.email, status: 'ACTIVE' } });
    expect(client.isAuthenticated()).toBe(true);
    const firstRefreshToken = decodeURIComponent(cookies.get('svc_rt') ?? '');
    expect(firstRefreshToken).toMatch(/^rt2\./);

    expect(await client.me.get()).toMatchObject({ id: user.id, email: user.email });

    const firstAccessToken = client.getAccessToken();
    const refreshed = await client.refresh();
    expect(refreshed.user.id).toBe(user.id);
    expect(client.getAccessToken()).not.toBe(firstAccessToken);
    expect(decodeURIComponent(cookies.get('svc_rt') ?? '')).not.toBe(firstRefreshToken);
    expect(await client.me.update({ firstName: 'Ivy' })).toMatchObject({ firstName: 'Ivy' });

    const lastRefreshToken = decodeURIComponent(cookies.get('svc_rt') ?? '');
    await client.logout();
    expect(client.isAuthenticated()).toBe(false);
    expect(cookies.get('svc_rt')).toBeUndefined();

    // The service ended the session too: its refresh token is refused.
    const replay = await fetch(`${api.url}/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': tenant.app, 'x-mid-key': tenant.mid },
      body: JSON.stringify({ refreshToken: lastRefreshToken }),
    });
    expect(replay.status).toBe(401);
  });

  it('finishes an e-mail code login with verifyLogin', async () => {
    const tenant = await aTenantWith({ origins: [ORIGIN], loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant);
    const client = aClient();
    await client.discover({ clientId: tenant.publicApiKey });
    const challenge = await client.login({ email: user.email });
    expect(challenge).toMatchObject({ challengeRequired: true, challengeType: 'OTP_EMAIL' });
    if (!('challengeRequired' in challenge)) throw new Error('expected a challenge');
    const code = await latestCodeTo(api.stack.sesUrl, user.email);
    expect(await client.verifyLogin({ challengeId: challenge.challengeId, code })).toMatchObject({
      user: { id: user.id },
    });
    expect(client.isAuthenticated()).toBe(true);
  });

  it('turns problem details into ApiError, and a wrong password is final (no refresh)', async () => {
    const tenant = await aTenantWith({ origins: [ORIGIN] });
    const user = await aUser(tenant);
    const client = aClient();
    await client.discover({ clientId: tenant.publicApiKey });
    await expect(client.login({ email: user.email, password: 'Wrong-pass-1' })).rejects.toMatchObject({
      name: 'ApiError',
      status: 401,
      code: 'INVALID_CREDENTIALS',
    });
    await client.login({ email: user.email, password: user.password });
    const error = await client.me
      .changePassword({ currentPassword: user.password, newPassword: 'no-digits-here' })
      .catch((e) => e);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(error.errors.map((e: { path: string }) => e.path)).toContain('newPassword');
  });

  it('reauthenticate(): the password answers 204, a wrong one rejects INVALID_CREDENTIALS without a refresh; the e-mail code variant in an OTP tenant', async () => {
    const tenant = await aTenantWith({ origins: [ORIGIN] });
    const user = await aUser(tenant);
    const client = aClient();
    await client.discover({ clientId: tenant.publicApiKey });
    await client.login({ email: user.email, password: user.password });
    const token = client.getAccessToken();
    await expect(client.reauthenticate({ password: user.password })).resolves.toBeUndefined();
    await expect(client.reauthenticate({ password: 'Wrong-pass-1' })).rejects.toMatchObject({
      status: 401,
      code: 'INVALID_CREDENTIALS',
    });
    expect(client.getAccessToken()).toBe(token);

    const otp = await aTenantWith({ origins: [ORIGIN], loginMode: 'OTP_EMAIL' });
    const otpUser = await aUser(otp);
    const otpClient = aClient();
    await otpClient.discover({ clientId: otp.publicApiKey });
    const challenge = await otpClient.login({ email: otpUser.email });
    if (!('challengeRequired' in challenge)) throw new Error('expected a challenge');
    await otpClient.verifyLogin({
      challengeId: challenge.challengeId,
      code: await latestCodeTo(api.stack.sesUrl, otpUser.email),
    });
    const { challengeId } = await otpClient.reauthenticate({ loginMode: 'OTP_EMAIL' });
    const code = await latestCodeTo(api.stack.sesUrl, otpUser.email);
    await expect(otpClient.reauthenticate({ challengeId, code })).resolves.toBeUndefined();
  });

  it('a revoked session: the 401 triggers one refresh, which is refused; the call rejects and the session-expired signal fires once', async () => {
    const tenant = await aTenantWith({ origins: [ORIGIN] });
    const user = await aUser(tenant);
    const expired = vi.fn();
    const client = aClient({ onSessionExpired: expired });
    await client.discover({ clientId: tenant.publicApiKey });
    await client.login({ email: user.email, password: user.password });

    const elsewhere = aClient();
    await elsewhere.discover({ clientId: tenant.publicApiKey });
    await elsewhere.login({ email: user.email, password: user.password });
    await elsewhere.me.sessions.revokeAll();

    const results = await Promise.allSettled([client.me.get(), client.me.sessions.list(), client.me.get()]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(results[0]?.status === 'rejected' && results[0].reason).toMatchObject({ status: 401 });
    expect(expired).toHaveBeenCalledTimes(1);
    expect(client.isAuthenticated()).toBe(false);
  });

  it('an admin lists the users, pages them locally and holds SUPER_ADMIN', async () => {
    const tenant = await aTenantWith({ origins: [ORIGIN] });
    await Promise.all(Array.from({ length: 3 }, () => aUser(tenant)));
    const client = aClient();
    await client.discover({ clientId: tenant.publicApiKey });
    const login = await client.login({ email: tenant.adminEmail, password: tenant.adminPassword });
    if (!('user' in login)) throw new Error('expected tokens');
    expect(hasRoles(login.user, ['SUPER_ADMIN'])).toBe(true);
    expect(hasRoles(login.user, ['SUPER_ADMIN', 'NO_SUCH_ROLE'])).toBe(false);

    const users = await client.admin.users.list();
    expect(pageUsers(users, { page: 1 })).toMatchObject({ total: 4, pageCount: 1 });
    expect(pageUsers(users, { page: 1, filter: tenant.adminEmail.toUpperCase() }).items.map((u) => u.email)).toEqual([
      tenant.adminEmail,
    ]);
    const roles = await client.admin.roles.list();
    expect(roles.map((r) => r.name)).toEqual(expect.arrayContaining(['SUPER_ADMIN', 'ADMIN', 'USER', 'DEFAULT']));
    const merchant = await client.admin.merchant.get();
    expect(merchant).toMatchObject({ app: tenant.app, allowedOrigins: [ORIGIN] });
  });

  it("an invitation: the admin invites, the link's token looks it up, signup accepts it; looked up again: 404", async () => {
    const tenant = await aTenantWith({ origins: [ORIGIN], signupMode: 'INVITATION_ONLY' });
    const admin = aClient();
    await admin.discover({ clientId: tenant.publicApiKey });
    await admin.login({ email: tenant.adminEmail, password: tenant.adminPassword });
    const email = `invited-${Date.now().toString(36)}@shop.test`;
    await admin.admin.users.invite({ email, firstName: 'Ivy' });
    const token = /invitationToken=([A-Za-z0-9_-]+)/.exec(
      (await mailsTo(api.stack.sesUrl, email))[0]?.body.text ?? '',
    )?.[1];

    const invitee = aClient();
    await invitee.discover({ clientId: tenant.publicApiKey });
    const invitation = await invitee.lookupInvitation(token ?? '');
    expect(invitation).toMatchObject({ email, firstName: 'Ivy', lastName: null, inviterName: null });
    expect(
      await invitee.signup({
        email: invitation.email,
        firstName: 'Ivy',
        lastName: 'Vine',
        password: 'Climbing-ivy-77',
        invitationToken: token,
      }),
    ).toBeNull();
    await expect(invitee.lookupInvitation(token ?? '')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
