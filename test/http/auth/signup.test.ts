import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { hashCode, hashToken } from '#shared/auth/codes.ts';
import { createInvitation } from '#shared/auth/invitations.ts';
import { keys } from '#shared/store/keys.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import { aTenantWith, aUser, forgetMailsTo, latestCodeTo, mailsTo, type TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { expectProblem, identityApi, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

// Signups per IP and hour at the deployment's default (infra/config.ts), as the test of that limit needs.
const SIGNUPS_PER_IP_PER_HOUR = 20;
const api = useLocalStack({ signupsPerIpPerHour: SIGNUPS_PER_IP_PER_HOUR });
const { login } = identityApi(() => api.url);
const deps = makeTestDeps();

let counter = 0;
/** A fresh address, lower-case, unique across workers and runs. */
const anEmail = (name = 'ada') => `${name}-${process.pid}-${Date.now().toString(36)}-${++counter}@shop.test`;
const PASSWORD = 'Monstera-42-leaf';

function signupBody(tenant: TestTenant, fields: Record<string, unknown> = {}) {
  return { app: tenant.app, mid: tenant.mid, password: PASSWORD, firstName: 'Ada', lastName: 'Lovelace', ...fields };
}

const signup = (tenant: TestTenant, body: Record<string, unknown>, headers = tenant.headers) =>
  post(`${api.url}/auth/signup`, body, headers);
const verify = (tenant: TestTenant, challengeId: string, code: string) =>
  post(`${api.url}/auth/signup/verify`, { challengeId, code }, tenant.headers);

/** Any 6-digit code other than `code`. */
const otherThan = (code: string) => (code === '000000' ? '111111' : '000000');

/** Signs up with a new e-mail and returns the challenge and the mailed code. */
async function startSignup(tenant: TestTenant, fields: Record<string, unknown> = {}) {
  const email = (fields.email as string | undefined) ?? anEmail();
  const res = await signup(tenant, signupBody(tenant, { email, ...fields }));
  expect(res.status).toBe(201);
  const challengeId = res.body.data.challengeId as string;
  return { email, challengeId, code: await latestCodeTo(api.stack.sesUrl, email) };
}

describe('POST /auth/signup (OPEN tenant)', () => {
  it('answers 201 with a challengeId, mails a code, and the code activates and logs the user in', async () => {
    const tenant = await aTenantWith({ signupMode: 'OPEN' });
    const email = anEmail();
    const res = await signup(tenant, signupBody(tenant, { email }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, data: { challengeId: expect.any(String) } });
    const mails = await mailsTo(api.stack.sesUrl, email);
    expect(mails).toHaveLength(1);
    const code = await latestCodeTo(api.stack.sesUrl, email);

    const verified = await verify(tenant, res.body.data.challengeId, code);
    expect(verified.status).toBe(200);
    expect(verified.body.success).toBe(true);
    const data = verified.body.data;
    expect(data).toMatchObject({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      tokenType: 'Bearer',
      expiresIn: 900,
    });
    expect(data.user).toMatchObject({
      email,
      status: 'ACTIVE',
      emailStatus: 'VALIDATED',
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: null,
      totpEnabled: false,
    });
    expect(data.user.roles.map((r: { name: string }) => r.name)).toContain('DEFAULT');

    const loggedIn = await login(tenant, email, PASSWORD);
    expect(loggedIn.status).toBe(200);
    expect(loggedIn.body.data.user.id).toBe(data.user.id);
  });

  it('keeps the phone given at signup', async () => {
    const tenant = await aTenantWith();
    const { challengeId, code } = await startSignup(tenant, { phone: '+44 20 7946 0000' });
    const verified = await verify(tenant, challengeId, code);
    expect(verified.status).toBe(200);
    expect(verified.body.data.user.phone).toBe('+44 20 7946 0000');
  });

  it('trims the e-mail and compares it case-insensitively', async () => {
    const tenant = await aTenantWith();
    const email = anEmail('ada');
    const messy = `  ${email.replace('ada', 'Ada').replace('shop.test', 'Shop.TEST')} `;
    const res = await signup(tenant, signupBody(tenant, { email: messy }));
    expect(res.status).toBe(201);
    const code = await latestCodeTo(api.stack.sesUrl, email);
    const verified = await verify(tenant, res.body.data.challengeId, code);
    expect(verified.status).toBe(200);
    expect(verified.body.data.user.email).toBe(email);
    expect((await login(tenant, email, PASSWORD)).status).toBe(200);
  });
});

