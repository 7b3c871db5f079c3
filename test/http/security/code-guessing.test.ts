import { describe, expect, it } from 'vitest';
import { totpCodeAt } from '#shared/auth/totp.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import { aTenantWith, aUser, latestCodeTo, type TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { type Answer, bearer, expectProblem, identityApi, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

/**
 * Guessing codes and passwords, through the HTTP
 * API: wrong reset, signup and e-mail-change codes count per (tenant, address,
 * purpose) across challenges, so a new challenge gives an attacker no new
 * tries; and every guess is reserved before it is evaluated, so a burst of any
 * size has exactly 5 looked at per 15 minutes.
 */

const api = useLocalStack();
const { call, login, logIn } = identityApi(() => api.url);
const deps = makeTestDeps();

let counter = 0;
const anEmail = (name = 'fern') => `${name}-${process.pid}-${Date.now().toString(36)}-${++counter}@shop.test`;
const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));
/** A wrong 6-digit code: any other than the right one. */
const otherThan = (code: string, i = 0) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
const statuses = (answers: Answer[]) => answers.map((a) => `${a.status} ${a.body?.code ?? ''}`.trim());
const count = (answers: Answer[], status: string) => statuses(answers).filter((s) => s === status).length;

function expectLocked(answer: Answer) {
  expectProblem(answer, 429, 'TOO_MANY_ATTEMPTS');
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
}

const forgot = (tenant: TestTenant, email: string) =>
  post(`${api.url}/auth/forgot-password`, { email }, tenant.headers);
const reset = (tenant: TestTenant, challengeId: string, code: string) =>
  post(`${api.url}/auth/reset-password`, { challengeId, code, newPassword: 'Attacker-pass-9876' }, tenant.headers);

describe('POST /auth/reset-password: wrong codes count per address, across challenges', () => {
  it('locks the reset of an account after 5 wrong codes spread over 3 challenges: the right code then answers 429 and the password stays', async () => {
    const tenant = await aTenantWith();
    const victim = await aUser(tenant, { email: anEmail('victim') });
    const first = await forgot(tenant, victim.email);
    const right = await latestCodeTo(api.stack.sesUrl, victim.email);
    // The attacker opens more challenges: on c102fbc each came with 5 fresh tries.
    const more = [
      (await forgot(tenant, victim.email)).body.challengeId,
      (await forgot(tenant, victim.email)).body.challengeId,
    ];
    const guesses = [first.body.challengeId, ...more, ...more];
    for (const [i, challengeId] of guesses.entries()) {
      expectProblem(await reset(tenant, challengeId, otherThan(right, i)), 401, 'INVALID_CODE');
    }

    expectLocked(await reset(tenant, first.body.challengeId, right));
    // The password did not change; the owner still signs in with theirs.
    expect((await login(tenant, victim.email, victim.password)).status).toBe(200);
    expectProblem(await login(tenant, victim.email, 'Attacker-pass-9876'), 401, 'INVALID_CREDENTIALS');
  });

  it('keeps other addresses of the tenant, and the account logins, out of that count', async () => {
    const tenant = await aTenantWith();
    const victim = await aUser(tenant, { email: anEmail('victim') });
    const bystander = await aUser(tenant, { email: anEmail('bystander') });
    const opened = await forgot(tenant, victim.email);
    for (let i = 0; i < 5; i++) await reset(tenant, opened.body.challengeId, `00000${i}`);

    expect((await login(tenant, victim.email, victim.password)).status).toBe(200);
    const theirs = await forgot(tenant, bystander.email);
    const code = await latestCodeTo(api.stack.sesUrl, bystander.email);
    expect((await reset(tenant, theirs.body.challengeId, code)).status).toBe(204);
  });

  it('evaluates exactly 5 of 10 wrong codes sent at once over two challenges', async () => {
    const tenant = await aTenantWith();
    const victim = await aUser(tenant, { email: anEmail('victim') });
    const a = (await forgot(tenant, victim.email)).body.challengeId;
    const b = (await forgot(tenant, victim.email)).body.challengeId;
    const answers = await Promise.all(times(10, (i) => reset(tenant, i % 2 ? a : b, `12345${i}`)));
    expect(count(answers, '401 INVALID_CODE'), statuses(answers).join(', ')).toBe(5);
    expect(count(answers, '429 TOO_MANY_ATTEMPTS')).toBe(5);
  });
});

const signup = (tenant: TestTenant, email: string) =>
  post(
    `${api.url}/auth/signup`,
    { app: tenant.app, mid: tenant.mid, email, password: 'Attacker-pass-9876', firstName: 'A', lastName: 'T' },
    tenant.headers,
  );
const verifySignup = (tenant: TestTenant, challengeId: string, code: string) =>
  post(`${api.url}/auth/signup/verify`, { challengeId, code }, tenant.headers);

