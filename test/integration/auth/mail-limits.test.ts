import { beforeAll, describe, expect, it } from 'vitest';
import { requestEmailChange } from '#shared/account/email-change.ts';
import { inviteUser } from '#shared/admin/users.ts';
import { forgotPassword } from '#shared/auth/forgot-password.ts';
import { login } from '#shared/auth/login.ts';
import { mailPurposeOf } from '#shared/auth/mail-limits.ts';
import { signup } from '#shared/auth/signup.ts';
import type { Deps } from '#shared/deps.ts';
import type { MailMessage } from '#shared/mail/message.ts';
import { challengeRepo } from '#shared/store/challenge-repo.ts';
import { mailLimitRepo } from '#shared/store/mail-limit-repo.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { anEmail } from '#test/support/admin.ts';
import { aTenantWith, aUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { merchantOf } from '#test/support/faults.ts';

/**
 * The mail limits (docs/security.md#mail-limits-and-budgets): per recipient and
 * purpose one mail a minute and five an hour, one ALREADY_REGISTERED notice a
 * day, and a daily budget per tenant; past a limit the answer is unchanged
 * and no mail goes out. Here with a clock the test moves.
 */

const START = Date.parse('2026-11-23T10:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Sent {
  to: string;
  kind: MailMessage['kind'];
}

/** Deps whose clock the test moves, whose mail it records, and whose budgets it may set. */
function clockedDeps(options: { budget?: number; signupBudget?: number; failing?: () => boolean } = {}) {
  let now = START;
  const sent: Sent[] = [];
  const logged: Record<string, unknown>[] = [];
  const base = makeTestDeps();
  const deps: Deps = {
    ...base,
    config: {
      ...base.config,
      mailDailyBudgetPerTenant: options.budget ?? base.config.mailDailyBudgetPerTenant,
      signupMailDailyBudgetPerTenant: options.signupBudget ?? base.config.signupMailDailyBudgetPerTenant,
    },
    clock: { now: () => new Date(now) },
    log: {
      info: (message, fields) => logged.push({ message, ...fields }),
      error: (message, fields) => logged.push({ message, ...fields }),
    },
    mailer: {
      send: async (_tenant, to, message) => {
        if (options.failing?.()) throw new Error('SES down');
        sent.push({ to, kind: message.kind });
      },
    },
  };
  return { deps, sent, logged, at: (ms: number) => (now = START + ms) };
}

const client = { ip: '203.0.113.7', userAgent: 'vitest', language: 'en' as const };
let tenant: Merchant;
let codeTenant: Merchant;
beforeAll(async () => {
  [tenant, codeTenant] = await Promise.all([
    aTenantWith().then((t) => merchantOf(t)),
    aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' }).then((t) => merchantOf(t)),
  ]);
});

const signupBody = (t: Merchant, email: string) => ({
  app: t.app,
  mid: t.mid,
  email,
  password: 'Monstera-42-leaf',
  firstName: 'Moss',
  lastName: 'Stone',
});

describe('mailLimitRepo.takeRecipientSlot', () => {
  const policy = { perWindow: 5, windowMs: HOUR, gapMs: MINUTE };

  it('lets exactly one of ten concurrent sends through', async () => {
    const deps = makeTestDeps();
    const repo = mailLimitRepo(deps.store);
    const email = anEmail('race');
    const now = new Date(START);
    const taken = await Promise.all(
      Array.from({ length: 10 }, () => repo.takeRecipientSlot(tenant, 'LOGIN', email, policy, now)),
    );
    expect(taken.filter((slot) => 'key' in slot)).toHaveLength(1);
  });

  it('allows one a minute and five in any hour (a sliding window)', async () => {
    const repo = mailLimitRepo(makeTestDeps().store);
    const email = anEmail('slots');
    const take = async (ms: number) =>
      'key' in (await repo.takeRecipientSlot(tenant, 'LOGIN', email, policy, new Date(START + ms)));
    expect(await take(0)).toBe(true);
    expect(await take(59_999)).toBe(false);
    expect(await take(MINUTE)).toBe(true);
    expect(await take(10 * MINUTE)).toBe(true);
    expect(await take(20 * MINUTE)).toBe(true);
    expect(await take(30 * MINUTE)).toBe(true);
    // Five in the hour since 0: the sixth waits until the first is an hour old.
    expect(await take(40 * MINUTE)).toBe(false);
    expect(await take(HOUR - 1)).toBe(false);
    expect(await take(HOUR)).toBe(true);
    // Now the oldest of the last five is the one at 1 min: until 1 h 1 min, nothing.
    expect(await take(HOUR + 30_000)).toBe(false);
    expect(await take(HOUR + MINUTE)).toBe(true);
  });

  it('keeps purposes and addresses apart', async () => {
    const repo = mailLimitRepo(makeTestDeps().store);
    const email = anEmail('apart');
    const now = new Date(START);
    expect(await repo.takeRecipientSlot(tenant, 'LOGIN', email, policy, now)).not.toBeNull();
    expect(await repo.takeRecipientSlot(tenant, 'PASSWORD_RESET', email, policy, now)).not.toBeNull();
    expect(await repo.takeRecipientSlot(tenant, 'LOGIN', anEmail('other'), policy, now)).not.toBeNull();
    expect(await repo.takeRecipientSlot(codeTenant, 'LOGIN', email, policy, now)).not.toBeNull();
  });
});

describe('POST /auth/forgot-password past the mail limits', () => {
  it('mails one code a minute and five an hour, answering every request alike', async () => {
    const { deps, sent, at } = clockedDeps();
    const owner = await aUser(tenant);
    const ask = () => forgotPassword(deps, tenant, owner.email, client);

    // arrange: eight requests in the same instant
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await ask());
    // assert: one mail; every answer a challenge id of the same shape
    expect(sent.filter((m) => m.to === owner.email)).toHaveLength(1);
    for (const answer of answers) expect(Object.keys(answer)).toEqual(['challengeId']);

    // A minute later, one more; then once a minute up to five in the hour.
    for (let minute = 1; minute <= 6; minute++) {
      at(minute * MINUTE);
      await ask();
    }
    expect(sent).toHaveLength(5);
    at(HOUR);
    await ask();
    expect(sent).toHaveLength(6);
  });

  it('binds the challenge of a code it did not mail to the code the address last got, expiring with it', async () => {
    const { deps } = clockedDeps();
    const owner = await aUser(tenant);
    const first = await forgotPassword(deps, tenant, owner.email, client);
    const { challengeId } = await forgotPassword(deps, tenant, owner.email, client);
    const [mailed, held] = await Promise.all([
      challengeRepo(deps.store).get(tenant, first.challengeId),
      challengeRepo(deps.store).get(tenant, challengeId),
    ]);
    expect(held).toMatchObject({
      type: 'PASSWORD_RESET',
      codeHash: mailed?.codeHash,
      codeChallengeId: first.challengeId,
      expiresAt: mailed?.expiresAt,
    });
  });

  it('disarms it when the code the address last got is used up: no code passes it', async () => {
    const { deps, at } = clockedDeps();
    const codeUser = await aUser(codeTenant);
    const first = await login(deps, codeTenant, { email: codeUser.email, loginMode: 'OTP_EMAIL' }, client);
    const mailedId = 'challengeId' in first ? first.challengeId : '';
    expect(await challengeRepo(deps.store).consume(codeTenant, mailedId, deps.clock.now())).toBe(true);
    at(10_000);
    const again = await login(deps, codeTenant, { email: codeUser.email, loginMode: 'OTP_EMAIL' }, client);
    const held = await challengeRepo(deps.store).get(codeTenant, 'challengeId' in again ? again.challengeId : '');
    expect(held).toMatchObject({ codeHash: null, type: 'LOGIN_OTP' });
    expect(held?.codeChallengeId).toBeUndefined();
  });

  it('logs a held-back mail by purpose and limit, never the address', async () => {
    const { deps, logged } = clockedDeps();
    const owner = await aUser(tenant);
    await forgotPassword(deps, tenant, owner.email, client);
    await forgotPassword(deps, tenant, owner.email, client);
    const line = logged.find((l) => l.message === 'mail suppressed: limit reached');
    expect(line).toMatchObject({ mailPurpose: 'PASSWORD_RESET', limit: 'RECIPIENT' });
    expect(JSON.stringify(logged)).not.toContain(owner.email);
  });

  it('gives a failed send back: the retry a failure invites is mailed', async () => {
    let down = true;
    const { deps, sent } = clockedDeps({ failing: () => down });
    const owner = await aUser(tenant);
    await forgotPassword(deps, tenant, owner.email, client);
    down = false;
    await forgotPassword(deps, tenant, owner.email, client);
    expect(sent).toEqual([{ to: owner.email, kind: 'PASSWORD_RESET_CODE' }]);
  });
});