describe('POST /auth/signup (no enumeration)', () => {
  it('answers an already registered e-mail like a new one and mails its owner a notice without a code', async () => {
    const tenant = await aTenantWith();
    const owner = await aUser(tenant);
    const fresh = await signup(tenant, signupBody(tenant, { email: anEmail() }));
    const taken = await signup(tenant, signupBody(tenant, { email: owner.email, password: 'Another-77-pass' }));

    expect(taken.status).toBe(fresh.status);
    expect(taken.status).toBe(201);
    expect(Object.keys(taken.body)).toEqual(Object.keys(fresh.body));
    expect(taken.body).toEqual({ success: true, data: { challengeId: expect.any(String) } });
    // Same id format: no prefix or length that would tell a decoy apart.
    expect(taken.body.data.challengeId.length).toBe(fresh.body.data.challengeId.length);
    expect(taken.body.data.challengeId.replace(/[0-9a-z]/g, 'x')).toBe(
      fresh.body.data.challengeId.replace(/[0-9a-z]/g, 'x'),
    );

    const mails = await mailsTo(api.stack.sesUrl, owner.email);
    expect(mails).toHaveLength(1);
    const notice = mails[0];
    expect(notice?.subject).toMatch(/already have/i);
    // The tenant name ("Shop <pid>-…") may hold digits; nothing else in the notice may look like a code.
    expect(notice?.body.text.replace(/Shop [\w-]+/g, 'Shop')).not.toMatch(/\b\d{6}\b/);
    expect(notice?.body.html.replace(/Shop [\w-]+/g, 'Shop')).not.toMatch(/>\s*\d{6}\s*</);
  });

  it('answers 401 INVALID_CODE to every code for the challenge of an already registered e-mail, even its own', async () => {
    const tenant = await aTenantWith();
    const owner = await aUser(tenant);
    const taken = await signup(tenant, signupBody(tenant, { email: owner.email, password: 'Another-77-pass' }));
    const challengeId = taken.body.data.challengeId as string;
    // White-box: find the one code that hashes to the stored value, to show that even it is refused.
    const { Item } = await deps.store.doc.send(
      new GetCommand({ TableName: deps.store.tableName, Key: keys.challenge(tenant, challengeId) }),
    );
    expect(Item).toBeDefined();
    const codes = ['000000', '123456'];
    if (Item?.codeHash) {
      // In slices, giving the event loop back between them: blocked for the whole search, the stack's idle
      // keep-alive connections closed just as the next request was sent on one (ECONNRESET on a busy machine).
      let stored: string | undefined;
      for (let start = 0; start < 1_000_000 && !stored; start += 50_000) {
        for (let i = start; i < start + 50_000 && !stored; i++) {
          const candidate = String(i).padStart(6, '0');
          if (hashCode(candidate, challengeId) === Item.codeHash) stored = candidate;
        }
        await new Promise((resume) => setImmediate(resume));
      }
      expect(stored).toMatch(/^\d{6}$/);
      codes.unshift(stored as string);
    }
    for (const code of codes) {
      expectProblem(await verify(tenant, challengeId, code), 401, 'INVALID_CODE');
    }
  });

  it("leaves the existing user's password as it was", async () => {
    const tenant = await aTenantWith();
    const owner = await aUser(tenant);
    await signup(tenant, signupBody(tenant, { email: owner.email, password: 'Another-77-pass' }));
    expect((await login(tenant, owner.email, owner.password)).status).toBe(200);
    expectProblem(await login(tenant, owner.email, 'Another-77-pass'), 401, 'INVALID_CREDENTIALS');
  });
});

