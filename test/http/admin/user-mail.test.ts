import { describe, expect, it } from 'vitest';
import { adminApi, anInvitedUser, aStoredUser } from '#test/support/admin.ts';
import { aUser, mailsTo } from '#test/support/auth.ts';
import { expectProblem, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';
import { DOCUMENTED_BOUNCE, deliverSesEvents, snsEventOf, withRecipient, withTags } from '#test/support/ses-events.ts';

/**
 * Mail an admin sends a user on request: the invitation again (POST /users/{id}/invitation) and a password reset
 * code (POST /users/{id}/password-reset). Each goes to the user's own address only, through the mail limits of
 * every mail to an address (one a minute, five an hour, per address and purpose) and the tenant's daily budget,
 * which is what stops an admin, or a stolen admin key, from mailing one address in a loop; past a limit, or to a
 * suppressed address, the admin is told (503 with Retry-After) and nothing is left behind.
 */

const api = useLocalStack();
const { call, aSuperAdmin, anAdmin, setStatus } = adminApi(() => api.url);
const PASSWORD = 'Monstera-42-leaf';

const resend = (by: { headers: Record<string, string> }, id: string) =>
  call('POST', `/users/${id}/invitation`, by.headers);
const sendReset = (by: { headers: Record<string, string> }, id: string) =>
  call('POST', `/users/${id}/password-reset`, by.headers);

const tokenIn = (text: string | undefined) => /invitationToken=([A-Za-z0-9_-]+)/.exec(text ?? '')?.[1];

describe('POST /users/{id}/invitation', () => {
  it('answers 200 { userId, expiresAt } and mails a new link that signs up; the earlier link no longer opens', async () => {
    const admin = await aSuperAdmin();
    const { tenant } = admin;
    const invited = await anInvitedUser(tenant);
    const before = Date.now();

    const res = await resend(admin, invited.userId);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ userId: invited.userId, expiresAt: expect.any(String) });
    expect(Date.parse(res.body.expiresAt)).toBeGreaterThanOrEqual(before + 7 * 86_400_000);
    const mails = await mailsTo(api.stack.sesUrl, invited.email);
    expect(mails).toHaveLength(1);
    const token = tokenIn(mails[0]?.body.text);
    expect(token).toMatch(/^inv_/);
    expect(token).not.toBe(invited.invitationToken);
    expect((await call('GET', `/users/${invited.userId}`, admin.headers)).body).toMatchObject({
      status: 'INVITED',
      emailStatus: 'VALIDATION_SENT',
    });

    // The earlier link is replaced: its lookup is the one 404 of every dead link, and it signs nobody up.
    const lookup = (invitationToken: string | undefined) =>
      post(`${api.url}/auth/invitations/lookup`, { invitationToken }, tenant.headers);
    expectProblem(await lookup(invited.invitationToken), 404, 'NOT_FOUND');
    const signUp = (invitationToken: string | undefined) =>
      post(
        `${api.url}/auth/signup`,
        {
          app: tenant.app,
          mid: tenant.mid,
          email: invited.email,
          password: PASSWORD,
          firstName: 'Ivy',
          lastName: 'Green',
          invitationToken,
        },
        tenant.headers,
      );
    expectProblem(await signUp(invited.invitationToken), 403, 'SIGNUP_NOT_ALLOWED');
    expect((await lookup(token)).body).toMatchObject({ email: invited.email, expiresAt: res.body.expiresAt });
    expect((await signUp(token)).status).toBe(201);
    expect((await call('GET', `/users/${invited.userId}`, admin.headers)).body).toMatchObject({ status: 'ACTIVE' });

    // Accepted, there is nothing to send again.
    expectProblem(await resend(admin, invited.userId), 409, 'CONFLICT');
    expect(await mailsTo(api.stack.sesUrl, invited.email)).toHaveLength(1);
  });

  it('a second resend within the minute is 503 with Retry-After and mails nothing: an admin cannot flood the address', async () => {
    const admin = await aSuperAdmin();
    const invited = await anInvitedUser(admin.tenant);
    expect((await resend(admin, invited.userId)).status).toBe(200);
    const [first] = await mailsTo(api.stack.sesUrl, invited.email);

    for (let i = 0; i < 3; i++) {
      const again = await resend(admin, invited.userId);
      expectProblem(again, 503, 'UNAVAILABLE');
      expect(again.body.detail).toMatch(/mail limit/);
      expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(await mailsTo(api.stack.sesUrl, invited.email)).toHaveLength(1);
    // What was refused left the mailed link as it was: it still opens.
    const lookup = await post(
      `${api.url}/auth/invitations/lookup`,
      { invitationToken: tokenIn(first?.body.text) },
      admin.tenant.headers,
    );
    expect(lookup.status).toBe(200);
  });

  it('is 503 saying why when mail to the address is suppressed, and the earlier link still works', async () => {
    const admin = await aSuperAdmin();
    const invited = await anInvitedUser(admin.tenant);
    await deliverSesEvents(
      api.stack,
      snsEventOf(
        withRecipient(
          withTags(DOCUMENTED_BOUNCE, { app: admin.tenant.app, mid: admin.tenant.mid, kind: 'INVITATION' }),
          invited.email,
        ),
      ),
    );
    const res = await resend(admin, invited.userId);
    expectProblem(res, 503, 'UNAVAILABLE');
    expect(res.body.detail).toMatch(/suppressed/);
    expect(await mailsTo(api.stack.sesUrl, invited.email)).toEqual([]);
    const lookup = await post(
      `${api.url}/auth/invitations/lookup`,
      { invitationToken: invited.invitationToken },
      admin.tenant.headers,
    );
    expect(lookup.status).toBe(200);
  });

  it('answers 409 CONFLICT for a user who was never invited, and mails nothing', async () => {
    const admin = await aSuperAdmin();
    const user = await aStoredUser(admin.tenant);
    expectProblem(await resend(admin, user.id), 409, 'CONFLICT');
    expect(await mailsTo(api.stack.sesUrl, user.email)).toEqual([]);
  });

  it('answers 404 NOT_FOUND for an unknown user, and 403 FORBIDDEN to an ADMIN for an invitation at their rank', async () => {
    const admin = await aSuperAdmin();
    expectProblem(await resend(admin, 'usr_00000000000000000000'), 404, 'NOT_FOUND');
    const invited = await anInvitedUser(admin.tenant);
    const adminRole = (await call('GET', '/roles', admin.headers)).body.find(
      (r: { name: string }) => r.name === 'ADMIN',
    );
    expect(
      (await call('POST', '/roles/assign', admin.headers, { userId: invited.userId, roleId: adminRole.id })).status,
    ).toBe(204);
    const other = await anAdmin(admin);
    expectProblem(await resend(other, invited.userId), 403, 'FORBIDDEN');
    expect(await mailsTo(api.stack.sesUrl, invited.email)).toEqual([]);
  });
});

