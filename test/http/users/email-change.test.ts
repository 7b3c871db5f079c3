import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '#shared/store/keys.ts';
import { aTenantWith, aUser, latestCodeTo, mailsTo, type TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { bearer, expectProblem, identityApi, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();
const deps = makeTestDeps();
const { call, login, logIn } = identityApi(() => api.url);

/** An address no other test uses (and that no other address contains, for `mailsTo`). */
const freshAddress = (domain = 'elsewhere.test') => `moved-${randomUUID()}@${domain}`;

const requestChange = (tenant: TestTenant, token: string, newEmail: string) =>
  post(`${api.url}/users/me/email-change`, { newEmail }, bearer(tenant, token));

const verifyChange = (tenant: TestTenant, token: string, challengeId: string, code: string) =>
  post(`${api.url}/users/me/email-change/verify`, { challengeId, code }, bearer(tenant, token));

async function getMe(tenant: TestTenant, token: string) {
  const res = await call('GET', '/users/me', bearer(tenant, token));
  expect(res.status).toBe(200);
  return res.body as { id: string; email: string; emailStatus: string };
}

/** Asks for a change to `newEmail` and reads the code mailed to it. */
async function startChange(tenant: TestTenant, token: string, newEmail: string) {
  const res = await requestChange(tenant, token, newEmail);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ challengeId: expect.any(String) });
  return { challengeId: res.body.challengeId as string, code: await latestCodeTo(api.stack.sesUrl, newEmail) };
}

const otherCode = (code: string) => (code === '000000' ? '000001' : '000000');

async function activityTypes(tenant: TestTenant, userId: string): Promise<string[]> {
  const { Items } = await deps.store.doc.send(
    new QueryCommand({
      TableName: deps.store.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.activityPartition(tenant, userId) },
    }),
  );
  return (Items ?? []).map((item) => item.type as string);
}