describe('POST /auth/signup (never verified)', () => {
  it('mails a fresh code to an INACTIVE user; the newest code activates with the latest details', async () => {
    const tenant = await aTenantWith();
    const first = await startSignup(tenant, { password: 'First-11-pass' });
    // A minute later, as far as the mail limit goes (one code a minute per address).
    await forgetMailsTo(tenant, 'SIGNUP', first.email);
    const second = await signup(
      tenant,
      signupBody(tenant, { email: first.email, password: 'Second-22-pass', firstName: 'Grace', lastName: 'Hopper' }),
    );
    expect(second.status).toBe(201);
    expect(second.body.data.challengeId).not.toBe(first.challengeId);
    expect(await mailsTo(api.stack.sesUrl, first.email)).toHaveLength(2);
    const code = await latestCodeTo(api.stack.sesUrl, first.email);

    const verified = await verify(tenant, second.body.data.challengeId, code);
    expect(verified.status).toBe(200);
    expect(verified.body.data.user).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', status: 'ACTIVE' });
    expect((await login(tenant, first.email, 'Second-22-pass')).status).toBe(200);
    expectProblem(await login(tenant, first.email, 'First-11-pass'), 401, 'INVALID_CREDENTIALS');
    // The older challenge cannot re-apply the first signup's details once the user is active.
    expectProblem(await verify(tenant, first.challengeId, first.code), 401, 'INVALID_CODE');
    expect((await login(tenant, first.email, 'Second-22-pass')).status).toBe(200);
  });

  it('does not let an INACTIVE user log in before the code is verified', async () => {
    const tenant = await aTenantWith();
    const { email } = await startSignup(tenant);
    const res = await login(tenant, email, PASSWORD);
    // 401 (the password is not set until the code is verified) or 403 ACCOUNT_INACTIVE: never tokens.
    expect([401, 403]).toContain(res.status);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body.data).toBeUndefined();
  });
});

describe('POST /auth/signup (validation)', () => {
  it('returns 400 VALIDATION_FAILED naming phone for a phone that is no number, and mails nothing', async () => {
    const tenant = await aTenantWith();
    const email = anEmail('ada');
    const res = await signup(tenant, signupBody(tenant, { email, phone: 'call me maybe' }));
    expectProblem(res, 400, 'VALIDATION_FAILED');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['phone']);
    expect(await mailsTo(api.stack.sesUrl, email)).toEqual([]);
  });

  it('returns 400 VALIDATION_FAILED naming an unknown body field', async () => {
    const tenant = await aTenantWith();
    const res = await signup(tenant, signupBody(tenant, { email: anEmail(), role: 'ADMIN' }));
    expectProblem(res, 400, 'VALIDATION_FAILED');
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'role' })]));
  });

  it('returns 400 VALIDATION_FAILED naming __proto__ when the body carries it', async () => {
    const tenant = await aTenantWith();
    const email = anEmail();
    const body = JSON.stringify(signupBody(tenant, { email })).replace(/^\{/, '{"__proto__":{"status":"ACTIVE"},');
    const res = await fetch(`${api.url}/auth/signup`, { method: 'POST', headers: tenant.headers, body });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await res.json()) as { code: string; errors: { path: string }[] };
    expect(problem.code).toBe('VALIDATION_FAILED');
    expect(problem.errors.map((e) => e.path)).toContain('__proto__');
    expect(await mailsTo(api.stack.sesUrl, email)).toEqual([]);
  });

  it.each([
    ['too short', 'Ab1cdef'],
    ['without a digit', 'Monstera-leaf'],
    ['without a letter', '1234-5678-90'],
  ])('returns 400 VALIDATION_FAILED on password for a password %s', async (_, password) => {
    const tenant = await aTenantWith();
    const email = anEmail();
    const res = await signup(tenant, signupBody(tenant, { email, password }));
    expectProblem(res, 400, 'VALIDATION_FAILED');
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'password' })]));
    expect(await mailsTo(api.stack.sesUrl, email)).toEqual([]);
  });

  it.each(['password123', 'Password1', 'qwerty123'])(
    'returns 400 PASSWORD_TOO_COMMON for the common password %s',
    async (password) => {
      const tenant = await aTenantWith();
      const email = anEmail();
      const res = await signup(tenant, signupBody(tenant, { email, password }));
      expectProblem(res, 400, 'PASSWORD_TOO_COMMON');
      expect(res.body.errors).toEqual([expect.objectContaining({ path: 'password' })]);
      expect(await mailsTo(api.stack.sesUrl, email)).toEqual([]);
    },
  );

  it('returns 400 VALIDATION_FAILED on password when a PASSWORD tenant gets no password', async () => {
    const tenant = await aTenantWith({ loginMode: 'PASSWORD' });
    const { password: _dropped, ...body } = signupBody(tenant, { email: anEmail() });
    const res = await signup(tenant, body);
    expectProblem(res, 400, 'VALIDATION_FAILED');
    expect(res.body.errors).toEqual([expect.objectContaining({ path: 'password' })]);
  });

  it("returns 403 TENANT_MISMATCH when the body names another tenant's app and mid", async () => {
    const tenant = await aTenantWith();
    const other = await aTenantWith();
    const email = anEmail();
    const res = await signup(tenant, signupBody(tenant, { email, app: other.app, mid: other.mid }));
    expectProblem(res, 403, 'TENANT_MISMATCH');
    expect(await mailsTo(api.stack.sesUrl, email)).toEqual([]);
    const half = await signup(tenant, signupBody(tenant, { email, mid: other.mid }));
    expectProblem(half, 403, 'TENANT_MISMATCH');
  });

  it('returns 400 TENANT_REQUIRED without the tenant headers', async () => {
    const tenant = await aTenantWith();
    const res = await signup(tenant, signupBody(tenant, { email: anEmail() }), { 'content-type': 'application/json' });
    expectProblem(res, 400, 'TENANT_REQUIRED');
  });
});