describe('POST /auth/signup of a registered address past the mail limits', () => {
  it('sends one ALREADY_REGISTERED notice a day, answering alike', async () => {
    const { deps, sent, at } = clockedDeps();
    const owner = await aUser(tenant);
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await signup(deps, tenant, signupBody(tenant, owner.email), client));
    expect(sent).toEqual([{ to: owner.email, kind: 'ALREADY_REGISTERED' }]);
    for (const answer of answers) expect(Object.keys(answer ?? {})).toEqual(['challengeId']);
    at(23 * HOUR);
    await signup(deps, tenant, signupBody(tenant, owner.email), client);
    expect(sent).toHaveLength(1);
    at(24 * HOUR);
    await signup(deps, tenant, signupBody(tenant, owner.email), client);
    expect(sent).toHaveLength(2);
  });

  it('holds back a repeated signup code within the minute and restores the lapse it would have set', async () => {
    const { deps, sent, at } = clockedDeps();
    const email = anEmail('again');
    await signup(deps, tenant, signupBody(tenant, email), client);
    const before = await userRepo(deps.store).findByEmail(tenant, email, deps.clock.now());
    at(30_000);
    await signup(deps, tenant, signupBody(tenant, email), client);
    expect(sent.filter((m) => m.kind === 'SIGNUP_CODE')).toHaveLength(1);
    const after = await userRepo(deps.store).findByEmail(tenant, email, deps.clock.now());
    expect(after?.emailValidationExpiresAt).toBe(before?.emailValidationExpiresAt);
  });
});