describe('POST /users/me/email-change and /verify', () => {
  it('mails the code to the new address only, and the code moves the account to it', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    const newEmail = freshAddress();
    const mailsToOldBefore = (await mailsTo(api.stack.sesUrl, user.email)).length;

    const { challengeId, code } = await startChange(tenant, token, newEmail);
    expect(await mailsTo(api.stack.sesUrl, newEmail)).toHaveLength(1);
    // The old address gets a notice of the request (below), never the code.
    const toOld = (await mailsTo(api.stack.sesUrl, user.email)).slice(mailsToOldBefore);
    expect(toOld.map((mail) => mail.body.text).join('\n')).not.toContain(code);

    const res = await verifyChange(tenant, token, challengeId, code);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ challengeId, type: 'EMAIL', status: 'COMPLETED' });
    expect(await getMe(tenant, token)).toMatchObject({ id: user.id, email: newEmail, emailStatus: 'VALIDATED' });
  });

  it('mails nothing for a second request to the same address within the minute: its challenge takes the code already mailed', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    const newEmail = freshAddress();
    const first = await startChange(tenant, token, newEmail);
    const again = await requestChange(tenant, token, newEmail);
    expect(again.status).toBe(200);
    expect(await mailsTo(api.stack.sesUrl, newEmail)).toHaveLength(1);

    const res = await verifyChange(tenant, token, again.body.challengeId, first.code);
    expect(res.status).toBe(200);
    expect(await getMe(tenant, token)).toMatchObject({ email: newEmail, emailStatus: 'VALIDATED' });
    // One code, one change: the first challenge no longer takes it.
    expectProblem(await verifyChange(tenant, token, first.challengeId, first.code), 401, 'INVALID_CODE');
  });

  it('lets the user log in with the new address and no longer with the old one', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    const newEmail = freshAddress();
    const { challengeId, code } = await startChange(tenant, token, newEmail);
    expect((await verifyChange(tenant, token, challengeId, code)).status).toBe(200);

    const withNew = await login(tenant, newEmail, user.password);
    expect(withNew.status).toBe(200);
    expect(withNew.body.data.user).toMatchObject({ id: user.id, email: newEmail });
    expectProblem(await login(tenant, user.email, user.password), 401, 'INVALID_CREDENTIALS');
  });

  it('tells the old address when the change is requested, before any code is answered', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    const newEmail = freshAddress();
    const before = (await mailsTo(api.stack.sesUrl, user.email)).length;
    const { code } = await startChange(tenant, token, newEmail);

    const notices = (await mailsTo(api.stack.sesUrl, user.email)).slice(before);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.subject).toMatch(/change of your .* e-mail address was requested/);
    expect(notices[0]?.body.text).toContain(newEmail);
    expect(notices[0]?.body.text).not.toContain(code);
    // Nothing moved yet: the account keeps its address until the code is answered.
    expect(await getMe(tenant, token)).toMatchObject({ email: user.email });
  });

  it('sends the old address a notice naming the new one, and records EMAIL_CHANGE', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    const newEmail = freshAddress();
    const { challengeId, code } = await startChange(tenant, token, newEmail);
    expect((await verifyChange(tenant, token, challengeId, code)).status).toBe(200);

    const notice = (await mailsTo(api.stack.sesUrl, user.email)).at(-1);
    expect(notice?.body.text).toContain(newEmail);
    expect(notice?.body.text).not.toContain(code);
    expect(await activityTypes(tenant, user.id)).toContain('EMAIL_CHANGE');
  });

  it('trims and lower-cases the new address', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    const newEmail = freshAddress();
    const res = await requestChange(tenant, token, `  ${newEmail.toUpperCase()} `);
    expect(res.status).toBe(200);
    const code = await latestCodeTo(api.stack.sesUrl, newEmail);
    expect((await verifyChange(tenant, token, res.body.challengeId, code)).status).toBe(200);
    expect((await getMe(tenant, token)).email).toBe(newEmail);
    expect((await login(tenant, newEmail, user.password)).status).toBe(200);
  });

  it('returns 401 INVALID_CODE for a wrong code, and the right code still works', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    const newEmail = freshAddress();
    const { challengeId, code } = await startChange(tenant, token, newEmail);
    expectProblem(await verifyChange(tenant, token, challengeId, otherCode(code)), 401, 'INVALID_CODE');
    expect((await getMe(tenant, token)).email).toBe(user.email);
    expect((await verifyChange(tenant, token, challengeId, code)).status).toBe(200);
  });

  it('accepts the code once: the same code again returns 401 INVALID_CODE', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    const { challengeId, code } = await startChange(tenant, token, freshAddress());
    expect((await verifyChange(tenant, token, challengeId, code)).status).toBe(200);
    expectProblem(await verifyChange(tenant, token, challengeId, code), 401, 'INVALID_CODE');
  });

  it('kills the challenge after 5 wrong codes: the right code then returns 401 INVALID_CODE', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    const { challengeId, code } = await startChange(tenant, token, freshAddress());
    for (let i = 0; i < 5; i++) {
      expectProblem(await verifyChange(tenant, token, challengeId, otherCode(code)), 401, 'INVALID_CODE');
    }
    expectProblem(await verifyChange(tenant, token, challengeId, code), 401, 'INVALID_CODE');
    expect((await getMe(tenant, token)).email).toBe(user.email);
  });

  it("returns 401 INVALID_CODE for another user's challenge, and changes nothing", async () => {
    const tenant = await aTenantWith();
    const me = await aUser(tenant);
    const other = await aUser(tenant);
    const { accessToken: myToken } = await logIn(tenant, me.email, me.password);
    const { accessToken: otherToken } = await logIn(tenant, other.email, other.password);
    const newEmail = freshAddress();
    const { challengeId, code } = await startChange(tenant, otherToken, newEmail);

    expectProblem(await verifyChange(tenant, myToken, challengeId, code), 401, 'INVALID_CODE');
    expect((await getMe(tenant, myToken)).email).toBe(me.email);
    expect((await getMe(tenant, otherToken)).email).toBe(other.email);
    expectProblem(await login(tenant, newEmail, me.password), 401, 'INVALID_CREDENTIALS');
    // The owner's challenge was not used up by the attempt.
    expect((await verifyChange(tenant, otherToken, challengeId, code)).status).toBe(200);
    expect((await getMe(tenant, otherToken)).email).toBe(newEmail);
  });

  it('returns 400 VALIDATION_FAILED naming newEmail for my own current address (in any case)', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    for (const same of [user.email, ` ${user.email.toUpperCase()} `]) {
      const res = await requestChange(tenant, token, same);
      expectProblem(res, 400, 'VALIDATION_FAILED');
      expect(res.body.errors).toEqual([expect.objectContaining({ path: 'newEmail' })]);
    }
  });

  it('returns 400 VALIDATION_FAILED naming newEmail for an invalid address, and mails nothing', async () => {
    const tenant = await aTenantWith();
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    for (const bad of ['not-an-email', '', `${'a'.repeat(250)}@x.test`]) {
      const res = await requestChange(tenant, token, bad);
      expectProblem(res, 400, 'VALIDATION_FAILED');
      expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'newEmail' })]));
    }
    expect(await mailsTo(api.stack.sesUrl, 'not-an-email')).toHaveLength(0);
  });

  it('answers 200 for an address another user holds, then 409 CONFLICT at verify; both keep their addresses', async () => {
    const tenant = await aTenantWith();
    const me = await aUser(tenant);
    const other = await aUser(tenant, { email: freshAddress('shop.test') });
    const { accessToken: token } = await logIn(tenant, me.email, me.password);

    const started = await requestChange(tenant, token, other.email);
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ challengeId: expect.any(String) });
    const code = await latestCodeTo(api.stack.sesUrl, other.email);

    expectProblem(await verifyChange(tenant, token, started.body.challengeId, code), 409, 'CONFLICT');
    expect((await getMe(tenant, token)).email).toBe(me.email);
    const otherLogin = await login(tenant, other.email, other.password);
    expect(otherLogin.status).toBe(200);
    expect(otherLogin.body.data.user).toMatchObject({ id: other.id, email: other.email });
    expect((await login(tenant, me.email, me.password)).status).toBe(200);
    expect(await activityTypes(tenant, me.id)).not.toContain('EMAIL_CHANGE');
  });

  it('scopes uniqueness to the tenant: an address used in another tenant can be taken', async () => {
    const tenant = await aTenantWith();
    const elsewhere = await aTenantWith();
    const newEmail = freshAddress();
    const stranger = await aUser(elsewhere, { email: newEmail });
    const user = await aUser(tenant);
    const { accessToken: token } = await logIn(tenant, user.email, user.password);
    const { challengeId, code } = await startChange(tenant, token, newEmail);
    expect((await verifyChange(tenant, token, challengeId, code)).status).toBe(200);

    expect((await login(tenant, newEmail, user.password)).body.data.user.id).toBe(user.id);
    expect((await login(elsewhere, newEmail, stranger.password)).body.data.user.id).toBe(stranger.id);
  });
});
