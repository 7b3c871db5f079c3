import { describe, expect, it } from 'vitest';
import { aTenantWith, aUser, mailsTo, type TestTenant } from '#test/support/auth.ts';
import { type Answer, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

/**
 * Security review M6 (mail flooding), reproduced through the local stack and
 * the SES emulator: eight requests for one address mail it once, and every
 * answer is what a sent mail gives, for known and unknown addresses alike
 * (CONTRACT.md, Rules: mails per recipient and purpose, one a minute and five
 * an hour; "No enumeration"). The hour cap and the minute passing are in
 * test/integration/auth/mail-limits.test.ts, whose clock moves.
 */

// Small, so that one test can spend a tenant's budget; every other test uses a tenant of its own and stays below it.
const BUDGET = 3;
const api = useLocalStack({ mailDailyBudgetPerTenant: BUDGET });

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

describe('the tenant daily mail budget (MAIL_DAILY_BUDGET_PER_TENANT)', () => {
  it('stops all counted mail once spent, with answers unchanged for known and unknown addresses', async () => {
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
    expectAllAlike([await signup(tenant, late.email), await signup(tenant, anEmail('new'))], { status: 201 });
    expect(await mailsTo(api.stack.sesUrl, late.email)).toHaveLength(0);
  });
});
