import { beforeAll, describe, expect, it } from 'vitest';
import { handler as loginHandler } from '#functions/auth/login.ts';
import { handler as loginVerifyHandler } from '#functions/auth/login-verify.ts';
import { login } from '#shared/auth/login.ts';
import { totpCodeAt } from '#shared/auth/totp.ts';
import { aUser } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import {
  ALLOWED,
  type Allowance,
  type Answer,
  aRequest,
  depsKeepingCodes,
  type FaultKind,
  faultMatrix,
  INTERNAL,
  type Operation,
  THROTTLING,
  type Trace,
  traceOf,
  useFaultStack,
} from '#test/support/faults.ts';

/**
 * Logins under DynamoDB faults: a password login (with and without TOTP), an
 * e-mail-code login, and their second steps (POST /auth/login/verify), each
 * failed at every DynamoDB call in turn, answer 503 UNAVAILABLE, leave the
 * store as it was (but for the documented counters) and work when retried.
 */

/** `codeTenant`: a tenant taking passwords or e-mail codes. */
const {
  tenants: [tenant, codeTenant],
} = useFaultStack({ tenants: [{}, { loginMode: 'PASSWORD_OR_OTP_EMAIL' }] });

const loggedIn = (answer: Answer) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.data).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String) });
};

const challenged = (type: 'TOTP' | 'OTP_EMAIL') => (answer: Answer) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.data).toMatchObject({ challengeRequired: true, challengeType: type });
};

/** The TOTP step is used up by the check (a code once accepted is refused again), whatever follows. */
const totpStepUsed: Allowance = {
  why: 'a TOTP code, once checked, is used up even if the login then fails (a TOTP step once accepted is refused again); the user takes the next code',
  covers: (c) =>
    c.sk === 'PROFILE' &&
    Object.keys({ ...c.before, ...c.after }).every(
      (f) => f === 'totpLastStep' || JSON.stringify(c.before?.[f]) === JSON.stringify(c.after?.[f]),
    ),
};

type Credentials = { ip: string; email: string; password: string };

const passwordLogin = (options: { totp: boolean }): Operation<Credentials> => ({
  handler: loginHandler,
  setup: async (ip) => ({ ip, ...(await aUser(tenant, { totp: options.totp })) }),
  tenant: () => tenant,
  request: (f) => aRequest('POST', '/auth/login', { tenant, ip: f.ip, body: { email: f.email, password: f.password } }),
  succeeded: options.totp ? challenged('TOTP') : loggedIn,
  allowed: [ALLOWED.rateCount, ALLOWED.lockoutCleared, ALLOWED.attemptPlace],
});

/** The TOTP step: a challenge opened by a password login, answered with the code of the moment (the next one on retry). */
const totpVerify: Operation<{ ip: string; challengeId: string; secret: string }> = {
  handler: loginVerifyHandler,
  setup: async (ip) => {
    const user = await aUser(tenant, { totp: true });
    const opened = await login(
      makeTestDeps(),
      tenant,
      { email: user.email, password: user.password },
      { ip, userAgent: 'vitest', language: 'en' as const },
    );
    if (!('challengeId' in opened)) throw new Error('no TOTP challenge');
    return { ip, challengeId: opened.challengeId, secret: user.totpSecret as string };
  },
  tenant: () => tenant,
  request: (f, attempt) =>
    aRequest('POST', '/auth/login/verify', {
      tenant,
      ip: f.ip,
      body: { challengeId: f.challengeId, code: totpCodeAt(f.secret, new Date(Date.now() + attempt * 30_000)) },
    }),
  succeeded: loggedIn,
  allowed: [ALLOWED.rateCount, ALLOWED.lockoutCleared, ALLOWED.attemptPlace, totpStepUsed],
};

const codeLogin: Operation<{ ip: string; email: string }> = {
  handler: loginHandler,
  setup: async (ip) => ({ ip, email: (await aUser(codeTenant)).email }),
  tenant: () => codeTenant,
  request: (f) =>
    aRequest('POST', '/auth/login', { tenant: codeTenant, ip: f.ip, body: { email: f.email, loginMode: 'OTP_EMAIL' } }),
  succeeded: challenged('OTP_EMAIL'),
  allowed: [ALLOWED.rateCount, ALLOWED.mailDayCount],
};

