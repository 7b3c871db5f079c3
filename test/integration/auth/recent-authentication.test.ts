import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as reauthenticateHandler } from '#functions/auth/reauthenticate.ts';
import { handler as refreshHandler } from '#functions/auth/refresh.ts';
import { handler as createApiKeyHandler } from '#functions/merchants/create-api-key.ts';
import { handler as createOidcClientHandler } from '#functions/oidc/create-oidc-client.ts';
import { handler as updateOidcClientHandler } from '#functions/oidc/update-oidc-client.ts';
import { handler as assignRoleHandler } from '#functions/roles/assign-role.ts';
import { handler as revokeRoleHandler } from '#functions/roles/revoke-role.ts';
import { handler as revokeAllHandler } from '#functions/sessions/revoke-all-sessions.ts';
import { handler as deleteUserHandler } from '#functions/users/delete-user.ts';
import { handler as disableTotpHandler } from '#functions/users/disable-totp.ts';
import { handler as initTotpHandler } from '#functions/users/init-totp.ts';
import { handler as resetUserTotpHandler } from '#functions/users/reset-user-totp.ts';
import { handler as setUserStatusHandler } from '#functions/users/set-user-status.ts';
import { handler as startEmailChangeHandler } from '#functions/users/start-email-change.ts';
import { handler as verifyTotpHandler } from '#functions/users/verify-totp.ts';
import { totpCodeAt } from '#shared/auth/totp.ts';
import type { Deps } from '#shared/deps.ts';
import { activityRepo } from '#shared/store/activity-repo.ts';
import { apiKeyRepo } from '#shared/store/api-key-repo.ts';
import { keys } from '#shared/store/keys.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { roleRepo } from '#shared/store/role-repo.ts';
import { userRepo } from '#shared/store/user-repo.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { anEmail } from '#test/support/admin.ts';
import { aTenantWith, aUser, type TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { type Answer, anIp, aRequest, aSessionOf, fakeSes, invokeWith } from '#test/support/faults.ts';

/**
 * Recent authentication (docs/security.md#recent-authentication), through the real handlers with a clock the
 * test moves: an access token whose session proved its first factor more
 * than 10 minutes ago (still a good token: they live 15) may no longer
 * change the e-mail address, enrol or remove TOTP, or mint an API key; it
 * gets 403 REAUTHENTICATION_REQUIRED and changes nothing. POST
 * /auth/reauthenticate makes the session recent again; a refresh does not.
 * Revoke-all stays open: it only protects.
 */

const ses = fakeSes();

const MINUTE = 60_000;
/** Past the 10 minutes of a recent authentication, within the 15 of an access token. */
const STALE = 11 * MINUTE;

/** Deps whose clock the test moves; it starts now (the signing keys are real). */
function clockedDeps() {
  const start = Date.now();
  let now = start;
  const deps = makeTestDeps({ clock: { now: () => new Date(now) } });
  return { deps, now: () => new Date(now), at: (ms: number) => (now = start + ms) };
}

let tenant: TestTenant;
let merchant: Merchant;
beforeAll(async () => {
  tenant = await aTenantWith();
  merchant = (await merchantRepo(makeTestDeps().store).get(tenant)) as Merchant;
});

type Lambda = Parameters<typeof invokeWith>[1];
const send = (deps: Deps, handler: Lambda, method: string, path: string, token: string, extra = {}): Promise<Answer> =>
  invokeWith(deps, handler, aRequest(method, path, { tenant, ip: anIp(), bearer: token, ...extra }));

function expectReauthRequired(answer: Answer, label: string) {
  expect({ label, status: answer.status, code: answer.body?.code }).toEqual({
    label,
    status: 403,
    code: 'REAUTHENTICATION_REQUIRED',
  });
}

const secretOf = (answer: Answer) => new URL(answer.body.qrUri).searchParams.get('secret') ?? '';

describe('a session authenticated more than 10 minutes ago', () => {
  it('is refused e-mail change, TOTP init/verify/disable and API key creation, changing nothing; after POST /auth/reauthenticate they work; revoke-all works throughout', async () => {
    const { deps, now, at } = clockedDeps();
    // The tenant's first admin (SUPER_ADMIN: may mint keys), and a user with TOTP on; both sign in at 0.
    const admin = { id: tenant.adminUserId, email: tenant.adminEmail, password: tenant.adminPassword };
    const adminSession = await aSessionOf(tenant, admin.id, deps);
    const totpUser = await aUser(tenant, { totp: true }, deps);
    const totpSession = await aSessionOf(tenant, totpUser.id, deps);
    const totpSecret = totpUser.totpSecret ?? '';
    const bystander = await aUser(tenant, {}, deps);
    const bystanderSession = await aSessionOf(tenant, bystander.id, deps);
    // While fresh, the admin starts TOTP enrolment: the stale verify below has a pending secret to try.
    const started = await send(deps, initTotpHandler, 'POST', '/users/me/totp/init', adminSession.accessToken);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const pendingBefore = (await userRepo(deps.store).get(tenant, admin.id))?.totpPendingSecret;

    at(STALE);
    const stale = adminSession.accessToken;
    const newEmail = anEmail('thief');
    expectReauthRequired(
      await send(deps, startEmailChangeHandler, 'POST', '/users/me/email-change', stale, { body: { newEmail } }),
      'email-change',
    );
    expectReauthRequired(await send(deps, initTotpHandler, 'POST', '/users/me/totp/init', stale), 'totp/init');
    expectReauthRequired(
      await send(deps, verifyTotpHandler, 'POST', '/users/me/totp/verify', stale, {
        body: { code: totpCodeAt(secretOf(started), now()) },
      }),
      'totp/verify',
    );
    expectReauthRequired(
      await send(deps, disableTotpHandler, 'POST', '/users/me/totp/disable', totpSession.accessToken, {
        body: { code: totpCodeAt(totpSecret, now()) },
      }),
      'totp/disable',
    );
    expectReauthRequired(
      await send(deps, createApiKeyHandler, 'POST', `/merchants/${tenant.id}/api-keys`, stale, {
        body: { label: 'thief' },
        pathParameters: { id: tenant.id },
      }),
      'api-keys',
    );
    // A refresh gives a new access token of the same session, but not a new proof: still refused.
    const refreshed = await invokeWith(
      deps,
      refreshHandler,
      aRequest('POST', '/auth/refresh', { tenant, ip: anIp(), body: { refreshToken: adminSession.refreshToken } }),
    );
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    const renewed = refreshed.body.data.accessToken as string;
    expectReauthRequired(
      await send(deps, initTotpHandler, 'POST', '/users/me/totp/init', renewed),
      'totp/init after refresh',
    );

    // Nothing changed: address, TOTP state, keys; and no mail went to either address.
    const adminAfter = await userRepo(deps.store).get(tenant, admin.id);
    expect(adminAfter).toMatchObject({ email: admin.email, totpEnabled: false, totpPendingSecret: pendingBefore });
    expect((await userRepo(deps.store).get(tenant, totpUser.id))?.totpEnabled).toBe(true);
    expect(await apiKeyRepo(deps.store).list(merchant)).toEqual([]);
    expect(ses.attemptsTo(newEmail)).toEqual([]);
    expect(ses.attemptsTo(admin.email)).toEqual([]);

    // Revoke-all only protects: a stale session may still end every session of its user.
    const revoked = await send(deps, revokeAllHandler, 'POST', '/sessions/revoke-all', bystanderSession.accessToken);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(204);

    // The owners prove it is them again (the TOTP user with its second factor too)...
    const adminProof = await send(deps, reauthenticateHandler, 'POST', '/auth/reauthenticate', renewed, {
      body: { password: admin.password },
    });
    expect(adminProof.status, JSON.stringify(adminProof.body)).toBe(204);
    expect(adminProof.body).toBeUndefined();
    const totpProof = await send(deps, reauthenticateHandler, 'POST', '/auth/reauthenticate', totpSession.accessToken, {
      body: { password: totpUser.password, totpCode: totpUser.backupCodes?.[0] },
    });
    expect(totpProof.status, JSON.stringify(totpProof.body)).toBe(204);

    // ...and each guarded operation works again, with the same (refreshed) session.
    const moved = await send(deps, startEmailChangeHandler, 'POST', '/users/me/email-change', renewed, {
      body: { newEmail },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const init = await send(deps, initTotpHandler, 'POST', '/users/me/totp/init', renewed);
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    const verified = await send(deps, verifyTotpHandler, 'POST', '/users/me/totp/verify', renewed, {
      body: { code: totpCodeAt(secretOf(init), now()) },
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(204);
    const disabled = await send(deps, disableTotpHandler, 'POST', '/users/me/totp/disable', totpSession.accessToken, {
      body: { code: totpCodeAt(totpSecret, now()) },
    });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(204);
    const key = await send(deps, createApiKeyHandler, 'POST', `/merchants/${tenant.id}/api-keys`, renewed, {
      body: { label: 'owner' },
      pathParameters: { id: tenant.id },
    });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
  });

  it('is recent again for 10 minutes only after POST /auth/reauthenticate', async () => {
    const { deps, at } = clockedDeps();
    const user = await aUser(tenant, {}, deps);
    const { accessToken, refreshToken } = await aSessionOf(tenant, user.id, deps);
    at(10 * MINUTE);
    // Exactly 10 minutes is still recent (older than 10 minutes is not).
    expect((await send(deps, initTotpHandler, 'POST', '/users/me/totp/init', accessToken)).status).toBe(200);
    at(10 * MINUTE + 1);
    expectReauthRequired(await send(deps, initTotpHandler, 'POST', '/users/me/totp/init', accessToken), 'at 10:00.001');
    const proof = await send(deps, reauthenticateHandler, 'POST', '/auth/reauthenticate', accessToken, {
      body: { password: user.password },
    });
    expect(proof.status).toBe(204);
    // The proof is in the user's activity, with the session's device.
    const { items } = await activityRepo(deps.store).page(tenant, user.id, 10, null, deps.clock.now());
    expect(items.filter((a) => a.type === 'REAUTHENTICATED')).toHaveLength(1);
    at(10 * MINUTE + 1 + 10 * MINUTE + 1);
    // The first access token has expired by now; a refreshed one carries the same session, no longer recent.
    const refreshed = await invokeWith(
      deps,
      refreshHandler,
      aRequest('POST', '/auth/refresh', { tenant, ip: anIp(), body: { refreshToken } }),
    );
    expect(refreshed.status).toBe(200);
    expectReauthRequired(
      await send(deps, initTotpHandler, 'POST', '/users/me/totp/init', refreshed.body.data.accessToken),
      '10 minutes after the reauthentication',
    );
  });
});

describe('a session stored before authenticatedAt was recorded', () => {
  it('never counts as recent: 403 REAUTHENTICATION_REQUIRED until the user reauthenticates', async () => {
    const { deps } = clockedDeps();
    const user = await aUser(tenant, {}, deps);
    const { accessToken } = await aSessionOf(tenant, user.id, deps);
    const sid = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')).sid as string;
    // As such a session was stored: no authenticatedAt attribute at all.
    await deps.store.doc.send(
      new UpdateCommand({
        TableName: deps.store.tableName,
        Key: keys.session(tenant, user.id, sid),
        UpdateExpression: 'REMOVE authenticatedAt',
      }),
    );
    expectReauthRequired(await send(deps, initTotpHandler, 'POST', '/users/me/totp/init', accessToken), 'legacy');
    const proof = await send(deps, reauthenticateHandler, 'POST', '/auth/reauthenticate', accessToken, {
      body: { password: user.password },
    });
    expect(proof.status).toBe(204);
    expect((await send(deps, initTotpHandler, 'POST', '/users/me/totp/init', accessToken)).status).toBe(200);
  });
});

describe('the admin powers a stale SUPER_ADMIN session would take the tenant over with', () => {
  it('are refused past 10 minutes (grants and revocations of ADMIN and SUPER_ADMIN, status, deletion, TOTP reset, first-party), changing nothing; after POST /auth/reauthenticate they work', async () => {
    const { deps, at } = clockedDeps();
    // A tenant of its own: the first test turned its owner's TOTP on.
    const own = await aTenantWith();
    const send = (deps: Deps, handler: Lambda, method: string, path: string, token: string, extra = {}) =>
      invokeWith(deps, handler, aRequest(method, path, { tenant: own, ip: anIp(), bearer: token, ...extra }));
    const roles = await roleRepo(deps.store).list(own);
    const roleId = (name: string) => roles.find((role) => role.name === name)?.id as string;
    const owner = await aSessionOf(own, own.adminUserId, deps);
    const accomplice = await aUser(own, {}, deps);
    const victim = await aUser(own, { totp: true }, deps);
    const admin = await aUser(own, {}, deps);
    // While fresh, the owner makes an ADMIN and registers a third-party client.
    const grant = (token: string, userId: string, role: string, handler: Lambda = assignRoleHandler) =>
      send(deps, handler, 'POST', handler === assignRoleHandler ? '/roles/assign' : '/roles/revoke', token, {
        body: { userId, roleId: roleId(role) },
      });
    expect((await grant(owner.accessToken, admin.id, 'ADMIN')).status).toBe(204);
    const client = await send(deps, createOidcClientHandler, 'POST', '/oidc/clients', owner.accessToken, {
      body: { name: 'Third party', type: 'public', redirectUris: ['https://app.example/cb'] },
    });
    expect(client.status, JSON.stringify(client.body)).toBe(201);
    const clientId = client.body.clientId as string;
    const firstParty = (token: string) =>
      send(deps, updateOidcClientHandler, 'PATCH', `/oidc/clients/${clientId}`, token, {
        body: { firstParty: true },
        pathParameters: { clientId },
      });
    const onVictim = (handler: Lambda, method: string, path: string, body?: unknown) => (token: string) =>
      send(deps, handler, method, `/users/${victim.id}${path}`, token, {
        ...(body === undefined ? {} : { body }),
        pathParameters: { id: victim.id },
      });
    const disable = onVictim(setUserStatusHandler, 'PATCH', '/status', { status: 'DISABLED' });
    const resetTotp = onVictim(resetUserTotpHandler, 'DELETE', '/totp');
    const remove = onVictim(deleteUserHandler, 'DELETE', '');

    at(STALE);
    const stale = owner.accessToken;
    expectReauthRequired(await grant(stale, accomplice.id, 'SUPER_ADMIN'), 'grant SUPER_ADMIN');
    expectReauthRequired(await grant(stale, accomplice.id, 'ADMIN'), 'grant ADMIN');
    expectReauthRequired(await grant(stale, admin.id, 'ADMIN', revokeRoleHandler), 'revoke ADMIN');
    expectReauthRequired(await disable(stale), 'disable a user');
    expectReauthRequired(await resetTotp(stale), "reset a user's TOTP");
    expectReauthRequired(await remove(stale), 'delete a user');
    expectReauthRequired(await firstParty(stale), 'make a client first-party');
    // Nothing changed.
    expect(Object.keys((await userRepo(deps.store).get(own, accomplice.id))?.grants ?? {})).not.toContain(
      roleId('SUPER_ADMIN'),
    );
    expect(Object.keys((await userRepo(deps.store).get(own, admin.id))?.grants ?? {})).toContain(roleId('ADMIN'));
    expect(await userRepo(deps.store).get(own, victim.id)).toMatchObject({ status: 'ACTIVE', totpEnabled: true });

    // The owner proves it is them again: each works.
    const proof = await send(deps, reauthenticateHandler, 'POST', '/auth/reauthenticate', stale, {
      body: { password: own.adminPassword },
    });
    expect(proof.status, JSON.stringify(proof.body)).toBe(204);
    expect((await grant(stale, accomplice.id, 'ADMIN')).status).toBe(204);
    expect((await grant(stale, admin.id, 'ADMIN', revokeRoleHandler)).status).toBe(204);
    expect((await firstParty(stale)).status).toBe(200);
    expect((await resetTotp(stale)).status).toBe(204);
    expect((await disable(stale)).status).toBe(200);
    expect((await remove(stale)).status).toBe(204);
  });

  it('an API key never grants ADMIN or SUPER_ADMIN nor makes a client first-party (403 FORBIDDEN), and needs no sign-in to disable a user', async () => {
    const { deps } = clockedDeps();
    const own = await aTenantWith();
    const roles = await roleRepo(deps.store).list(own);
    const roleId = (name: string) => roles.find((role) => role.name === name)?.id as string;
    const owner = await aSessionOf(own, own.adminUserId, deps);
    const asOwner = (handler: Lambda, method: string, path: string, extra = {}) =>
      invokeWith(
        deps,
        handler,
        aRequest(method, path, { tenant: own, ip: anIp(), bearer: owner.accessToken, ...extra }),
      );
    const key = await asOwner(createApiKeyHandler, 'POST', `/merchants/${own.id}/api-keys`, {
      body: { label: 'backend' },
      pathParameters: { id: own.id },
    });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const client = await asOwner(createOidcClientHandler, 'POST', '/oidc/clients', {
      body: { name: 'Third party', type: 'public', redirectUris: ['https://app.example/cb'] },
    });
    const clientId = client.body.clientId as string;
    const user = await aUser(own, {}, deps);
    const withKey = (handler: Lambda, method: string, path: string, extra: Record<string, unknown>) => {
      const event = aRequest(method, path, { tenant: own, ip: anIp(), ...extra });
      event.headers['x-api-key'] = key.body.apiKey as string;
      return invokeWith(deps, handler, event);
    };
    for (const role of ['ADMIN', 'SUPER_ADMIN']) {
      const granted = await withKey(assignRoleHandler, 'POST', '/roles/assign', {
        body: { userId: user.id, roleId: roleId(role) },
      });
      expect({ role, status: granted.status, code: granted.body?.code }).toEqual({
        role,
        status: 403,
        code: 'FORBIDDEN',
      });
    }
    const promoted = await withKey(updateOidcClientHandler, 'PATCH', `/oidc/clients/${clientId}`, {
      body: { firstParty: true },
      pathParameters: { clientId },
    });
    expect({ status: promoted.status, code: promoted.body?.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect(Object.keys((await userRepo(deps.store).get(own, user.id))?.grants ?? {})).not.toContain(roleId('ADMIN'));
    // A server's automation may still disable a user: the key was made by a recently signed-in admin.
    const disabled = await withKey(setUserStatusHandler, 'PATCH', `/users/${user.id}/status`, {
      body: { status: 'DISABLED' },
      pathParameters: { id: user.id },
    });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
  });
});