describe('POST /auth/login (OTP_EMAIL) past the mail limits', () => {
  it('mails one code a minute, answering every request alike', async () => {
    const { deps, sent } = clockedDeps();
    const owner = await aUser(codeTenant);
    const answers = [];
    for (let i = 0; i < 8; i++) {
      answers.push(await login(deps, codeTenant, { email: owner.email, loginMode: 'OTP_EMAIL' }, client));
    }
    expect(sent).toEqual([{ to: owner.email, kind: 'LOGIN_CODE' }]);
    for (const answer of answers) {
      expect(answer).toMatchObject({ challengeRequired: true, challengeType: 'OTP_EMAIL' });
    }
  });
});

describe('POST /users/me/email-change past the mail limits', () => {
  it('answers a challenge as ever, and mails the new address once a minute', async () => {
    const { deps, sent } = clockedDeps();
    const owner = await aUser(tenant);
    const principal = {
      kind: 'user' as const,
      userId: owner.id,
      sessionId: 'ses_x',
      roles: [],
      authority: 99,
      authenticatedAt: deps.clock.now().toISOString(), // signed in just now: an e-mail change needs it
    };
    const target = anEmail('new');
    const first = await requestEmailChange(deps, tenant, principal, target, client);
    const second = await requestEmailChange(deps, tenant, principal, target, client);
    expect(Object.keys(second)).toEqual(Object.keys(first));
    expect(sent.filter((m) => m.to === target)).toHaveLength(1);
  });
});

