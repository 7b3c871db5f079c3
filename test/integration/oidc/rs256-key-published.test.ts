import { describe, expect, it } from 'vitest';
import type { Principal } from '#shared/auth/principal.ts';
import type { Deps } from '#shared/deps.ts';
import { createOidcClient, updateOidcClient } from '#shared/oidc/clients.ts';
import { createTenant } from '#shared/tenancy/create-tenant.ts';
import { signingKeys } from '#shared/tokens/signing-keys.ts';
import { aKeysTable, aProcess } from '../auth/keys-table.ts';

/**
 * An RS256 client's key is in the JWK Set from its registration on, before its first token: a resource server
 * (an API Gateway JWT authorizer) that fetched the keys early already has it. Each test on a table of its own,
 * where no RSA key exists yet.
 */

const admin = (deps: Deps, userId: string): Principal => ({
  kind: 'user',
  userId,
  sessionId: 'ses_test',
  roles: ['SUPER_ADMIN'],
  authority: 1,
  authenticatedAt: deps.clock.now().toISOString(),
});

async function aTenantOn(deps: Deps) {
  return createTenant(deps, {
    name: 'Shop',
    adminEmail: 'owner@shop.test',
    origins: ['https://shop.example'],
    subdomain: 'shop',
  });
}

const rsaKeys = async (deps: Deps) =>
  (await signingKeys(deps).publicJwks({ fresh: true })).keys.filter((key) => key.alg === 'RS256');

const client = {
  name: 'Back office',
  type: 'confidential' as const,
  redirectUris: ['https://shop.example/callback'],
};

describe('an RS256 client publishes its signing key when registered', () => {
  it('registering an ES256 client makes no RSA key; registering an RS256 one publishes one', async () => {
    const deps = aProcess(await aKeysTable());
    const tenant = await aTenantOn(deps);
    await createOidcClient(deps, tenant, admin(deps, tenant.adminUserId), client);
    expect(await rsaKeys(deps)).toEqual([]);
    await createOidcClient(deps, tenant, admin(deps, tenant.adminUserId), { ...client, idTokenSigningAlg: 'RS256' });
    expect(await rsaKeys(deps)).toEqual([expect.objectContaining({ kty: 'RSA', alg: 'RS256', use: 'sig' })]);
  });

  it('changing a client to RS256 publishes one too, and a second RS256 client reuses it', async () => {
    const deps = aProcess(await aKeysTable());
    const tenant = await aTenantOn(deps);
    const made = await createOidcClient(deps, tenant, admin(deps, tenant.adminUserId), client);
    await updateOidcClient(deps, tenant, admin(deps, tenant.adminUserId), made.clientId, {
      idTokenSigningAlg: 'RS256',
    });
    const published = await rsaKeys(deps);
    expect(published).toHaveLength(1);
    await createOidcClient(deps, tenant, admin(deps, tenant.adminUserId), { ...client, idTokenSigningAlg: 'RS256' });
    expect(await rsaKeys(deps)).toEqual(published);
  });
});
