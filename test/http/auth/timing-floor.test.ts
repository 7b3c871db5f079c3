import { describe, expect, it } from 'vitest';
import { createInvitation } from '#shared/auth/invitations.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import { aTenantWith, aUser, mailsTo } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { bearer, identityApi, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const FLOOR_MS = 300;
const api = useLocalStack({ answerFloorMs: FLOOR_MS });
const { logIn } = identityApi(() => api.url);

/** Lower bounds only: a floor holds on any machine, however slow (no upper bound is asserted). */
async function timed(run: () => Promise<{ status: number; body?: any }>) {
  const started = performance.now();
  const res = await run();
  return { status: res.status, code: res.body?.code, ms: performance.now() - started };
}

const nobody = () => `nobody-${Date.now()}-${Math.random().toString(36).slice(2)}@shop.test`;

describe('answers that could tell a known address from an unknown one take at least the answer floor', () => {
  it('e-mail-code login and forgot-password answer no sooner than the floor for both', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant);
    for (const email of [user.email, nobody()]) {
      const login = await timed(() => post(`${api.url}/auth/login`, { email }, tenant.headers));
      expect(login.status).toBe(200);
      expect(login.ms).toBeGreaterThanOrEqual(FLOOR_MS);
      const forgot = await timed(() => post(`${api.url}/auth/forgot-password`, { email }, tenant.headers));
      expect(forgot.status).toBe(202);
      expect(forgot.ms).toBeGreaterThanOrEqual(FLOOR_MS);
    }
  });

  it('sign-up answers no sooner than the floor, for a new address and a registered one', async () => {
    const tenant = await aTenantWith({ signupMode: 'OPEN' });
    const user = await aUser(tenant);
    for (const email of [user.email, nobody()]) {
      const body = {
        app: tenant.app,
        mid: tenant.mid,
        email,
        password: 'Probe-pass-1234',
        firstName: 'P',
        lastName: 'R',
      };
      const signup = await timed(() => post(`${api.url}/auth/signup`, body, tenant.headers));
      expect(signup.status, email).toBe(201);
      expect(signup.ms).toBeGreaterThanOrEqual(FLOOR_MS);
    }
  });

  it('in German too (Accept-Language: de-DE): a sign-up and the code requests answer no sooner than the floor', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL', signupMode: 'OPEN' });
    const user = await aUser(tenant);
    const headers = { ...tenant.headers, 'accept-language': 'de-DE,de;q=0.9' };
    for (const email of [user.email, nobody()]) {
      const body = { app: tenant.app, mid: tenant.mid, email, firstName: 'P', lastName: 'R' };
      for (const [path, status, sent] of [
        ['/auth/login', 200, { email }],
        ['/auth/forgot-password', 202, { email }],
        ['/auth/signup', 201, body],
      ] as const) {
        const answer = await timed(() => post(`${api.url}${path}`, sent, headers));
        expect(answer.status, `${path} ${email}`).toBe(status);
        expect(answer.ms, `${path} ${email}`).toBeGreaterThanOrEqual(FLOOR_MS);
      }
    }
    // The known address got its three mails (sign-in code, reset code, "already registered"), all in German.
    const mails = await mailsTo(api.stack.sesUrl, user.email);
    expect(mails.map((mail) => /<html lang="(\w+)">/.exec(mail.body.html)?.[1])).toEqual(['de', 'de', 'de']);
  });

  it('every refused password login answers no sooner than the floor: unknown, wrong password, the lock engaging, locked', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const login = (email: string, password: string) =>
      timed(() => post(`${api.url}/auth/login`, { email, password }, tenant.headers));
    for (const email of [user.email, nobody()]) {
      // Four wrong passwords, then the fifth (which engages the lock), then a sixth (refused as locked).
      const answers = [];
      for (let attempt = 0; attempt < 6; attempt++) answers.push(await login(email, `Wrong-guess-${attempt}-zz`));
      expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 429]);
      for (const answer of answers)
        expect(answer.ms, `${answer.status} ${answer.code}`).toBeGreaterThanOrEqual(FLOOR_MS);
    }
  });

  it('a refused reauthentication answers no sooner than the floor, with a password on the account or none', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' });
    const withPassword = await aUser(tenant);
    const withoutPassword = await aUser(tenant);
    const withToken = await logIn(tenant, withPassword.email, withPassword.password);
    const withoutToken = await logIn(tenant, withoutPassword.email, withoutPassword.password);
    // An e-mail-code account: its password is gone (as for one that signed up without one).
    await userRepo(makeTestDeps().store).update(tenant, withoutPassword.id, { passwordHash: null });
    for (const token of [withToken.accessToken, withoutToken.accessToken]) {
      const refused = await timed(() =>
        post(`${api.url}/auth/reauthenticate`, { password: 'Wrong-guess-zz-1' }, bearer(tenant, token)),
      );
      expect(refused.status).toBe(401);
      expect(refused.ms).toBeGreaterThanOrEqual(FLOOR_MS);
    }
  });

  it('every refused invitation lookup answers no sooner than the floor: unknown, expired, used, withdrawn', async () => {
    const tenant = await aTenantWith({ signupMode: 'INVITATION_ONLY' });
    const deps = makeTestDeps();
    const past = makeTestDeps({ clock: { now: () => new Date(Date.now() - 8 * 86_400_000) } });
    const invitation = async (by = deps) => {
      const email = nobody();
      return { email, ...(await createInvitation(by, tenant, { email, invitedBy: tenant.adminUserId })) };
    };
    const expired = await invitation(past);
    const used = await invitation();
    const accepted = await post(
      `${api.url}/auth/signup`,
      {
        app: tenant.app,
        mid: tenant.mid,
        email: used.email,
        firstName: 'U',
        lastName: 'S',
        invitationToken: used.invitationToken,
        password: 'Probe-pass-1234',
      },
      tenant.headers,
    );
    expect(accepted.status).toBe(201);
    // Withdrawn: the invited user is gone from the invitation's reach (deleted, or no longer INVITED).
    const withdrawn = await invitation();
    await userRepo(deps.store).update(tenant, withdrawn.userId, { status: 'DISABLED' });
    for (const token of ['inv_unknown', expired.invitationToken, used.invitationToken, withdrawn.invitationToken]) {
      const res = await timed(() =>
        post(`${api.url}/auth/invitations/lookup`, { invitationToken: token }, tenant.headers),
      );
      expect(res.status).toBe(404);
      expect(res.ms).toBeGreaterThanOrEqual(FLOOR_MS);
    }
  });
});