describe('the tenant account mail budget (MAIL_DAILY_BUDGET_PER_TENANT)', () => {
  it('stops every counted mail to accounts once spent, with unchanged answers, until the next UTC day', async () => {
    const budgetTenant = await merchantOf(await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' }));
    const { deps, sent, logged, at } = clockedDeps({ budget: 3 });
    const users = await Promise.all(Array.from({ length: 3 }, () => aUser(budgetTenant)));
    for (const user of users) await forgotPassword(deps, budgetTenant, user.email, client);
    expect(sent).toHaveLength(3);

    // Spent: a reset code and a login code to an account, both held back, answered as ever.
    const late = await aUser(budgetTenant);
    const reset = await forgotPassword(deps, budgetTenant, late.email, client);
    const code = await login(deps, budgetTenant, { email: late.email, loginMode: 'OTP_EMAIL' }, client);
    expect(Object.keys(reset)).toEqual(['challengeId']);
    expect(code).toMatchObject({ challengeRequired: true });
    expect(sent).toHaveLength(3);
    expect(logged).toContainEqual(expect.objectContaining({ limit: 'TENANT_DAILY_BUDGET' }));

    // Signups spend a budget of their own: a code to a new address and a notice to a registered one still go out.
    const fresh = anEmail('fresh');
    await signup(deps, budgetTenant, signupBody(budgetTenant, fresh), client);
    await signup(deps, budgetTenant, signupBody(budgetTenant, late.email), client);
    expect(sent.slice(3)).toEqual([
      { to: fresh, kind: 'SIGNUP_CODE' },
      { to: late.email, kind: 'ALREADY_REGISTERED' },
    ]);

    // An invitation answers what a failed send does (503) and leaves nothing behind.
    const admin = { kind: 'apiKey' as const, keyId: 'k1', authority: 1 };
    const invited = anEmail('invited');
    await expect(inviteUser(deps, budgetTenant, admin, { email: invited }, client)).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    expect(await userRepo(deps.store).findByEmail(budgetTenant, invited, deps.clock.now())).toBeNull();

    // The next UTC day has a budget again.
    at(14 * HOUR);
    await forgotPassword(deps, budgetTenant, late.email, client);
    expect(sent).toHaveLength(6);
  });
});

describe('the tenant signup mail budget (SIGNUP_MAIL_DAILY_BUDGET_PER_TENANT)', () => {
  it('answers every signup 503 with Retry-After until midnight UTC once spent, writing and mailing nothing', async () => {
    const budgetTenant = await merchantOf(await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' }));
    const { deps, sent, at } = clockedDeps({ signupBudget: 2 });
    const owner = await aUser(budgetTenant);
    await signup(deps, budgetTenant, signupBody(budgetTenant, anEmail('first')), client);
    await signup(deps, budgetTenant, signupBody(budgetTenant, owner.email), client);
    expect(sent.map((mail) => mail.kind)).toEqual(['SIGNUP_CODE', 'ALREADY_REGISTERED']);

    // 10:00 UTC: fourteen hours to midnight.
    const newcomer = anEmail('newcomer');
    for (const email of [newcomer, owner.email]) {
      await expect(signup(deps, budgetTenant, signupBody(budgetTenant, email), client)).rejects.toMatchObject({
        code: 'UNAVAILABLE',
        headers: { 'retry-after': String(14 * 3600) },
      });
    }
    expect(await userRepo(deps.store).findByEmail(budgetTenant, newcomer, deps.clock.now())).toBeNull();
    expect(sent).toHaveLength(2);
    // The account budget is untouched: the owner's login code goes out.
    await login(deps, budgetTenant, { email: owner.email, loginMode: 'OTP_EMAIL' }, client);
    expect(sent.at(-1)).toEqual({ to: owner.email, kind: 'LOGIN_CODE' });

    // A new UTC day, a new budget.
    at(14 * HOUR);
    await signup(deps, budgetTenant, signupBody(budgetTenant, newcomer), client);
    expect(sent.at(-1)).toEqual({ to: newcomer, kind: 'SIGNUP_CODE' });
  });

  it('gives the unit back when SES fails to send the mail: the next signup is mailed', async () => {
    const budgetTenant = await merchantOf(await aTenantWith());
    let failing = true;
    const { deps, sent } = clockedDeps({ signupBudget: 1, failing: () => failing });
    await signup(deps, budgetTenant, signupBody(budgetTenant, anEmail('unlucky')), client);
    expect(sent).toHaveLength(0);
    failing = false;
    const lucky = anEmail('lucky');
    await signup(deps, budgetTenant, signupBody(budgetTenant, lucky), client);
    expect(sent).toEqual([{ to: lucky, kind: 'SIGNUP_CODE' }]);
  });
});

describe('mailPurposeOf', () => {
  it('counts every code, the ALREADY_REGISTERED notice and invitations, never a security notice', () => {
    for (const kind of ['SIGNUP_CODE', 'LOGIN_CODE', 'PASSWORD_RESET_CODE', 'EMAIL_CHANGE_CODE'] as const) {
      expect(mailPurposeOf(kind)).not.toBeNull();
    }
    expect(mailPurposeOf('ALREADY_REGISTERED')).toBe('ALREADY_REGISTERED');
    expect(mailPurposeOf('INVITATION')).toBe('INVITATION');
    // An admin's reset counts with the owner's own: one mailbox, one counter of reset mails.
    expect(mailPurposeOf('PASSWORD_RESET_BY_ADMIN')).toBe(mailPurposeOf('PASSWORD_RESET_CODE'));
    for (const kind of ['PASSWORD_CHANGED', 'PASSWORD_RESET_DONE', 'EMAIL_CHANGED', 'ACCOUNT_LOCKED'] as const) {
      expect(mailPurposeOf(kind)).toBeNull();
    }
  });
});
