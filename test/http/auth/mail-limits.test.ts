import { describe, expect, it } from 'vitest';
import { adminApi, anInvitedUser } from '#test/support/admin.ts';
import { aTenantWith, aUser, latestCodeTo, mailsTo, type TestTenant } from '#test/support/auth.ts';
import { type Answer, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

/**
 * Mail flooding, tried through the local stack and
 * the SES emulator: eight requests for one address mail it once, and every
 * answer is what a sent mail gives, for known and unknown addresses alike
 * (docs/security.md#mail-limits-and-budgets: per recipient and purpose, one a minute and five
 * an hour; and #no-enumeration). The hour cap and the minute passing are in
 * test/integration/auth/mail-limits.test.ts, whose clock moves.
 */

// Small, so that one test can spend a tenant's budgets; every other test uses a tenant of its own and stays below them.
const BUDGET = 3;
const SIGNUP_BUDGET = 3;
const api = useLocalStack({ mailDailyBudgetPerTenant: BUDGET, signupMailDailyBudgetPerTenant: SIGNUP_BUDGET });
const { call, aSuperAdmin } = adminApi(() => api.url);

let counter = 0;
const anEmail = (name = 'flood') => `${name}-${process.pid}-${Date.now().toString(36)}-${++counter}@shop.test`;

const forgot = (tenant: TestTenant, email: string) =>
  post(`${api.url}/auth/forgot-password`, { email }, tenant.headers);
const signup = (tenant: TestTenant, email: string) =>
  post(
    `${api.url}/auth/signup`,
    { app: tenant.app, mid: tenant.mid, email, password: 'Monstera-42-leaf', firstName: 'Moss', lastName: 'Stone' },
    tenant.headers,
  );
const otpLogin = (tenant: TestTenant, email: string) =>
  post(`${api.url}/auth/login`, { email, loginMode: 'OTP_EMAIL' }, tenant.headers);

/** An answer with its ids blanked: status, content type and body are all that may differ, and must not. */
function shapeOf(answer: Answer) {
  const blank = (text: string) =>
    text
      .replace(/"(chl_[0-9a-z]+)"/g, (_, id: string) => `"${'x'.repeat(id.length)}"`)
      .replace(/"expiresAt":"[^"]+"/, '"expiresAt":"…"');
  return { status: answer.status, contentType: answer.headers.get('content-type'), body: blank(answer.text) };
}

async function eightTimes(request: () => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < 8; i++) answers.push(await request());
  return answers;
}

/** Every answer the same as the first, ids aside; and the first as `expected`. */
function expectAllAlike(answers: Answer[], expected: { status: number }) {
  const [first] = answers.map(shapeOf);
  expect(first?.status).toBe(expected.status);
  for (const answer of answers) expect(shapeOf(answer)).toEqual(first);
}

describe('POST /auth/forgot-password, eight times for one address', () => {
  it('mails the first only, answers all eight with the same 202, and alike for an unknown address', async () => {
    const tenant = await aTenantWith();
    const owner = await aUser(tenant, { email: anEmail('victim') });
    const nobody = anEmail('nobody');

    const known = await eightTimes(() => forgot(tenant, owner.email));
    const unknown = await eightTimes(() => forgot(tenant, nobody));

    expectAllAlike([...known, ...unknown], { status: 202 });
    const mails = await mailsTo(api.stack.sesUrl, owner.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/reset/i);
    expect(await mailsTo(api.stack.sesUrl, nobody)).toHaveLength(0);
  });
});

describe('POST /auth/signup, eight times with a registered address', () => {
  it('sends one ALREADY_REGISTERED notice and answers all eight as a new address is answered', async () => {
    const tenant = await aTenantWith();
    const owner = await aUser(tenant, { email: anEmail('registered') });
    const fresh = anEmail('fresh');

    const registered = await eightTimes(() => signup(tenant, owner.email));
    const unregistered = await eightTimes(() => signup(tenant, fresh));

    expectAllAlike([...registered, ...unregistered], { status: 201 });
    const notices = await mailsTo(api.stack.sesUrl, owner.email);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.subject).toMatch(/already have/i);
    // The new address: its first code only (a repeated signup within the minute mails nothing).
    expect(await mailsTo(api.stack.sesUrl, fresh)).toHaveLength(1);
  });
});

