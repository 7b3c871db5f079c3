import { describe, expect, it } from 'vitest';
import { checkCodeChallenge, liveChallenge, openCodeChallenge } from '#shared/auth/challenges.ts';
import { login } from '#shared/auth/login.ts';
import type { Deps } from '#shared/deps.ts';
import { fail } from '#shared/errors.ts';
import { challengeRepo } from '#shared/store/challenge-repo.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { depsWatchingStore, putItemsOf } from '#test/support/store-spy.ts';

async function tenantOf(deps: Deps, options: Parameters<typeof aTenantWith>[0] = {}) {
  const created = await aTenantWith(options, deps);
  return (await merchantRepo(deps.store).get(created)) as Merchant;
}

describe('e-mail code challenges (DynamoDB Local)', () => {
  it('are single use: of two answers with the right code at once, exactly one passes', async () => {
    const deps = makeTestDeps();
    const tenant = await tenantOf(deps);
    const { challenge, code } = await openCodeChallenge(deps, tenant, {
      type: 'LOGIN_OTP',
      userId: 'usr_x',
      email: 'x@y.test',
    });
    const live = await liveChallenge(deps, tenant, challenge.id, ['LOGIN_OTP']);
    // As the routes answer: the code is checked, then the challenge used up by a conditional write
    // (on its own before a TOTP step, as here, else in the transaction of the change the code allows).
    const answer = async () => {
      const answered = await checkCodeChallenge(deps, tenant, live, code);
      if (!(await challengeRepo(deps.store).consume(tenant, answered.id, deps.clock.now()))) throw fail('INVALID_CODE');
      return answered;
    };
    const results = await Promise.allSettled([answer(), answer()]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    await expect(liveChallenge(deps, tenant, challenge.id, ['LOGIN_OTP'])).rejects.toMatchObject({
      code: 'INVALID_CODE',
    });
  });

  it('store only a hash of the code, and die after 5 wrong answers even if the sixth is right', async () => {
    const deps = makeTestDeps();
    const tenant = await tenantOf(deps);
    const { challenge, code } = await openCodeChallenge(deps, tenant, {
      type: 'SIGNUP',
      userId: 'usr_x',
      email: 'x@y.test',
    });
    const stored = await challengeRepo(deps.store).get(tenant, challenge.id);
    expect(JSON.stringify(stored)).not.toContain(code);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) {
      const live = await liveChallenge(deps, tenant, challenge.id, ['SIGNUP']);
      await expect(checkCodeChallenge(deps, tenant, live, wrong)).rejects.toMatchObject({ code: 'INVALID_CODE' });
    }
    await expect(liveChallenge(deps, tenant, challenge.id, ['SIGNUP'])).rejects.toMatchObject({ code: 'INVALID_CODE' });
  });

  it('expire after 10 minutes', async () => {
    let now = Date.now();
    const deps = makeTestDeps({ clock: { now: () => new Date(now) } });
    const tenant = await tenantOf(deps);
    const { challenge } = await openCodeChallenge(deps, tenant, {
      type: 'LOGIN_OTP',
      userId: 'usr_x',
      email: 'x@y.test',
    });
    now += 9 * 60_000;
    await expect(liveChallenge(deps, tenant, challenge.id, ['LOGIN_OTP'])).resolves.toBeTruthy();
    now += 60_001;
    await expect(liveChallenge(deps, tenant, challenge.id, ['LOGIN_OTP'])).rejects.toMatchObject({
      code: 'INVALID_CODE',
    });
  });

  it('are not interchangeable between purposes: a signup challenge cannot finish a login', async () => {
    const deps = makeTestDeps();
    const tenant = await tenantOf(deps);
    const { challenge } = await openCodeChallenge(deps, tenant, { type: 'SIGNUP', userId: 'usr_x', email: 'x@y.test' });
    await expect(liveChallenge(deps, tenant, challenge.id, ['LOGIN_OTP', 'LOGIN_TOTP'])).rejects.toMatchObject({
      code: 'INVALID_CODE',
    });
  });
});

describe('an e-mail-code login whose mail cannot be sent', () => {
  it('answers the challenge as if sent (no enumeration), logs it, and leaves no usable challenge behind', async () => {
    const base = makeTestDeps();
    const opened: string[] = [];
    const logged: string[] = [];
    const failingMail: Deps = {
      ...base,
      log: { info: () => {}, error: (message) => logged.push(message) },
      mailer: {
        send: async () => {
          throw fail('UNAVAILABLE', { headers: { 'retry-after': '5' } });
        },
      },
    };
    const deps = depsWatchingStore(failingMail, {
      before: (command) => {
        for (const item of putItemsOf(command)) if (item.entity === 'CHALLENGE') opened.push(item.id as string);
      },
    });
    const tenant = await tenantOf(deps, { loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant, {}, deps);
    expect(
      await login(deps, tenant, { email: user.email }, { ip: '203.0.113.1', userAgent: 'x', language: 'en' as const }),
    ).toEqual({
      challengeRequired: true,
      challengeType: 'OTP_EMAIL',
      challengeId: opened[0],
      expiresAt: expect.any(String),
    });
    expect(logged).toEqual(['mail not sent; answered as sent']);
    expect(opened).toHaveLength(1);
    expect(await challengeRepo(deps.store).get(tenant, opened[0] ?? '')).toBeNull();
  });
});
