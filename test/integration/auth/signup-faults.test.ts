import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { forgotPassword } from '#shared/auth/forgot-password.ts';
import { verifyPassword } from '#shared/auth/passwords.ts';
import { resetPassword } from '#shared/auth/reset-password.ts';
import { signup } from '#shared/auth/signup.ts';
import { verifySignup } from '#shared/auth/signup-verify.ts';
import type { Deps } from '#shared/deps.ts';
import { fail } from '#shared/errors.ts';
import type { MailMessage } from '#shared/mail/message.ts';
import type { Challenge } from '#shared/store/challenge-repo.ts';
import { challengeRepo } from '#shared/store/challenge-repo.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import type { User } from '#shared/users/types.ts';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { depsWatchingStore, putItemsOf } from '#test/support/store-spy.ts';

const client = { ip: '203.0.113.7', userAgent: 'vitest', language: 'en' as const };
let counter = 0;
const anEmail = (name = 'moss') => `${name}-${process.pid}-${Date.now().toString(36)}-${++counter}@shop.test`;
const PASSWORD = 'Monstera-42-leaf';

/**
 * Deps whose mailer either fails as the SES mailer does when SES is down (503)
 * or keeps what it sends; they record the challenges and users made, and errors logged.
 *
 * Sign-up and forgot-password mail only real accounts, so a failed send must
 * answer what a sent one does (docs/security.md#mail-failures: mail failures never
 * reveal accounts); what the unsent mail held is taken back all the same.
 */
function depsWith(mail: 'failing' | 'working', laterByMs = 0) {
  const base = makeTestDeps({ clock: { now: () => new Date(Date.now() + laterByMs) } });
  const sent: { to: string; message: MailMessage }[] = [];
  const challenges: Challenge[] = [];
  const users: User[] = [];
  const errorsLogged: string[] = [];
  /** The operator's counters the request added (shared/metrics.ts). */
  const counted: string[] = [];
  const deps: Deps = {
    ...base,
    log: { info: () => {}, error: (message) => errorsLogged.push(message) },
    signals: { count: (counter) => counted.push(counter), mailFailed: () => {}, user: () => {} },
    mailer: {
      send: async (_tenant, to, message) => {
        if (mail === 'failing') throw fail('UNAVAILABLE', { headers: { 'retry-after': '5' } });
        sent.push({ to, message });
      },
    },
  };
  // The challenges and users the request writes (a new user's challenge goes in the transaction that makes the user).
  const watched = depsWatchingStore(deps, {
    before: (command) => {
      for (const item of putItemsOf(command)) {
        if (item.entity === 'CHALLENGE') challenges.push(item as unknown as Challenge);
        if (item.entity === 'USER') users.push(item as unknown as User);
      }
    },
  });
  return { deps: watched, sent, challenges, users, errorsLogged, counted };
}

async function aMerchant(options: Parameters<typeof aTenantWith>[0] = {}): Promise<Merchant> {
  const created = await aTenantWith(options);
  const merchant = await merchantRepo(makeTestDeps().store).get(created);
  if (!merchant) throw new Error('tenant not created');
  return merchant;
}

const signupBody = (tenant: Merchant, email: string, password = PASSWORD) => ({
  app: tenant.app,
  mid: tenant.mid,
  email,
  password,
  firstName: 'Moss',
  lastName: 'Stone',
});

const codeOf = (message: MailMessage | undefined) => (message && 'code' in message ? message.code : '');

async function profilesWithEmail(deps: Deps, tenant: Merchant, email: string) {
  const { Items = [] } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `T#${tenant.app}#${tenant.mid}#USERS` },
    }),
  );
  return Items.filter((item) => item.email === email);
}