describe('POST /auth/login with loginMode OTP_EMAIL, eight times for one address', () => {
  it('mails one code and answers all eight alike, for a known and an unknown address', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' });
    const owner = await aUser(tenant, { email: anEmail('otp') });
    const nobody = anEmail('nobody');

    const known = await eightTimes(() => otpLogin(tenant, owner.email));
    const unknown = await eightTimes(() => otpLogin(tenant, nobody));

    expectAllAlike([...known, ...unknown], { status: 200 });
    expect(await mailsTo(api.stack.sesUrl, owner.email)).toHaveLength(1);
  });
});

const verifyLogin = (tenant: TestTenant, challengeId: string, code: string) =>
  post(`${api.url}/auth/login/verify`, { challengeId, code }, tenant.headers);

describe('a code request the per-recipient limit holds back', () => {
  it("completes with the code a stranger's earlier request mailed, once: the owner is never kept out", async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' });
    const owner = await aUser(tenant, { email: anEmail('owner') });
    // A stranger asks first: the owner's mailbox gets the code.
    const strangers = await otpLogin(tenant, owner.email);
    // The owner asks within the minute: nothing new is mailed, and the owner's own challenge takes that code.
    const owners = await otpLogin(tenant, owner.email);
    expect(await mailsTo(api.stack.sesUrl, owner.email)).toHaveLength(1);
    const code = await latestCodeTo(api.stack.sesUrl, owner.email);
    expect((await verifyLogin(tenant, owners.body.data.challengeId, code)).status).toBe(200);
    // Used up: the stranger's challenge no longer takes it.
    expect((await verifyLogin(tenant, strangers.body.data.challengeId, code)).body.code).toBe('INVALID_CODE');
  });

  it('counts user+tag addresses as the one mailbox they reach', async () => {
    const tenant = await aTenantWith();
    const [local, domain] = anEmail('tagged').split('@');
    for (const tag of ['1', '2', '3']) expect((await signup(tenant, `${local}+${tag}@${domain}`)).status).toBe(201);
    expect(await mailsTo(api.stack.sesUrl, `${local}+`)).toHaveLength(1);
  });

  it('never lets the code mailed to victim+tag@ complete a challenge of victim@, though they share the counter', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' });
    const victim = await aUser(tenant, { email: anEmail('victim') });
    const [local, domain] = victim.email.split('@');
    const attacker = await aUser(tenant, { email: `${local}+evil@${domain}` });
    expect((await otpLogin(tenant, attacker.email)).status).toBe(200);
    const held = await otpLogin(tenant, victim.email);
    expect(await mailsTo(api.stack.sesUrl, victim.email)).toHaveLength(0);
    const attackersCode = await latestCodeTo(api.stack.sesUrl, attacker.email);
    const answer = await verifyLogin(tenant, held.body.data.challengeId, attackersCode);
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('INVALID_CODE');
  });
});

describe('the tenant daily account mail budget (MAIL_DAILY_BUDGET_PER_TENANT)', () => {
  it('stops the counted mail to accounts once spent, answers unchanged for known and unknown addresses, signups still mailed', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' });
    const spenders = await Promise.all(
      Array.from({ length: BUDGET }, (_, i) => aUser(tenant, { email: anEmail(`spender${i}`) })),
    );
    for (const user of spenders) expect((await forgot(tenant, user.email)).status).toBe(202);
    for (const user of spenders) expect(await mailsTo(api.stack.sesUrl, user.email)).toHaveLength(1);

    const late = await aUser(tenant, { email: anEmail('late') });
    const nobody = anEmail('nobody');
    expectAllAlike([await forgot(tenant, late.email), await forgot(tenant, nobody)], { status: 202 });
    expectAllAlike([await otpLogin(tenant, late.email), await otpLogin(tenant, nobody)], { status: 200 });
    expect(await mailsTo(api.stack.sesUrl, late.email)).toHaveLength(0);

    // Signups have a budget of their own: a new address still gets its code, a registered one its notice.
    const newcomer = anEmail('new');
    expectAllAlike([await signup(tenant, late.email), await signup(tenant, newcomer)], { status: 201 });
    expect(await mailsTo(api.stack.sesUrl, newcomer)).toHaveLength(1);
    expect((await mailsTo(api.stack.sesUrl, late.email)).map((mail) => mail.subject)).toEqual([
      expect.stringMatching(/already have/i),
    ]);
  });
});

