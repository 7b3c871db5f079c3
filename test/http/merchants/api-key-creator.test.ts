import { describe, expect, it } from 'vitest';
import { adminApi } from '#test/support/admin.ts';
import { expectProblem } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';

/**
 * An API key acts with its creator's standing, now (docs/security.md#api-keys).
 * The attack: an ADMIN makes a key, then is demoted, disabled or deleted; a key
 * that kept full ADMIN power (and could mint more keys) would outlive them.
 */

const api = useLocalStack();
const { call, aSuperAdmin, anAdmin, roleId, revoke, setStatus } = adminApi(() => api.url);

/** A SUPER_ADMIN, an ADMIN of the same tenant, and a key the ADMIN made. */
async function aKeyOfAnAdmin() {
  const owner = await aSuperAdmin();
  const admin = await anAdmin(owner);
  const made = await call('POST', `/merchants/${owner.tenant.id}/api-keys`, admin.headers, { label: 'innocent' });
  expect(made.status).toBe(201);
  const keyHeaders = { ...owner.tenant.headers, 'x-api-key': made.body.apiKey as string };
  expect((await call('GET', '/users', keyHeaders)).status).toBe(200);
  return { owner, admin, keyHeaders };
}

describe('an API key whose creator loses standing', () => {
  it('stops working (401) when its creator no longer holds ADMIN', async () => {
    const { owner, admin, keyHeaders } = await aKeyOfAnAdmin();
    const revoked = await revoke(owner, { userId: admin.userId, roleId: await roleId(owner, 'ADMIN') });
    expect(revoked.status).toBe(204);
    expectProblem(await call('GET', '/users', keyHeaders), 401, 'UNAUTHENTICATED');
    expectProblem(
      await call('POST', '/users/invitations', keyHeaders, { email: 'x@shop.test' }),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('stops working (401) when its creator is DISABLED, and again works when they are ACTIVE', async () => {
    const { owner, admin, keyHeaders } = await aKeyOfAnAdmin();
    expect((await setStatus(owner, admin.userId, 'DISABLED')).status).toBe(200);
    expectProblem(await call('GET', '/users', keyHeaders), 401, 'UNAUTHENTICATED');
    expect((await setStatus(owner, admin.userId, 'ACTIVE')).status).toBe(200);
    expect((await call('GET', '/users', keyHeaders)).status).toBe(200);
  });

  it('stops working (401) when its creator is deleted', async () => {
    const { owner, admin, keyHeaders } = await aKeyOfAnAdmin();
    expect((await call('DELETE', `/users/${admin.userId}`, owner.headers)).status).toBe(204);
    expectProblem(await call('GET', '/merchants/me', keyHeaders), 401, 'UNAUTHENTICATED');
  });

  it("acts as ADMIN even when made by a SUPER_ADMIN: it cannot act on the SUPER_ADMIN's peers", async () => {
    const owner = await aSuperAdmin();
    const peer = await anAdmin(owner);
    const made = await call('POST', `/merchants/${owner.tenant.id}/api-keys`, owner.headers, { label: 'owner key' });
    const keyHeaders = { ...owner.tenant.headers, 'x-api-key': made.body.apiKey as string };
    // An ADMIN may not act on another ADMIN: neither may the key.
    expectProblem(await setStatus({ headers: keyHeaders }, peer.userId, 'DISABLED'), 403, 'FORBIDDEN');
  });
});
