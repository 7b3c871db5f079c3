import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { changePassword } from '#shared/account/change-password.ts';
import { setUserStatus } from '#shared/admin/users.ts';
import { authenticateBearer } from '#shared/auth/authenticate.ts';
import { forgotPassword } from '#shared/auth/forgot-password.ts';
import type { LoginResult } from '#shared/auth/issue-tokens.ts';
import { login } from '#shared/auth/login.ts';
import { verifyLogin } from '#shared/auth/login-verify.ts';
import type { UserPrincipal } from '#shared/auth/principal.ts';
import { refresh } from '#shared/auth/refresh.ts';
import { resetPassword } from '#shared/auth/reset-password.ts';
import { beginSession, startSession } from '#shared/auth/session-start.ts';
import { totpCodeAt } from '#shared/auth/totp.ts';
import type { Deps } from '#shared/deps.ts';
import { listMySessions } from '#shared/sessions/list-sessions.ts';
import { revokeAllMySessions } from '#shared/sessions/revoke-sessions.ts';
import { activityRepo } from '#shared/store/activity-repo.ts';
import { keys } from '#shared/store/keys.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { MAX_CLIENT_SESSIONS, MAX_LIVE_SESSIONS } from '#shared/store/session-cap.ts';
import { sessionRepo } from '#shared/store/session-repo.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { aTenantWith, aUser, type TestUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { depsWatchingStore } from '#test/support/store-spy.ts';

/**
 * The credential epoch: a password change or reset,
 * DISABLED/COMPROMISED and revoke-all end every session in one write, logins
 * in flight included; at most 50 live sessions per user.
 *
 * The races are made deterministic by running the real login code with a
 * profile read that lets the competing change happen right after it: the
 * login then checks the old password against the hash it read, and its
 * session transaction is the one thing that can still refuse it.
 */

let ip = 0;
const aClient = () => ({ ip: `198.51.100.${(++ip % 250) + 1}`, userAgent: 'vitest', language: 'en' as const });
const noMail = { send: async () => {} };
const deps = makeTestDeps({ mailer: noMail });

let tenant: Merchant;
let admin: UserPrincipal;
beforeAll(async () => {
  const created = await aTenantWith({}, deps);
  tenant = (await merchantRepo(deps.store).get(created)) as Merchant;
  const signedIn = (await login(
    deps,
    tenant,
    { email: created.adminEmail, password: created.adminPassword },
    aClient(),
  )) as LoginResult;
  admin = await principalOf(signedIn);
});

const logIn = async (user: TestUser, with_: Deps = deps) =>
  (await login(with_, tenant, { email: user.email, password: user.password }, aClient())) as LoginResult;

const principalOf = async (tokens: LoginResult) => {
  const principal = await authenticateBearer(deps, tokens.accessToken, tenant);
  if (!principal) throw new Error('no principal');
  return principal;
};

/**
 * Deps whose profile read by e-mail (login's read, before the password check: the address's claim, then the profile)
 * lets `meanwhile` happen right after it.
 */
function depsWhereAfterTheRead(meanwhile: () => Promise<unknown>): Deps {
  let claimRead = false;
  return depsWatchingStore(deps, {
    after: async (command) => {
      if (command.name !== 'GetCommand') return;
      const sk = command.input.Key?.sk;
      if (sk === 'EMAIL') claimRead = true;
      else if (sk === 'PROFILE' && claimRead) {
        claimRead = false;
        await meanwhile();
      }
    },
  });
}

/** The session's access token answers 401 SESSION_REVOKED and its refresh token is refused. */
async function expectDead(tokens: LoginResult) {
  await expect(authenticateBearer(deps, tokens.accessToken, tenant)).rejects.toMatchObject({
    code: 'SESSION_REVOKED',
  });
  await expect(refresh(deps, tenant, tokens.refreshToken, aClient())).rejects.toMatchObject({
    code: 'REFRESH_TOKEN_INVALID',
  });
}

async function expectLive(tokens: LoginResult) {
  expect(await authenticateBearer(deps, tokens.accessToken, tenant)).toMatchObject({ kind: 'user' });
}

const liveSessionIds = async (userId: string) => {
  const user = await userRepo(deps.store).get(tenant, userId);
  return (await sessionRepo(deps.store).listLive(tenant, userId, new Date(), user?.credentialEpoch ?? 0)).map(
    (s) => s.id,
  );
};
const sessionIdOf = (tokens: LoginResult) => tokens.refreshToken.split('.')[2] as string;

const NEW_PASSWORD = 'Staghorn-fern-2025';