describe('POST /auth/signup/verify: wrong codes count per address, across challenges', () => {
  it('locks the address after 5 wrong codes over two signups: the right code answers 429 and the address stays unproven', async () => {
    const tenant = await aTenantWith();
    const someoneElses = anEmail('not-mine');
    const first = (await signup(tenant, someoneElses)).body.data.challengeId as string;
    const right = await latestCodeTo(api.stack.sesUrl, someoneElses);
    const second = (await signup(tenant, someoneElses)).body.data.challengeId as string;
    for (const [i, challengeId] of [first, second, second, second, second].entries()) {
      expectProblem(await verifySignup(tenant, challengeId, otherThan(right, i)), 401, 'INVALID_CODE');
    }

    expectLocked(await verifySignup(tenant, first, right));
    expect((await userRepo(deps.store).findByEmail(tenant, someoneElses, new Date()))?.status).toBe('INACTIVE');
  });
});

describe('POST /users/me/email-change/verify: wrong codes count per new address, across challenges', () => {
  it('locks the new address after 5 wrong codes over two requests: the right code answers 429 and the address stays', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { email: anEmail('owner') });
    const { accessToken } = await logIn(tenant, user.email, user.password);
    const headers = bearer(tenant, accessToken);
    const wanted = anEmail('unclaimed');
    const first = (await call('POST', '/users/me/email-change', headers, { newEmail: wanted })).body.challengeId;
    const right = await latestCodeTo(api.stack.sesUrl, wanted);
    const second = (await call('POST', '/users/me/email-change', headers, { newEmail: wanted })).body.challengeId;
    for (const [i, challengeId] of [first, second, second, second, second].entries()) {
      const res = await call('POST', '/users/me/email-change/verify', headers, {
        challengeId,
        code: otherThan(right, i),
      });
      expectProblem(res, 401, 'INVALID_CODE');
    }

    expectLocked(await call('POST', '/users/me/email-change/verify', headers, { challengeId: first, code: right }));
    expect((await call('GET', '/users/me', headers)).body.email).toBe(user.email);
  });
});

describe('POST /auth/login/verify: bursts of second-factor and e-mail codes', () => {
  it('evaluates exactly 5 of 10 wrong TOTP codes sent at once over three TOTP steps; then even the right code answers 429', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { email: anEmail('totp'), totp: true });
    // The attacker holds the password and opens several TOTP steps first.
    const steps: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await login(tenant, user.email, user.password);
      expect(res.body.data.challengeType).toBe('TOTP');
      steps.push(res.body.data.challengeId);
    }
    const right = totpCodeAt(user.totpSecret as string, new Date());
    const answers = await Promise.all(
      times(10, (i) =>
        post(`${api.url}/auth/login/verify`, { challengeId: steps[i % 3], code: otherThan(right, i) }, tenant.headers),
      ),
    );
    expect(count(answers, '401 INVALID_CODE'), statuses(answers).join(', ')).toBe(5);
    expect(count(answers, '429 TOO_MANY_ATTEMPTS')).toBe(5);

    const again = await login(tenant, user.email, user.password);
    expectLocked(again);
  });

  it('evaluates exactly 5 of 10 wrong e-mail login codes sent at once', async () => {
    const tenant = await aTenantWith({ loginMode: 'OTP_EMAIL' });
    const user = await aUser(tenant, { email: anEmail('code') });
    const started = await post(`${api.url}/auth/login`, { email: user.email }, tenant.headers);
    const challengeId = started.body.data.challengeId as string;
    const right = await latestCodeTo(api.stack.sesUrl, user.email);
    const answers = await Promise.all(
      times(10, (i) =>
        post(`${api.url}/auth/login/verify`, { challengeId, code: otherThan(right, i) }, tenant.headers),
      ),
    );
    expect(count(answers, '401 INVALID_CODE'), statuses(answers).join(', ')).toBe(5);
    expect(count(answers, '429 TOO_MANY_ATTEMPTS')).toBe(5);
  });
});

describe('POST /users/me/password: a burst of current-password guesses with a stolen token', () => {
  it('evaluates exactly 5 of 10 sent at once, then refuses the right one with 429', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { email: anEmail('pw') });
    const { accessToken } = await logIn(tenant, user.email, user.password);
    const headers = bearer(tenant, accessToken);
    const change = (currentPassword: string) =>
      call('POST', '/users/me/password', headers, { currentPassword, newPassword: 'Attacker-pass-9876' });
    const answers = await Promise.all(times(10, (i) => change(`Wrong-guess-${i}-zz`)));
    expect(count(answers, '401 INVALID_CREDENTIALS'), statuses(answers).join(', ')).toBe(5);
    expect(count(answers, '429 TOO_MANY_ATTEMPTS')).toBe(5);
    expectLocked(await change(user.password));
  });
});
