import { beforeAll, describe, expect, it } from 'vitest';
import { type AdminTenant, adminApi, anEmail } from '#test/support/admin.ts';
import { aUser, mailsTo, type TestTenant, type TestUser } from '#test/support/auth.ts';
import { violationsOf } from '#test/support/brief-resources.ts';
import { type Answer, expectProblem } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';
import {
  DOCUMENTED_BOUNCE,
  DOCUMENTED_COMPLAINT,
  deliverSesEvents,
  snsEventOf,
  withRecipient,
  withTags,
} from '#test/support/ses-events.ts';

/**
 * Mail that is watched, black-box through the local stack and the SES emulator: once SES reports a
 * hard bounce or a complaint for an address (AWS's documented records, fed to the SES events function as SNS
 * would), the service mails it nothing (reset codes, login codes, invitations, notices) and answers exactly as if
 * it had; the admin sees why on GET /users/{id} and clears it with DELETE /users/{id}/mail-suppression, after
 * which mail flows again.
 */

const api = useLocalStack();
const { call, aSuperAdmin, aSignedInUser, anAdmin, getUser } = adminApi(() => api.url);

let owner: AdminTenant;
let tenant: TestTenant;
beforeAll(async () => {
  owner = await aSuperAdmin({ loginMode: 'PASSWORD_OR_OTP_EMAIL' });
  tenant = owner.tenant;
});

/** SES's hard bounce of a mail of `kind` to `address`, delivered by SNS to the SES events function. */
const hardBounce = (address: string, kind = 'LOGIN_CODE') =>
  deliverSesEvents(
    api.stack,
    snsEventOf(withRecipient(withTags(DOCUMENTED_BOUNCE, { app: tenant.app, mid: tenant.mid, kind }), address)),
  );
const complaint = (address: string) =>
  deliverSesEvents(
    api.stack,
    snsEventOf(
      withRecipient(withTags(DOCUMENTED_COMPLAINT, { app: tenant.app, mid: tenant.mid, kind: 'INVITATION' }), address),
    ),
  );

const forgot = (email: string) => call('POST', '/auth/forgot-password', tenant.headers, { email });
const codeLogin = (email: string) => call('POST', '/auth/login', tenant.headers, { email, loginMode: 'OTP_EMAIL' });
const mailCount = async (email: string) => (await mailsTo(api.stack.sesUrl, email)).length;

/** An answer with its ids and times blanked: what a caller could compare. */
function shapeOf(answer: Answer) {
  const text = answer.text
    .replace(/"(chl_[0-9a-z]+)"/g, (_, id: string) => `"${'x'.repeat(id.length)}"`)
    .replace(/"expiresAt":"[^"]+"/, '"expiresAt":"…"');
  return { status: answer.status, contentType: answer.headers.get('content-type'), text };
}