describe('a password change', () => {
  it('refuses a login that read the profile before the change and commits after it: 401 INVALID_CREDENTIALS, no session', async () => {
    const user = await aUser(tenant, {}, deps);
    const owner = await logIn(user);
    const ownerPrincipal = await principalOf(owner);
    const racing = depsWhereAfterTheRead(() =>
      changePassword(
        deps,
        tenant,
        ownerPrincipal,
        { currentPassword: user.password, newPassword: NEW_PASSWORD },
        aClient(),
      ),
    );
    await expect(logIn(user, racing)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    // The owner's session is the only one left.
    expect(await liveSessionIds(user.id)).toEqual([sessionIdOf(owner)]);
    await expectLive(owner);
  });

  it('ends a password login whose profile write came before the change and its session after: born dead, never live', async () => {
    const user = await aUser(tenant, {}, deps);
    const owner = await logIn(user);
    const ownerPrincipal = await principalOf(owner);
    let changed = false;
    // Right after the login's one profile write (its epoch check and listing), before its session is stored.
    const racing = depsWatchingStore(deps, {
      after: async (command) => {
        if (changed || command.name !== 'UpdateCommand' || command.input.Key?.sk !== 'PROFILE') return;
        changed = true;
        await changePassword(
          deps,
          tenant,
          ownerPrincipal,
          { currentPassword: user.password, newPassword: NEW_PASSWORD },
          aClient(),
        );
      },
    });
    const raced = await logIn(user, racing);
    expect(changed).toBe(true);
    await expectDead(raced);
    expect(await liveSessionIds(user.id)).toEqual([sessionIdOf(owner)]);
    await expectLive(owner);
  });

  it('ends a session started with the old password before the change, keeps the current one (refreshable)', async () => {
    const user = await aUser(tenant, {}, deps);
    const owner = await logIn(user);
    const intruder = await logIn(user);
    await changePassword(
      deps,
      tenant,
      await principalOf(owner),
      { currentPassword: user.password, newPassword: NEW_PASSWORD },
      aClient(),
    );
    await expectDead(intruder);
    await expectLive(owner);
    expect((await refresh(deps, tenant, owner.refreshToken, aClient())).accessToken).toBeTruthy();
    expect(await userRepo(deps.store).get(tenant, user.id)).toMatchObject({
      credentialEpoch: 1,
      liveSessions: { [sessionIdOf(owner)]: expect.any(String) },
    });
  });

  it('answers 401 SESSION_REVOKED to a change whose session a revoke-all ended after the bearer check', async () => {
    const user = await aUser(tenant, {}, deps);
    const owner = await logIn(user);
    const principal = await principalOf(owner);
    await sessionRepo(deps.store).revokeAll(tenant, user.id);
    await expect(
      changePassword(deps, tenant, principal, { currentPassword: user.password, newPassword: NEW_PASSWORD }, aClient()),
    ).rejects.toMatchObject({ code: 'SESSION_REVOKED' });
    expect((await logIn(user)).accessToken).toBeTruthy();
  });

  it('refuses the TOTP step of a login whose password was checked before the change', async () => {
    const user = await aUser(tenant, { totp: true }, deps);
    const first = (await logIn(user)) as unknown as { challengeId: string };
    // The owner changes the password from a session of theirs, proving TOTP with a backup code.
    const fresh = await userRepo(deps.store).get(tenant, user.id);
    if (!fresh) throw new Error('no user');
    const owner = await startSession(deps, tenant, fresh, aClient());
    await changePassword(
      deps,
      tenant,
      await principalOf(owner),
      { currentPassword: user.password, newPassword: NEW_PASSWORD, totpCode: user.backupCodes?.[0] as string },
      aClient(),
    );
    const code = totpCodeAt(user.totpSecret as string, new Date());
    await expect(verifyLogin(deps, tenant, { challengeId: first.challengeId, code }, aClient())).rejects.toMatchObject({
      code: 'INVALID_CODE',
    });
    expect(await liveSessionIds(user.id)).toEqual([sessionIdOf(owner)]);
  });
});

describe('a password reset', () => {
  async function resetCode(user: TestUser) {
    let code = '';
    const mailing = makeTestDeps({
      mailer: {
        send: async (_t, _to, message) => {
          if ('code' in message) code = message.code;
        },
      },
    });
    const { challengeId } = await forgotPassword(mailing, tenant, user.email, aClient());
    return { challengeId, code };
  }

  it('ends every session, and refuses a login that read the profile before it', async () => {
    const user = await aUser(tenant, {}, deps);
    const before = await logIn(user);
    const { challengeId, code } = await resetCode(user);
    const racing = depsWhereAfterTheRead(() =>
      resetPassword(deps, tenant, { challengeId, code, newPassword: NEW_PASSWORD }, aClient()),
    );
    await expect(logIn(user, racing)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    await expectDead(before);
    expect(await liveSessionIds(user.id)).toEqual([]);
  });
});

describe('PATCH /users/{id}/status', () => {
  it.each(['DISABLED', 'COMPROMISED'] as const)(
    '%s ends every session and a login in flight; ACTIVE again brings none back',
    async (status) => {
      const user = await aUser(tenant, {}, deps);
      const before = await logIn(user);
      const racing = depsWhereAfterTheRead(() => setUserStatus(deps, tenant, admin, user.id, status, aClient()));
      await expect(logIn(user, racing)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
      await expectDead(before);
      await setUserStatus(deps, tenant, admin, user.id, 'ACTIVE', aClient());
      await expectDead(before);
      expect(await liveSessionIds(user.id)).toEqual([]);
    },
  );
});

describe('POST /sessions/revoke-all', () => {
  it("ends the caller's sessions, this one too, and a login in flight", async () => {
    const user = await aUser(tenant, {}, deps);
    const here = await logIn(user);
    const there = await logIn(user);
    const principal = await principalOf(here);
    const racing = depsWhereAfterTheRead(() => revokeAllMySessions(deps, tenant, principal, aClient()));
    await expect(logIn(user, racing)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    await expectDead(here);
    await expectDead(there);
    expect(await liveSessionIds(user.id)).toEqual([]);
    // A later login is a new start.
    await expectLive(await logIn(user));
  });
});

describe('revocation cost', () => {
  type Act = (acting: Deps, user: TestUser, current: LoginResult) => Promise<unknown>;

  /**
   * The DynamoDB commands `act` sends with `sessions` live sessions of a fresh user, and the sessions it
   * leaves. Beyond the first (a login), they are stored as before the 50-session limit: more than 50
   * live sessions exist only from then (or from logins racing each other), and are the worst case.
   */
  async function commandsWith(sessions: number, act: Act) {
    const user = await aUser(tenant, {}, deps);
    const current = await logIn(user);
    const stored = await sessionRepo(deps.store).get(tenant, user.id, sessionIdOf(current));
    for (let i = 1; i < sessions; i++) {
      const id = `ses_${String(i).padStart(20, '0')}`;
      await deps.store.doc.send(
        new PutCommand({
          TableName: deps.store.tableName,
          // No epoch (undefined is not marshalled): as sessions were stored before epochs.
          Item: { ...stored, ...keys.session(tenant, user.id, id), entity: 'SESSION', id, epoch: undefined },
        }),
      );
    }
    expect(await liveSessionIds(user.id)).toHaveLength(sessions);
    const acting = makeTestDeps({ mailer: noMail });
    const calls: string[] = [];
    acting.store.doc.middlewareStack.add(
      (next, context) => async (args) => {
        calls.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize', name: 'countCalls' },
    );
    const principal = await principalOf(current);
    calls.length = 0;
    await act(acting, user, { ...current, principal } as LoginResult);
    return { calls, left: (await liveSessionIds(user.id)).length };
  }

  const principalIn = (tokens: LoginResult) =>
    (tokens as LoginResult & { principal: Awaited<ReturnType<typeof principalOf>> }).principal;

  it.each<[string, Act, number]>([
    ['revoke-all', (acting, _user, current) => revokeAllMySessions(acting, tenant, principalIn(current), aClient()), 0],
    [
      'password change',
      (acting, user, current) =>
        changePassword(
          acting,
          tenant,
          principalIn(current),
          { currentPassword: user.password, newPassword: NEW_PASSWORD },
          aClient(),
        ),
      1,
    ],
    ['DISABLED', (acting, user) => setUserStatus(acting, tenant, admin, user.id, 'DISABLED', aClient()), 0],
  ])('%s sends the same DynamoDB commands with 60 sessions as with 1', async (_name, act, kept) => {
    const one = await commandsWith(1, act);
    const sixty = await commandsWith(60, act);
    expect([one.left, sixty.left]).toEqual([kept, kept]);
    expect(sixty.calls).toEqual(one.calls);
    // Ending the sessions is a single write: no Query of the sessions, no write per session.
    expect(sixty.calls).not.toContain('QueryCommand');
  });
});

describe('at most 50 live sessions', () => {
  it('ends the oldest when a 51st starts: its token 401, its refresh refused; 50 live and listed', async () => {
    // A second apart, the last a few seconds ago: every access token is still within its 15 minutes.
    let now = Date.now() - 60_000;
    const clocked = makeTestDeps({ mailer: noMail, clock: { now: () => new Date(now) } });
    const user = await aUser(tenant, {}, deps);
    const sessions: LoginResult[] = [];
    for (let i = 0; i <= MAX_LIVE_SESSIONS; i++) {
      now += 1000;
      const read = await userRepo(clocked.store).get(tenant, user.id);
      if (!read) throw new Error('no user');
      sessions.push(await startSession(clocked, tenant, read, aClient()));
    }
    const [oldest, ...others] = sessions;
    await expectDead(oldest as LoginResult);
    for (const tokens of others) await expectLive(tokens);
    expect(others).toHaveLength(MAX_LIVE_SESSIONS);
    expect(await liveSessionIds(user.id)).toHaveLength(MAX_LIVE_SESSIONS);
    const listed = await listMySessions(deps, tenant, await principalOf(others.at(-1) as LoginResult));
    expect(listed).toHaveLength(MAX_LIVE_SESSIONS);
    expect(listed.map((s) => s.id)).not.toContain(sessionIdOf(oldest as LoginResult));
    const profile = await userRepo(deps.store).get(tenant, user.id);
    expect(Object.keys(profile?.liveSessions ?? {}).sort()).toEqual(others.map(sessionIdOf).sort());
    // The user's activity says a session ended (once): the 51st login's.
    const activity = await activityRepo(deps.store).page(tenant, user.id, 100, null, new Date());
    expect(activity.items.filter((a) => a.type === 'SESSION_REVOKED')).toHaveLength(1);
  });

  it("caps an OpenID client's sessions at 10 per user, and fifty of them end none of the user's other sessions", async () => {
    let now = Date.now() - 120_000;
    const clocked = makeTestDeps({ mailer: noMail, clock: { now: () => new Date(now) } });
    const user = await aUser(tenant, {}, deps);
    const read = async () => {
      const found = await userRepo(clocked.store).get(tenant, user.id);
      if (!found) throw new Error('no user');
      return found;
    };
    // The user's own session (hosted pages, or an app through the API), then fifty sign-ins through one client.
    const own = await startSession(clocked, tenant, await read(), aClient());
    const shape = (clientId: string) => ({
      clientId,
      clientName: 'Greenhouse',
      refreshTtlMs: 7 * 86_400_000,
      authenticatedAt: new Date(now).toISOString(),
      scopes: ['openid'],
    });
    const signInThrough = async (clientId: string) => {
      now += 1000;
      return beginSession(clocked, tenant, await read(), aClient(), {}, shape(clientId), async (session) => session.id);
    };
    const other = await signInThrough('cli_other');
    const sessions: string[] = [];
    for (let i = 0; i < 50; i++) sessions.push(await signInThrough('cli_greenhouse'));

    await expectLive(own);
    const live = await liveSessionIds(user.id);
    expect(live).toContain(sessionIdOf(own));
    expect(live).toContain(other);
    expect(live.filter((id) => sessions.includes(id)).sort()).toEqual(sessions.slice(-MAX_CLIENT_SESSIONS).sort());
  }, 60_000);

  it('forgets listed sessions past their 7 days, and takes a revoked one off the list', async () => {
    let now = Date.now() - 8 * 86_400_000;
    const clocked = makeTestDeps({ mailer: noMail, clock: { now: () => new Date(now) } });
    const user = await aUser(tenant, {}, deps);
    const start = async () => {
      const read = await userRepo(clocked.store).get(tenant, user.id);
      if (!read) throw new Error('no user');
      return startSession(clocked, tenant, read, aClient());
    };
    const old = await start();
    now = Date.now();
    const recent = await start();
    const other = await start();
    expect(Object.keys((await userRepo(deps.store).get(tenant, user.id))?.liveSessions ?? {}).sort()).toEqual(
      [sessionIdOf(recent), sessionIdOf(other)].sort(),
    );
    expect(sessionIdOf(old)).toBeTruthy();
    const { logout } = await import('#shared/auth/logout.ts');
    await logout(deps, tenant, await principalOf(other), aClient());
    expect(Object.keys((await userRepo(deps.store).get(tenant, user.id))?.liveSessions ?? {})).toEqual([
      sessionIdOf(recent),
    ]);
  });
});

describe('data stored before epochs', () => {
  it('keeps a session without an epoch working while the profile has none; one revoke-all ends it', async () => {
    const user = await aUser(tenant, {}, deps);
    const tokens = await logIn(user);
    // As the code before epochs stored them: no epoch on the session, no epoch nor list on the profile.
    await deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.tableName,
        Key: keys.session(tenant, user.id, sessionIdOf(tokens)),
        UpdateExpression: 'REMOVE epoch',
      }),
    );
    await deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.tableName,
        Key: keys.user(tenant, user.id),
        UpdateExpression: 'REMOVE credentialEpoch, liveSessions',
      }),
    );
    await expectLive(tokens);
    const refreshed = await refresh(deps, tenant, tokens.refreshToken, aClient());
    await expectLive(refreshed);
    // A login on such a profile starts its list.
    const next = await logIn(user);
    expect((await userRepo(deps.store).get(tenant, user.id))?.liveSessions).toEqual({
      [sessionIdOf(next)]: expect.any(String),
    });
    await revokeAllMySessions(deps, tenant, await principalOf(next), aClient());
    await expectDead(refreshed);
    await expectDead(next);
  });
});
