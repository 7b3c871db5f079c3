import { describe, expect, it } from 'vitest';
import { hashToken } from '#shared/auth/codes.ts';
import { createInvitation } from '#shared/auth/invitations.ts';
import { type AdminTenant, adminApi, anEmail } from '#test/support/admin.ts';
import { mailsTo, type TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { type Answer, expectInvalid, expectProblem, isoTimestamp, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();
const { call, aSuperAdmin } = adminApi(() => api.url);
const PASSWORD = 'Monstera-42-leaf';

const lookup = (tenant: TestTenant, invitationToken: unknown) =>
  post(`${api.url}/auth/invitations/lookup`, { invitationToken }, tenant.headers);

/** An admin with a name (a new tenant's first admin has none), as invitations name their inviter. */
async function aNamedAdmin(): Promise<AdminTenant & { tenantName: string }> {
  const admin = await aSuperAdmin();
  expect((await call('PATCH', '/users/me', admin.headers, { firstName: 'Ana', lastName: 'Admin' })).status).toBe(200);
  return { ...admin, tenantName: (await call('GET', '/merchants/me', admin.headers)).body.name };
}

/** Invites `email` through the API and answers the token of the mailed link, and the invited user's id. */
async function invite(admin: AdminTenant, fields: Record<string, unknown> = {}) {
  const email = anEmail('invitee');
  const res = await call('POST', '/users/invitations', admin.headers, { email, ...fields });
  expect(res.status).toBe(201);
  const mail = (await mailsTo(api.stack.sesUrl, email)).at(-1);
  const token = /invitationToken=([A-Za-z0-9_-]+)/.exec(mail?.body.text ?? '')?.[1];
  if (!token) throw new Error(`no invitation token in the mail to ${email}`);
  return { email, token, userId: res.body.userId as string };
}

/** The one refusal every token that opens nothing gets: the same status, code and words. */
function expectRefused(res: Answer) {
  expectProblem(res, 404, 'NOT_FOUND');
  expect(res.body).toEqual({
    type: 'about:blank',
    title: 'Not Found',
    status: 404,
    code: 'NOT_FOUND',
    detail: 'no open invitation has this token: it is unknown, used, withdrawn or expired',
  });
}

describe('POST /auth/invitations/lookup', () => {
  it('answers an open invitation: the tenant, the invited address and names, the inviter, the expiry; nothing secret', async () => {
    const admin = await aNamedAdmin();
    const before = Date.now();
    const { email, token, userId } = await invite(admin, { firstName: 'Ivy', lastName: 'Vine' });

    const res = await lookup(admin.tenant, token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tenantName: admin.tenantName,
      email,
      firstName: 'Ivy',
      lastName: 'Vine',
      inviterName: 'Ana Admin',
      expiresAt: isoTimestamp,
    });
    const lapses = Date.parse(res.body.expiresAt);
    expect(lapses).toBeGreaterThanOrEqual(before + 7 * 86_400_000);
    expect(lapses).toBeLessThanOrEqual(Date.now() + 7 * 86_400_000);
    // Neither the token, nor its hash (the invitation's key), nor an id of the invited user or of the inviter.
    for (const secret of [token, token.replace(/^inv_/, ''), hashToken(token), userId, admin.userId]) {
      expect(res.text).not.toContain(secret);
    }
  });

  it('answers null names where the admin typed none, and no inviter for an API key or an admin without a name', async () => {
    const admin = await aSuperAdmin();
    const unnamed = await invite(admin);
    expect((await lookup(admin.tenant, unnamed.token)).body).toMatchObject({
      firstName: null,
      lastName: null,
      inviterName: null,
    });

    const key = await call('POST', `/merchants/${admin.tenant.id}/api-keys`, admin.headers, { label: 'invites' });
    expect(key.status).toBe(201);
    const byKey = await invite({ ...admin, headers: { ...admin.tenant.headers, 'x-api-key': key.body.apiKey } });
    expect((await lookup(admin.tenant, byKey.token)).body).toMatchObject({ inviterName: null });
  });

  it('can be asked again and again: looking changes nothing, and signup then takes the invitation', async () => {
    const admin = await aNamedAdmin();
    const { email, token } = await invite(admin, { firstName: 'Ivy' });
    const first = await lookup(admin.tenant, token);
    expect((await lookup(admin.tenant, token)).body).toEqual(first.body);
    const body = { app: admin.tenant.app, mid: admin.tenant.mid, email, password: PASSWORD, invitationToken: token };
    const signup = await post(
      `${api.url}/auth/signup`,
      { ...body, firstName: 'Ivy', lastName: 'Vine' },
      admin.tenant.headers,
    );
    expect(signup.status).toBe(201);
  });

  it('refuses a used invitation with the one 404', async () => {
    const admin = await aNamedAdmin();
    const { email, token } = await invite(admin);
    const body = { app: admin.tenant.app, mid: admin.tenant.mid, email, password: PASSWORD, invitationToken: token };
    const signup = await post(
      `${api.url}/auth/signup`,
      { ...body, firstName: 'I', lastName: 'V' },
      admin.tenant.headers,
    );
    expect(signup.status).toBe(201);
    expectRefused(await lookup(admin.tenant, token));
  });

  it('refuses an expired invitation with the one 404', async () => {
    const admin = await aNamedAdmin();
    // Made 7 days and a minute ago: lapsed a minute ago.
    const past = makeTestDeps({ clock: { now: () => new Date(Date.now() - 7 * 86_400_000 - 60_000) } });
    const { invitationToken } = await createInvitation(past, admin.tenant, {
      email: anEmail('late'),
      invitedBy: admin.userId,
      inviterName: 'Ana Admin',
    });
    expectRefused(await lookup(admin.tenant, invitationToken));
  });

  it('refuses a withdrawn invitation (its invited user deleted) with the one 404', async () => {
    const admin = await aNamedAdmin();
    const { token, userId } = await invite(admin);
    expect((await lookup(admin.tenant, token)).status).toBe(200);
    expect((await call('DELETE', `/users/${userId}`, admin.headers)).status).toBe(204);
    expectRefused(await lookup(admin.tenant, token));
  });

  it("refuses another tenant's invitation with the one 404, which its own tenant still answers", async () => {
    const admin = await aNamedAdmin();
    const other = await aNamedAdmin();
    const { token } = await invite(other);
    expectRefused(await lookup(admin.tenant, token));
    expect((await lookup(other.tenant, token)).status).toBe(200);
  });

  it('refuses made-up tokens with the one 404: unknown, a real one altered, another kind of token', async () => {
    const admin = await aNamedAdmin();
    const { token } = await invite(admin);
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const guess of ['inv_x', altered, token.toUpperCase(), hashToken(token), 'x'.repeat(128), 'null', '../']) {
      expectRefused(await lookup(admin.tenant, guess));
    }
  });

  it.each([
    ['no token', {}],
    ['an empty token', { invitationToken: '' }],
    ['a token of spaces', { invitationToken: '   ' }],
    ['a token longer than 128 characters', { invitationToken: 'x'.repeat(129) }],
    ['a token that is not a string', { invitationToken: 42 }],
    ['another key beside the token', { invitationToken: 'inv_x', email: 'a@shop.test' }],
  ])('answers 400 VALIDATION_FAILED to %s', async (_, body) => {
    const admin = await aSuperAdmin();
    const res = await post(`${api.url}/auth/invitations/lookup`, body, admin.tenant.headers);
    expectInvalid(res, 'email' in body ? 'email' : 'invitationToken');
  });

  it('answers 400 TENANT_REQUIRED without the tenant headers, whatever the token', async () => {
    const admin = await aNamedAdmin();
    const { token } = await invite(admin);
    const res = await post(
      `${api.url}/auth/invitations/lookup`,
      { invitationToken: token },
      {
        'content-type': 'application/json',
      },
    );
    expectProblem(res, 400, 'TENANT_REQUIRED');
    expect(res.text).not.toContain(token.slice(4));
  });
});
