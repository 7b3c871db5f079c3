import { describe, expect, it } from 'vitest';
import type { Principal } from '#shared/auth/principal.ts';
import type { Deps } from '#shared/deps.ts';
import { createOidcClient, getOidcClient, updateOidcClient } from '#shared/oidc/clients.ts';
import { createTenant } from '#shared/tenancy/create-tenant.ts';
import { makeTestDeps } from '#test/support/deps.ts';

let counter = 0;
const unique = () => `${process.pid}-${Date.now().toString(36)}-${++counter}`;

/** An admin user who signed in a moment ago (registering a client needs a recent sign-in). */
const admin = (deps: Deps, userId: string): Principal => ({
  kind: 'user',
  userId,
  sessionId: 'ses_test',
  roles: ['SUPER_ADMIN'],
  authority: 1,
  authenticatedAt: deps.clock.now().toISOString(),
});

async function aClient(deps: Deps) {
  const tenant = await createTenant(deps, {
    name: `Shop ${unique()}`,
    adminEmail: `owner-${unique()}@shop.test`,
    origins: ['https://shop.example'],
    subdomain: `o-${unique()}`,
  });
  const client = await createOidcClient(deps, tenant, admin(deps, tenant.adminUserId), {
    name: 'Back office',
    type: 'confidential',
    redirectUris: ['https://shop.example/callback'],
  });
  return { tenant, clientId: client.clientId };
}

/**
 * Deps whose DynamoDB client lets `meddle` run just before each of its first `times` UpdateItem calls: another
 * writer changing the client between this change's read and its conditional write.
 */
function withMeddler(times: number, meddle: () => Promise<unknown>): Deps {
  const deps = makeTestDeps();
  let left = times;
  deps.store.doc.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'UpdateItemCommand' && left > 0) {
        left--;
        await meddle();
      }
      return next(args);
    },
    { step: 'initialize', name: 'meddler' },
  );
  return deps;
}

describe('a change to an OIDC client racing another', () => {
  it('is tried again on a fresh read when it loses once: both changes stand', async () => {
    const other = makeTestDeps();
    const { tenant, clientId } = await aClient(other);
    const deps = withMeddler(1, () =>
      updateOidcClient(other, tenant, admin(other, 'usr_x'), clientId, { firstParty: true }),
    );
    const answer = await updateOidcClient(deps, tenant, admin(deps, 'usr_y'), clientId, { name: 'Renamed' });
    expect(answer).toMatchObject({ name: 'Renamed', firstParty: true });
    expect(await getOidcClient(other, tenant, clientId)).toMatchObject({ name: 'Renamed', firstParty: true });
  });

  it('answers 409 CONFLICT after losing 3 times, and leaves the other writers’ change as it is', async () => {
    const other = makeTestDeps();
    const { tenant, clientId } = await aClient(other);
    let n = 0;
    const deps = withMeddler(3, () =>
      updateOidcClient(other, tenant, admin(other, 'usr_x'), clientId, { name: `Other ${++n}` }),
    );
    await expect(
      updateOidcClient(deps, tenant, admin(deps, 'usr_y'), clientId, { name: 'Mine' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await getOidcClient(other, tenant, clientId)).name).toBe('Other 3');
  });
});