describe('POST /users/{id}/password-reset', () => {
  it('answers 204 and mails a code whose link carries its challenge: the user resets with them and signs in', async () => {
    const admin = await aSuperAdmin();
    const user = await aUser(admin.tenant);

    const res = await sendReset(admin, user.id);
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    const [mail] = await mailsTo(api.stack.sesUrl, user.email);
    expect(mail?.subject).toMatch(/^Choose a new .+ password$/);
    const text = mail?.body.text ?? '';
    expect(text).toMatch(/An administrator of .+ sent you this code/);
    const code = /\b(\d{6})\b/.exec(text)?.[1];
    const link = new URL(/(http:\/\/\S+\/reset-password\?\S+)/.exec(text)?.[1] ?? 'http://none');
    expect(link.searchParams.get('email')).toBe(user.email);
    const challengeId = link.searchParams.get('challenge');
    expect(challengeId).toMatch(/^chl_/);

    // The password is unchanged until the user chooses a new one.
    expect(
      (await post(`${api.url}/auth/login`, { email: user.email, password: user.password }, admin.tenant.headers))
        .status,
    ).toBe(200);
    const reset = await post(
      `${api.url}/auth/reset-password`,
      { challengeId, code, newPassword: PASSWORD },
      admin.tenant.headers,
    );
    expect(reset.status).toBe(204);
    expect(
      (await post(`${api.url}/auth/login`, { email: user.email, password: PASSWORD }, admin.tenant.headers)).status,
    ).toBe(200);
  });

  it("a second one within the minute is 503 with Retry-After, mails nothing, and counts with the owner's own requests", async () => {
    const admin = await aSuperAdmin();
    const user = await aUser(admin.tenant);
    expect((await sendReset(admin, user.id)).status).toBe(204);

    const again = await sendReset(admin, user.id);
    expectProblem(again, 503, 'UNAVAILABLE');
    expect(again.body.detail).toMatch(/mail limit/);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    // The owner's own request shares the address's counter: together, no more than one reset mail a minute.
    expect((await post(`${api.url}/auth/forgot-password`, { email: user.email }, admin.tenant.headers)).status).toBe(
      202,
    );
    expect(await mailsTo(api.stack.sesUrl, user.email)).toHaveLength(1);
  });

  it('answers 409 CONFLICT for an invited or a disabled user, and mails nothing', async () => {
    const admin = await aSuperAdmin();
    const invited = await anInvitedUser(admin.tenant);
    expectProblem(await sendReset(admin, invited.userId), 409, 'CONFLICT');
    const disabled = await aStoredUser(admin.tenant);
    expect((await setStatus(admin, disabled.id, 'DISABLED')).status).toBe(200);
    expectProblem(await sendReset(admin, disabled.id), 409, 'CONFLICT');
    expect(await mailsTo(api.stack.sesUrl, invited.email)).toEqual([]);
    expect(await mailsTo(api.stack.sesUrl, disabled.email)).toEqual([]);
  });

  it('a COMPROMISED user is sent one: resetting is how they sign in again', async () => {
    const admin = await aSuperAdmin();
    const user = await aStoredUser(admin.tenant);
    expect((await setStatus(admin, user.id, 'COMPROMISED')).status).toBe(200);
    expect((await sendReset(admin, user.id)).status).toBe(204);
    expect(await mailsTo(api.stack.sesUrl, user.email)).toHaveLength(1);
  });

  it('answers 403 FORBIDDEN to an ADMIN for the SUPER_ADMIN and for themselves, and mails nothing', async () => {
    const owner = await aSuperAdmin();
    const admin = await anAdmin(owner);
    expectProblem(await sendReset(admin, owner.userId), 403, 'FORBIDDEN');
    expectProblem(await sendReset(admin, admin.userId), 403, 'FORBIDDEN');
    expect(await mailsTo(api.stack.sesUrl, owner.tenant.adminEmail)).toEqual([]);
    expect(await mailsTo(api.stack.sesUrl, admin.user.email)).toEqual([]);
  });
});
