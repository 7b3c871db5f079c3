import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { totpCodeAt } from '#shared/auth/totp.ts';
import { keys } from '#shared/store/keys.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import { toUserResponse } from '#shared/users/view.ts';
import { aTenantWith, aUser, latestCodeTo, type TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { type Answer, expectProblem, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();
const deps = makeTestDeps();

const WRONG = 'Wrong-pass-1';
const USER_AGENT = 'lockout-test/1.0';

function login(tenant: TestTenant, body: Record<string, unknown>) {
  return post(`${api.url}/auth/login`, body, { ...tenant.headers, 'user-agent': USER_AGENT });
}

function verify(tenant: TestTenant, challengeId: string, code: string) {
  return post(`${api.url}/auth/login/verify`, { challengeId, code }, { ...tenant.headers, 'user-agent': USER_AGENT });
}

/** 429 TOO_MANY_ATTEMPTS with a Retry-After in whole seconds, within the 15-minute lock. */
function expectLocked(res: Answer) {
  expectProblem(res, 429, 'TOO_MANY_ATTEMPTS');
  const retryAfter = res.headers.get('retry-after') ?? '';
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThan(0);
  expect(Number(retryAfter)).toBeLessThanOrEqual(900);
}

/** Status and code of each answer, in order. */
const outcomes = (answers: Answer[]) => answers.map((res) => `${res.status} ${res.body?.code ?? ''}`.trim());

async function wrongPasswords(tenant: TestTenant, email: string, count: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i++) answers.push(await login(tenant, { email, password: WRONG }));
  return answers;
}

const wrongCodeFor = (right: string) => (right === '000000' ? '000001' : '000000');

describe('lockout of POST /auth/login', () => {
  it('answers 5 wrong passwords with 401, then 429 TOO_MANY_ATTEMPTS with Retry-After even for the right password', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const failures = await wrongPasswords(tenant, user.email, 5);
    for (const res of failures) expectProblem(res, 401, 'INVALID_CREDENTIALS');
    expectLocked(await login(tenant, { email: user.email, password: user.password }));
    expectLocked(await login(tenant, { email: user.email, password: WRONG }));
  });

  it('counts an e-mail with no account the same: the same answers in the same order', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const known = [...(await wrongPasswords(tenant, user.email, 5))];
    known.push(await login(tenant, { email: user.email, password: user.password }));
    const nobody = `nobody-${user.id}@shop.test`;
    const unknown = [...(await wrongPasswords(tenant, nobody, 5))];
    unknown.push(await login(tenant, { email: nobody, password: user.password }));
    expect(outcomes(unknown)).toEqual(outcomes(known));
    expect(outcomes(known)).toEqual([...Array(5).fill('401 INVALID_CREDENTIALS'), '429 TOO_MANY_ATTEMPTS']);
    expectLocked(unknown[5] as Answer);
    expect(unknown[5]?.body).toEqual(known[5]?.body);
  });

  it('counts the e-mail however it is cased or padded', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const spellings = [
      user.email,
      user.email.toUpperCase(),
      ` ${user.email}`,
      user.email,
      `${user.email.toUpperCase()} `,
    ];
    for (const email of spellings)
      expectProblem(await login(tenant, { email, password: WRONG }), 401, 'INVALID_CREDENTIALS');
    expectLocked(await login(tenant, { email: user.email, password: user.password }));
  });

  it('leaves another e-mail of the tenant and the same e-mail in another tenant unaffected', async () => {
    const tenant = await aTenantWith();
    const otherTenant = await aTenantWith();
    const user = await aUser(tenant);
    const neighbour = await aUser(tenant);
    const twin = await aUser(otherTenant, { email: user.email });
    await wrongPasswords(tenant, user.email, 5);
    expectLocked(await login(tenant, { email: user.email, password: user.password }));
    expect((await login(tenant, { email: neighbour.email, password: neighbour.password })).status).toBe(200);
    expect((await login(otherTenant, { email: twin.email, password: twin.password })).status).toBe(200);
  });

  it('counts wrong e-mail codes of a login challenge: after 5, the right password answers 429', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' });
    const user = await aUser(tenant);
    const { challengeId } = (await login(tenant, { email: user.email })).body.data;
    const wrong = wrongCodeFor(await latestCodeTo(api.stack.sesUrl, user.email));
    for (let i = 0; i < 5; i++) expectProblem(await verify(tenant, challengeId, wrong), 401, 'INVALID_CODE');
    expectLocked(await login(tenant, { email: user.email, password: user.password }));
    expectLocked(await login(tenant, { email: user.email }));
  });

  it('counts wrong codes over several challenges together with wrong passwords', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' });
    const user = await aUser(tenant);
    await wrongPasswords(tenant, user.email, 2);
    for (let round = 0; round < 3; round++) {
      const { challengeId } = (await login(tenant, { email: user.email })).body.data;
      const wrong = wrongCodeFor(await latestCodeTo(api.stack.sesUrl, user.email));
      expectProblem(await verify(tenant, challengeId, wrong), 401, 'INVALID_CODE');
    }
    expectLocked(await login(tenant, { email: user.email, password: user.password }));
  });

  it('counts wrong TOTP codes: a password holder cannot guess TOTP codes without being locked out', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { totp: true });
    const secret = user.totpSecret ?? '';
    const live = [-30_000, 0, 30_000].map((offset) => totpCodeAt(secret, new Date(Date.now() + offset)));
    const wrong = ['000000', '111111', '222222', '333333'].find((code) => !live.includes(code)) ?? '444444';
    const { challengeId } = (await login(tenant, { email: user.email, password: user.password })).body.data;
    for (let i = 0; i < 5; i++) expectProblem(await verify(tenant, challengeId, wrong), 401, 'INVALID_CODE');
    expectLocked(await login(tenant, { email: user.email, password: user.password }));
  });

  it('answers 429 to a live TOTP challenge of a user locked meanwhile, even with the right code', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant, { totp: true });
    const { challengeId } = (await login(tenant, { email: user.email, password: user.password })).body.data;
    await wrongPasswords(tenant, user.email, 5);
    expectLocked(await verify(tenant, challengeId, totpCodeAt(user.totpSecret ?? '', new Date())));
  });

  it('starts the count again after a successful login: 4 wrong, 1 right, 4 wrong are all answered, not 429', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    for (const res of await wrongPasswords(tenant, user.email, 4)) expectProblem(res, 401, 'INVALID_CREDENTIALS');
    expect((await login(tenant, { email: user.email, password: user.password })).status).toBe(200);
    for (const res of await wrongPasswords(tenant, user.email, 4)) expectProblem(res, 401, 'INVALID_CREDENTIALS');
    // The fifth failure since the success locks, as a fresh count would.
    expectProblem(await login(tenant, { email: user.email, password: WRONG }), 401, 'INVALID_CREDENTIALS');
    expectLocked(await login(tenant, { email: user.email, password: user.password }));
  });

  it('starts the count again after a successful e-mail code login', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL' });
    const user = await aUser(tenant);
    await wrongPasswords(tenant, user.email, 4);
    const { challengeId } = (await login(tenant, { email: user.email })).body.data;
    const code = await latestCodeTo(api.stack.sesUrl, user.email);
    expect((await verify(tenant, challengeId, code)).status).toBe(200);
    for (const res of await wrongPasswords(tenant, user.email, 4)) expectProblem(res, 401, 'INVALID_CREDENTIALS');
  });

  it('shows the locked user as TIMED_OUT, and ACTIVE before the lock', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const shownStatus = async () => {
      const stored = await userRepo(deps.store).get(tenant, user.id);
      if (!stored) throw new Error('the user is gone');
      return toUserResponse(stored, new Date()).status;
    };
    await wrongPasswords(tenant, user.email, 4);
    expect(await shownStatus()).toBe('ACTIVE');
    await wrongPasswords(tenant, user.email, 1);
    expect(await shownStatus()).toBe('TIMED_OUT');
  });

  it('records LOGIN_FAILED for each failure and ACCOUNT_LOCKED once, with the IP and User-Agent', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    await wrongPasswords(tenant, user.email, 5);
    const { Items = [] } = await deps.store.doc.send(
      new QueryCommand({
        TableName: deps.store.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.activityPartition(tenant, user.id) },
        ConsistentRead: true,
      }),
    );
    expect(Items.map((item) => item.type).sort()).toEqual([
      'ACCOUNT_LOCKED',
      'LOGIN_FAILED',
      'LOGIN_FAILED',
      'LOGIN_FAILED',
      'LOGIN_FAILED',
      'LOGIN_FAILED',
    ]);
    for (const item of Items) {
      expect(item).toMatchObject({ userId: user.id, actorId: user.id, userAgent: USER_AGENT });
      expect(item.ip).toMatch(/^(127\.0\.0\.1|::1)$/);
    }
  });
});