describe('the tenant daily account mail budget, spent by an admin mailing users', () => {
  it('bounds an admin (or a stolen admin key) sending resets and invitations to every user: past it, 503 and no mail', async () => {
    const admin = await aSuperAdmin();
    const users = await Promise.all(
      Array.from({ length: BUDGET + 1 }, (_, i) => aUser(admin.tenant, { email: anEmail(`reset${i}`) })),
    );
    for (const user of users.slice(0, BUDGET)) {
      expect((await call('POST', `/users/${user.id}/password-reset`, admin.headers)).status).toBe(204);
    }
    const [late] = users.slice(BUDGET);
    const refused = await call('POST', `/users/${late?.id}/password-reset`, admin.headers);
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 503, code: 'UNAVAILABLE' });
    expect(refused.headers.get('retry-after')).toBeTruthy();
    const invited = await anInvitedUser(admin.tenant);
    const resent = await call('POST', `/users/${invited.userId}/invitation`, admin.headers);
    expect({ status: resent.status, code: resent.body.code }).toEqual({ status: 503, code: 'UNAVAILABLE' });
    expect(await mailsTo(api.stack.sesUrl, late?.email ?? '')).toEqual([]);
    expect(await mailsTo(api.stack.sesUrl, invited.email)).toEqual([]);
  });
});

describe('the tenant daily signup mail budget (SIGNUP_MAIL_DAILY_BUDGET_PER_TENANT)', () => {
  it("lets strangers' signups spend it without stopping a user's login and reset codes", async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' });
    const owner = await aUser(tenant, { email: anEmail('owner') });
    for (let i = 0; i < SIGNUP_BUDGET; i++) expect((await signup(tenant, anEmail('junk'))).status).toBe(201);

    // Spent: every signup answers 503 until midnight UTC, a new address and a registered one alike, and mails nothing.
    const newcomer = anEmail('new');
    const refused = [await signup(tenant, newcomer), await signup(tenant, owner.email)];
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(answer.body.code).toBe('UNAVAILABLE');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(answer.headers.get('retry-after'))).toBeLessThanOrEqual(24 * 3600);
    }
    expect(refused[0]?.text).toBe(refused[1]?.text);
    expect(await mailsTo(api.stack.sesUrl, newcomer)).toHaveLength(0);
    expect(await mailsTo(api.stack.sesUrl, owner.email)).toHaveLength(0);

    // The owner's codes still arrive.
    expect((await otpLogin(tenant, owner.email)).status).toBe(200);
    expect((await forgot(tenant, owner.email)).status).toBe(202);
    const subjects = (await mailsTo(api.stack.sesUrl, owner.email)).map((mail) => mail.subject);
    expect(subjects).toEqual([expect.stringMatching(/code/i), expect.stringMatching(/reset/i)]);
  });

  it('is spent only by mail that went out: signups the per-recipient limit holds back give their unit back', async () => {
    const tenant = await aTenantWith();
    const repeated = anEmail('again');
    // One code; the other seven, within the minute, are held back and spend nothing.
    for (let i = 0; i < 8; i++) expect((await signup(tenant, repeated)).status).toBe(201);
    expect(await mailsTo(api.stack.sesUrl, repeated)).toHaveLength(1);
    for (let i = 1; i < SIGNUP_BUDGET; i++) expect((await signup(tenant, anEmail('later'))).status).toBe(201);
    expect((await signup(tenant, anEmail('over'))).status).toBe(503);
  });
});