describe('POST /auth/signup (invitations)', () => {
  async function anInvitation(tenant: TestTenant, email = anEmail('invitee'), by = deps) {
    const invitation = await createInvitation(by, tenant, { email, invitedBy: 'usr_x' });
    return { email, ...invitation };
  }

  it('returns 403 SIGNUP_NOT_ALLOWED in an INVITATION_ONLY tenant without an invitationToken', async () => {
    const tenant = await aTenantWith({ signupMode: 'INVITATION_ONLY' });
    const email = anEmail();
    const res = await signup(tenant, signupBody(tenant, { email }));
    expectProblem(res, 403, 'SIGNUP_NOT_ALLOWED');
    expect(await mailsTo(api.stack.sesUrl, email)).toEqual([]);
    expect(await userRepo(deps.store).findByEmail(tenant, email, deps.clock.now())).toBeNull();
  });

  it('answers 201 { success, data: null } to a valid invitation; the user is ACTIVE and VALIDATED and logs in', async () => {
    const tenant = await aTenantWith({ signupMode: 'INVITATION_ONLY' });
    const { email, invitationToken, userId } = await anInvitation(tenant);
    const res = await signup(tenant, signupBody(tenant, { email, invitationToken, firstName: 'Ida' }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, data: null });

    const loggedIn = await login(tenant, email, PASSWORD);
    expect(loggedIn.status).toBe(200);
    expect(loggedIn.body.data.user).toMatchObject({
      id: userId,
      email,
      status: 'ACTIVE',
      emailStatus: 'VALIDATED',
      firstName: 'Ida',
      lastName: 'Lovelace',
    });
    expect(loggedIn.body.data.user.roles.map((r: { name: string }) => r.name)).toContain('DEFAULT');
  });

  it('returns 403 SIGNUP_NOT_ALLOWED when an invitation is used a second time', async () => {
    const tenant = await aTenantWith({ signupMode: 'INVITATION_ONLY' });
    const { email, invitationToken } = await anInvitation(tenant);
    expect((await signup(tenant, signupBody(tenant, { email, invitationToken }))).status).toBe(201);
    const again = await signup(tenant, signupBody(tenant, { email, invitationToken, password: 'Second-22-pass' }));
    expectProblem(again, 403, 'SIGNUP_NOT_ALLOWED');
    // The replay changed nothing: the first password still works, the second does not.
    expect((await login(tenant, email, PASSWORD)).status).toBe(200);
    expectProblem(await login(tenant, email, 'Second-22-pass'), 401, 'INVALID_CREDENTIALS');
  });

  it('accepts one of two simultaneous signups with one invitation and refuses the other with 403', async () => {
    const tenant = await aTenantWith({ signupMode: 'INVITATION_ONLY' });
    const { email, invitationToken } = await anInvitation(tenant);
    const answers = await Promise.all([
      signup(tenant, signupBody(tenant, { email, invitationToken })),
      signup(tenant, signupBody(tenant, { email, invitationToken, password: 'Second-22-pass' })),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 403]);
    const refused = answers.find((a) => a.status === 403);
    expect(refused?.body.code).toBe('SIGNUP_NOT_ALLOWED');
    const winner = answers[0]?.status === 201 ? PASSWORD : 'Second-22-pass';
    const loser = winner === PASSWORD ? 'Second-22-pass' : PASSWORD;
    expect((await login(tenant, email, winner)).status).toBe(200);
    expectProblem(await login(tenant, email, loser), 401, 'INVALID_CREDENTIALS');
  });

  it('returns 403 SIGNUP_NOT_ALLOWED for an invitation made out to another e-mail', async () => {
    const tenant = await aTenantWith({ signupMode: 'INVITATION_ONLY' });
    const { invitationToken, email: invited } = await anInvitation(tenant);
    const stranger = anEmail('stranger');
    const res = await signup(tenant, signupBody(tenant, { email: stranger, invitationToken }));
    expectProblem(res, 403, 'SIGNUP_NOT_ALLOWED');
    expect(await userRepo(deps.store).findByEmail(tenant, stranger, deps.clock.now())).toBeNull();
    expect((await userRepo(deps.store).findByEmail(tenant, invited, deps.clock.now()))?.status).toBe('INVITED');
  });

  it('returns 403 SIGNUP_NOT_ALLOWED for an invitation older than 7 days', async () => {
    const tenant = await aTenantWith({ signupMode: 'INVITATION_ONLY' });
    const past = makeTestDeps({ clock: { now: () => new Date(Date.now() - 8 * 86_400_000) } });
    const { email, invitationToken } = await anInvitation(tenant, anEmail('late'), past);
    const res = await signup(tenant, signupBody(tenant, { email, invitationToken }));
    expectProblem(res, 403, 'SIGNUP_NOT_ALLOWED');
    expect((await userRepo(deps.store).findByEmail(tenant, email, deps.clock.now()))?.status).toBe('INVITED');
  });

  it('returns 403 SIGNUP_NOT_ALLOWED for an unknown invitation token', async () => {
    const tenant = await aTenantWith({ signupMode: 'INVITATION_ONLY' });
    const { email, invitationToken } = await anInvitation(tenant);
    const forged = `${invitationToken.slice(0, -1)}${invitationToken.endsWith('A') ? 'B' : 'A'}`;
    expectProblem(
      await signup(tenant, signupBody(tenant, { email, invitationToken: forged })),
      403,
      'SIGNUP_NOT_ALLOWED',
    );
  });

  it("refuses another tenant's invitation", async () => {
    const tenant = await aTenantWith({ signupMode: 'INVITATION_ONLY' });
    const other = await aTenantWith({ signupMode: 'INVITATION_ONLY' });
    const { email, invitationToken } = await anInvitation(other);
    expectProblem(await signup(tenant, signupBody(tenant, { email, invitationToken })), 403, 'SIGNUP_NOT_ALLOWED');
  });

  it('stores only the hash of the invitation token', async () => {
    const tenant = await aTenantWith({ signupMode: 'INVITATION_ONLY' });
    const { email, invitationToken, userId } = await anInvitation(tenant);
    const { TableName } = { TableName: deps.store.tableName };
    const { Item: invitation } = await deps.store.doc.send(
      new GetCommand({ TableName, Key: keys.invitation(tenant, hashToken(invitationToken)) }),
    );
    expect(invitation).toMatchObject({ userId, email, usedAt: null });
    const { Item: claim } = await deps.store.doc.send(
      new GetCommand({ TableName, Key: keys.userEmail(tenant, email) }),
    );
    const { Items: userItems = [] } = await deps.store.doc.send(
      new QueryCommand({
        TableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.userPartition(tenant, userId) },
      }),
    );
    expect(userItems.length).toBeGreaterThan(0);
    const stored = JSON.stringify([invitation, claim, ...userItems]);
    expect(stored).not.toContain(invitationToken);
    expect(stored).not.toContain(invitationToken.replace(/^inv_/, ''));
  });
});