describe('an address SES reported a hard bounce for', () => {
  let bounced: TestUser;
  let control: TestUser;
  beforeAll(async () => {
    [bounced, control] = await Promise.all([
      aUser(tenant, { email: anEmail('bounced') }),
      aUser(tenant, { email: anEmail('control') }),
    ]);
    await hardBounce(bounced.email);
  });

  it('gets no reset code and no login code; every answer is the one a sent mail gives (and an unknown address)', async () => {
    const nobody = anEmail('nobody');
    const resets = [await forgot(bounced.email), await forgot(control.email), await forgot(nobody)];
    const logins = [await codeLogin(bounced.email), await codeLogin(control.email), await codeLogin(nobody)];

    expect(resets.map(shapeOf)).toEqual(Array(3).fill(shapeOf(resets[1] as Answer)));
    expect(resets[0]?.status).toBe(202);
    expect(logins.map(shapeOf)).toEqual(Array(3).fill(shapeOf(logins[1] as Answer)));
    expect(logins[0]?.status).toBe(200);
    expect(await mailCount(bounced.email)).toBe(0);
    expect(await mailCount(control.email)).toBe(2);
  });

  it('gets no notice after a password change, and the change stands', async () => {
    const signedIn = await aSignedInUser(tenant, { email: anEmail('notice') });
    await hardBounce(signedIn.user.email, 'PASSWORD_CHANGED');
    const changed = await call('POST', '/users/me/password', signedIn.headers, {
      currentPassword: signedIn.user.password,
      newPassword: 'Philodendron-8-vine',
    });
    expect(changed.status, changed.text).toBe(204);
    const login = await call('POST', '/auth/login', tenant.headers, {
      email: signedIn.user.email,
      password: 'Philodendron-8-vine',
    });
    expect(login.status).toBe(200);
    expect(await mailCount(signedIn.user.email)).toBe(0);
  });

  it('shows on GET /users/{id} to the admin: mailSuppression BOUNCE at the bounce time; null on an address that works', async () => {
    const seen = await getUser(owner, bounced.id);
    expect(seen.status).toBe(200);
    expect(seen.body.mailSuppression).toEqual({ reason: 'BOUNCE', at: '2017-08-05T00:41:02.669Z' });
    expect(violationsOf('AdminUserResponse', seen.body)).toEqual([]);
    expect((await getUser(owner, control.id)).body.mailSuppression).toBeNull();
  });

  it('is cleared by DELETE /users/{id}/mail-suppression (204); then GET shows null and mail flows again', async () => {
    const cleared = await call('DELETE', `/users/${bounced.id}/mail-suppression`, owner.headers);
    expect(cleared.status, cleared.text).toBe(204);
    expect((await getUser(owner, bounced.id)).body.mailSuppression).toBeNull();

    // Held back before the limits counted anything: the minute's limit does not hold this one.
    expect((await forgot(bounced.email)).status).toBe(202);
    const mails = await mailsTo(api.stack.sesUrl, bounced.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/reset/i);

    // Clearing again, or a user whose mail was never suppressed: 204, nothing to do.
    expect((await call('DELETE', `/users/${bounced.id}/mail-suppression`, owner.headers)).status).toBe(204);
    expect((await call('DELETE', `/users/${control.id}/mail-suppression`, owner.headers)).status).toBe(204);
  });
});

describe('DELETE /users/{id}/mail-suppression, by the rules of every admin action on a user', () => {
  it('answers 404 NOT_FOUND for an unknown id, 403 FORBIDDEN to a plain user, on oneself, and on an equal; the suppression stays', async () => {
    const admin = await anAdmin(owner, { email: anEmail('admin') });
    const peer = await anAdmin(owner, { email: anEmail('peer') });
    const member = await aSignedInUser(tenant, { email: anEmail('member') });
    await Promise.all([hardBounce(admin.user.email), hardBounce(peer.user.email), hardBounce(member.user.email)]);

    expectProblem(
      await call('DELETE', '/users/usr_00000000000000000000/mail-suppression', owner.headers),
      404,
      'NOT_FOUND',
    );
    expectProblem(await call('DELETE', `/users/${peer.userId}/mail-suppression`, member.headers), 403, 'FORBIDDEN');
    expectProblem(await call('DELETE', `/users/${admin.userId}/mail-suppression`, admin.headers), 403, 'FORBIDDEN');
    expectProblem(await call('DELETE', `/users/${peer.userId}/mail-suppression`, admin.headers), 403, 'FORBIDDEN');
    for (const id of [admin.userId, peer.userId]) {
      expect((await getUser(owner, id)).body.mailSuppression).toMatchObject({ reason: 'BOUNCE' });
    }
    // An ADMIN acts on a plain member.
    expect((await call('DELETE', `/users/${member.userId}/mail-suppression`, admin.headers)).status).toBe(204);
    expect((await getUser(owner, member.userId)).body.mailSuppression).toBeNull();
  });
});

describe('an address a recipient reported as spam (a complaint)', () => {
  it('gets no invitation: 503 UNAVAILABLE saying why, and nothing left behind', async () => {
    const address = anEmail('complained');
    await complaint(address);
    const invited = await call('POST', '/users/invitations', owner.headers, { email: address });
    expectProblem(invited, 503, 'UNAVAILABLE');
    expect(invited.body.detail).toMatch(/suppressed/);
    expect(invited.headers.get('retry-after')).toBeTruthy();
    const users = await call('GET', '/users', owner.headers);
    expect((users.body as { email: string }[]).map((user) => user.email)).not.toContain(address);
    expect(await mailCount(address)).toBe(0);
  });
});