describe('signup when the mail cannot be sent', () => {
  it('answers as if sent, logs it, and leaves no user, e-mail claim or challenge behind', async () => {
    const tenant = await aMerchant();
    const email = anEmail();
    const down = depsWith('failing');

    expect(await signup(down.deps, tenant, signupBody(tenant, email), client)).toEqual({
      challengeId: down.challenges[0]?.id,
    });
    expect(down.errorsLogged).toEqual(['mail not sent; answered as sent']);

    expect(down.users).toHaveLength(1);
    expect(down.challenges).toHaveLength(1);
    expect(await userRepo(down.deps.store).findByEmail(tenant, email, down.deps.clock.now())).toBeNull();
    expect(await userRepo(down.deps.store).get(tenant, (down.users[0] as User).id)).toBeNull();
    expect(await profilesWithEmail(down.deps, tenant, email)).toEqual([]);
    expect(await challengeRepo(down.deps.store).get(tenant, (down.challenges[0] as Challenge).id)).toBeNull();
    // Taken back: not a sign-up to the operator's Signups metric.
    expect(down.counted).toEqual([]);
  });

  it('lets a later signup with the same e-mail create the user, and its code activate it', async () => {
    const tenant = await aMerchant();
    const email = anEmail();
    await signup(depsWith('failing').deps, tenant, signupBody(tenant, email), client);

    const up = depsWith('working');
    const answer = await signup(up.deps, tenant, signupBody(tenant, email), client);
    expect(answer).toEqual({ challengeId: expect.any(String) });
    expect(up.users).toHaveLength(1);
    const user = await userRepo(up.deps.store).findByEmail(tenant, email, up.deps.clock.now());
    expect(user).toMatchObject({ id: up.users[0]?.id, status: 'INACTIVE' });
    expect(up.sent).toEqual([{ to: email, message: { kind: 'SIGNUP_CODE', code: expect.stringMatching(/^\d{6}$/) } }]);
    expect(up.counted).toEqual(['Signups']);

    const tokens = await verifySignup(
      up.deps,
      tenant,
      { challengeId: answer?.challengeId as string, code: codeOf(up.sent[0]?.message) },
      client,
    );
    expect(tokens.user).toMatchObject({ id: user?.id, status: 'ACTIVE', emailStatus: 'VALIDATED' });
    expect(up.counted).toEqual(['Signups', 'SessionsStarted', 'SignupsVerified']);
  });

  it('keeps an INACTIVE user and the code already mailed when a repeated signup cannot mail a fresh one', async () => {
    const tenant = await aMerchant();
    const email = anEmail();
    const up = depsWith('working');
    const first = await signup(up.deps, tenant, signupBody(tenant, email), client);

    const pending = await userRepo(up.deps.store).findByEmail(tenant, email, up.deps.clock.now());
    // Past the minute of the first code, so that the mail limit lets the second through to the failing mail.
    const down = depsWith('failing', 61_000);
    expect(await signup(down.deps, tenant, signupBody(tenant, email, 'Second-22-pass'), client)).toEqual({
      challengeId: down.challenges.at(-1)?.id,
    });
    expect(await challengeRepo(down.deps.store).get(tenant, (down.challenges.at(-1) as Challenge).id)).toBeNull();
    // Unchanged, the lapse of the code that did go out included: no new code is said to be out.
    expect(await userRepo(up.deps.store).findByEmail(tenant, email, up.deps.clock.now())).toEqual(pending);

    const tokens = await verifySignup(
      up.deps,
      tenant,
      { challengeId: first?.challengeId as string, code: codeOf(up.sent[0]?.message) },
      client,
    );
    expect(tokens.user.status).toBe('ACTIVE');
  });

  it('removes the decoy challenge and leaves the account as it was when the owner notice cannot be sent', async () => {
    const tenant = await aMerchant();
    const owner = await aUser(tenant);
    const before = await userRepo(makeTestDeps().store).findByEmail(tenant, owner.email, new Date());
    const down = depsWith('failing');

    expect(await signup(down.deps, tenant, signupBody(tenant, owner.email, 'Second-22-pass'), client)).toEqual({
      challengeId: down.challenges.at(-1)?.id,
    });

    // The first is the one that went with the user that was not made (the address is taken).
    expect(down.challenges).toHaveLength(2);
    expect(await challengeRepo(down.deps.store).get(tenant, (down.challenges.at(-1) as Challenge).id)).toBeNull();
    expect(await userRepo(down.deps.store).findByEmail(tenant, owner.email, down.deps.clock.now())).toEqual(before);
  });
});

describe('forgotPassword when the mail cannot be sent', () => {
  it('answers as if sent (as for an unknown e-mail), logs it, and deletes the challenge', async () => {
    const tenant = await aMerchant();
    const user = await aUser(tenant);
    const down = depsWith('failing');

    expect(await forgotPassword(down.deps, tenant, user.email, client)).toEqual({
      challengeId: down.challenges[0]?.id,
    });
    expect(down.errorsLogged).toEqual(['mail not sent; answered as sent']);

    expect(down.challenges).toHaveLength(1);
    expect(down.challenges[0]).toMatchObject({ type: 'PASSWORD_RESET', userId: user.id });
    expect(await challengeRepo(down.deps.store).get(tenant, (down.challenges[0] as Challenge).id)).toBeNull();
  });
});

describe('resetPassword when the notice cannot be sent', () => {
  it('keeps the reset: the notice is a courtesy', async () => {
    const tenant = await aMerchant();
    const user = await aUser(tenant);
    const up = depsWith('working');
    const { challengeId } = await forgotPassword(up.deps, tenant, user.email, client);

    const down = depsWith('failing');
    await expect(
      resetPassword(
        down.deps,
        tenant,
        { challengeId, code: codeOf(up.sent[0]?.message), newPassword: 'Philodendron-7-vine' },
        client,
      ),
    ).resolves.toBeUndefined();
    const hash = (await userRepo(down.deps.store).get(tenant, user.id))?.passwordHash as string;
    expect(await verifyPassword(hash, 'Philodendron-7-vine')).toBe(true);
    expect(await verifyPassword(hash, user.password)).toBe(false);
    expect(down.errorsLogged).toEqual(['reset notice not sent']);
  });
});