describe('POST /auth/signup (open signups per IP and hour)', () => {
  it('answers the 21st open signup of an hour from one IP with 429 and Retry-After; invitations and other tenants go on', async () => {
    // The limit counts per clock hour: a run that straddles an hour's end is run once more with fresh tenants.
    for (let attempt = 0; ; attempt++) {
      const hour = Math.floor(Date.now() / 3_600_000);
      const tenant = await aTenantWith({ signupMode: 'OPEN' });
      const addresses = Array.from({ length: SIGNUPS_PER_IP_PER_HOUR + 1 }, () => anEmail('junk'));
      const answers = [];
      for (const email of addresses) answers.push(await signup(tenant, signupBody(tenant, { email })));
      if (Math.floor(Date.now() / 3_600_000) !== hour && attempt === 0) continue;

      expect(answers.slice(0, SIGNUPS_PER_IP_PER_HOUR).map((res) => res.status)).toEqual(
        Array(SIGNUPS_PER_IP_PER_HOUR).fill(201),
      );
      const refused = answers[SIGNUPS_PER_IP_PER_HOUR];
      if (!refused) throw new Error('no 21st answer');
      expectProblem(refused, 429, 'RATE_LIMITED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
      expect(await mailsTo(api.stack.sesUrl, addresses[SIGNUPS_PER_IP_PER_HOUR] as string)).toEqual([]);
      expect(
        await userRepo(deps.store).findByEmail(tenant, addresses[SIGNUPS_PER_IP_PER_HOUR] as string, new Date()),
      ).toBeNull();

      // An invitation is not an open signup: an admin chose its address.
      const email = anEmail('invitee');
      const { invitationToken } = await createInvitation(deps, tenant, { email, invitedBy: 'usr_x' });
      expect((await signup(tenant, signupBody(tenant, { email, invitationToken }))).status).toBe(201);
      // Another tenant counts its own.
      const other = await aTenantWith({ signupMode: 'OPEN' });
      expect((await signup(other, signupBody(other, { email: anEmail() }))).status).toBe(201);
      return;
    }
  });
});

describe('POST /auth/signup/verify', () => {
  it('returns 401 INVALID_CODE for a wrong code, and the right code still works after it', async () => {
    const tenant = await aTenantWith();
    const { challengeId, code } = await startSignup(tenant);
    expectProblem(await verify(tenant, challengeId, otherThan(code)), 401, 'INVALID_CODE');
    expect((await verify(tenant, challengeId, code)).status).toBe(200);
  });

  it('returns 401 INVALID_CODE to the right code after 5 wrong ones: the challenge is dead', async () => {
    const tenant = await aTenantWith();
    const { email, challengeId, code } = await startSignup(tenant);
    for (let i = 0; i < 5; i++) {
      expectProblem(await verify(tenant, challengeId, otherThan(code)), 401, 'INVALID_CODE');
    }
    expectProblem(await verify(tenant, challengeId, code), 401, 'INVALID_CODE');
    expect((await userRepo(deps.store).findByEmail(tenant, email, deps.clock.now()))?.status).toBe('INACTIVE');
  });

  it('returns 401 INVALID_CODE when the right code is used a second time', async () => {
    const tenant = await aTenantWith();
    const { challengeId, code } = await startSignup(tenant);
    expect((await verify(tenant, challengeId, code)).status).toBe(200);
    expectProblem(await verify(tenant, challengeId, code), 401, 'INVALID_CODE');
  });

  it('logs in exactly one of two simultaneous verifications with the right code', async () => {
    const tenant = await aTenantWith();
    const { challengeId, code } = await startSignup(tenant);
    const answers = await Promise.all([verify(tenant, challengeId, code), verify(tenant, challengeId, code)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
    expect(answers.find((a) => a.status === 401)?.body.code).toBe('INVALID_CODE');
  });

  it('returns 401 INVALID_CODE for an unknown challengeId', async () => {
    const tenant = await aTenantWith();
    expectProblem(await verify(tenant, 'chl_00000000000000000000', '123456'), 401, 'INVALID_CODE');
  });

  it("returns 401 INVALID_CODE for another tenant's challenge", async () => {
    const tenant = await aTenantWith();
    const other = await aTenantWith();
    const { challengeId, code } = await startSignup(other);
    expectProblem(await verify(tenant, challengeId, code), 401, 'INVALID_CODE');
    expect((await verify(other, challengeId, code)).status).toBe(200);
  });
});