/** The e-mail code step: a code login started with a working mailer, answered with the code it mailed. */
const codeVerify: Operation<{ ip: string; challengeId: string; code: string }> = {
  handler: loginVerifyHandler,
  setup: async (ip) => {
    const user = await aUser(codeTenant);
    const { deps, latestCode } = depsKeepingCodes();
    const opened = await login(
      deps,
      codeTenant,
      { email: user.email, loginMode: 'OTP_EMAIL' },
      { ip, userAgent: 'vitest', language: 'en' as const },
    );
    if (!('challengeId' in opened)) throw new Error('no e-mail challenge');
    return { ip, challengeId: opened.challengeId, code: latestCode() };
  },
  tenant: () => codeTenant,
  request: (f) =>
    aRequest('POST', '/auth/login/verify', {
      tenant: codeTenant,
      ip: f.ip,
      body: { challengeId: f.challengeId, code: f.code },
    }),
  succeeded: loggedIn,
  allowed: [ALLOWED.rateCount, ALLOWED.lockoutCleared, ALLOWED.attemptPlace],
};

/**
 * A known gap, reported and not fixed here (shared/auth/login-verify.ts is
 * another change's): POST /auth/login/verify uses its challenge up on its own
 * before the session is written, so a fault after the code check leaves the
 * challenge consumed and the retry answers 401 INVALID_CODE (the user must
 * start the login again). The fix: check the code without consuming it
 * (checkCodeChallenge) and pass `{ consumes: challenge.id }` down to
 * startSession, whose transaction then uses the challenge up with the session.
 */
const CHALLENGE_CONSUMED_ALONE = /CHALLENGE: changed consumedAt|the retry answered 401 INVALID_CODE/;

const cases: [string, Operation<any>, RegExp | undefined][] = [
  ['POST /auth/login with a password', passwordLogin({ totp: false }), undefined],
  ['POST /auth/login with a password, for a user with TOTP', passwordLogin({ totp: true }), undefined],
  ['POST /auth/login/verify with a TOTP code', totpVerify, CHALLENGE_CONSUMED_ALONE],
  ['POST /auth/login for an e-mail code', codeLogin, undefined],
  ['POST /auth/login/verify with an e-mail code', codeVerify, CHALLENGE_CONSUMED_ALONE],
];

describe.each(cases)('%s under DynamoDB faults', (_name, operation, knownGap) => {
  let trace: Trace;
  const matrices = new Map<FaultKind[], Promise<string[]>>();
  /** The problems of one fault matrix, run once for the tests that look at it. */
  const problems = (kinds: FaultKind[]) => {
    if (!matrices.has(kinds)) matrices.set(kinds, faultMatrix(operation, kinds, trace));
    return matrices.get(kinds) as Promise<string[]>;
  };
  const besidesTheGap = (found: string[]) => found.filter((problem) => !knownGap?.test(problem));
  beforeAll(async () => {
    trace = await traceOf(operation);
  });

  it('answers 503 UNAVAILABLE, leaves nothing half-written and works on retry, whichever call is throttled', async () => {
    expect(besidesTheGap(await problems(THROTTLING))).toEqual([]);
  }, 120_000);

  it('answers 503 UNAVAILABLE, leaves nothing half-written and works on retry, whichever call fails', async () => {
    expect(besidesTheGap(await problems(INTERNAL))).toEqual([]);
  }, 120_000);

  if (knownGap) {
    // Was a known gap (the challenge used up on its own before the session): the code is now used up in the
    // login's own transaction, so a fault anywhere before it leaves the code good for the retry.
    it('keeps the challenge usable after a fault past the code check (CHALLENGE_CONSUMED_ALONE)', async () => {
      const found = [...(await problems(THROTTLING)), ...(await problems(INTERNAL))];
      expect(found.filter((problem) => knownGap.test(problem))).toEqual([]);
    }, 120_000);
  }
});
