import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretContext } from '#shared/sign-in-providers/admin.ts';
import { signInProviderKeys } from '#shared/store/keys.ts';
import type { TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { bearer, call, expectProblem } from '#test/support/http.ts';
import { issuerOf } from '#test/support/oidc.ts';
import { useLocalStack } from '#test/support/server.ts';
import { signInProviderApi } from '#test/support/sign-in-providers.ts';
import { type OidcUpstream, startOidcUpstream } from '#test/support/upstream/oidc-upstream.ts';
import { ageSignIn } from '../oidc/helpers.ts';

/**
 * A tenant's sign-in providers as its admins manage them: read from the provider when saved, secrets only encrypted,
 * never answered back, never touched by an API key, changes only after a recent sign-in; the sign-in page's buttons
 * follow.
 */

const api = useLocalStack();
const flows = signInProviderApi(api);
const deps = makeTestDeps();
let upstream: OidcUpstream;

beforeAll(async () => {
  upstream = await startOidcUpstream({ accounts: [] });
});
afterAll(() => upstream?.close());

const SECRET = 'the-upstream-client-secret-0123456789';
/** A well-formed private key that is not a P-256 one. */
const RSA_PEM = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

function anOidcProvider(overrides: Record<string, unknown> = {}) {
  return {
    kind: 'OIDC',
    displayName: 'Demo ID',
    issuer: upstream.issuer,
    clientId: 'rp-1',
    clientSecret: SECRET,
    ...overrides,
  };
}

async function discoveryOf(tenant: TestTenant) {
  const res = await call(api.url, 'GET', `/auth/discovery?clientId=${tenant.publicApiKey}`, {
    origin: 'https://shop.example',
  });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe('adding a provider', () => {
  it('reads its metadata, keeps the secret only encrypted, never answers it, and puts its button on the sign-in page', async () => {
    const { tenant, adminToken } = await flows.anAdminTenant();
    const res = await flows.addProvider(tenant, adminToken, anOidcProvider());
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'OIDC',
      displayName: 'Demo ID',
      issuer: upstream.issuer,
      clientId: 'rp-1',
      enabled: true,
      trustEmail: false,
      scopes: ['openid', 'email', 'profile'],
      redirectUri: `${issuerOf(api.stack, tenant)}/api/v1/auth/providers/callback`,
    });
    expect(res.text).not.toContain(SECRET);
    const listed = await call(api.url, 'GET', '/sign-in-providers', bearer(tenant, adminToken));
    expect(listed.body.map((p: { id: string }) => p.id)).toEqual([res.body.id]);
    expect(listed.text).not.toContain(SECRET);

    const { Item } = await deps.store.doc.send(
      new GetCommand({ TableName: deps.store.tableName, Key: signInProviderKeys.provider(tenant, res.body.id) }),
    );
    expect(JSON.stringify(Item)).not.toContain(SECRET);
    const plain = await deps.vault.decrypt(Item?.secretCiphertext, secretContext(tenant, res.body.id));
    expect(new TextDecoder().decode(plain)).toBe(SECRET);
    // Bound to its provider: under another provider's context it does not decrypt.
    await expect(deps.vault.decrypt(Item?.secretCiphertext, secretContext(tenant, 'sip_other'))).rejects.toThrow();

    expect((await discoveryOf(tenant)).signInProviders).toEqual([
      { id: res.body.id, kind: 'OIDC', displayName: 'Demo ID' },
    ]);
  });

  it('orders the buttons, and leaves those turned off out', async () => {
    const { tenant, adminToken } = await flows.anAdminTenant();
    const second = await flows.addProvider(tenant, adminToken, anOidcProvider({ displayName: 'Second', order: 5 }));
    const first = await flows.addProvider(tenant, adminToken, anOidcProvider({ displayName: 'First', order: 1 }));
    const off = await flows.addProvider(tenant, adminToken, anOidcProvider({ displayName: 'Off', enabled: false }));
    for (const res of [first, second, off]) expect(res.status, res.text).toBe(201);
    const names = (await discoveryOf(tenant)).signInProviders.map((b: { displayName: string }) => b.displayName);
    expect(names).toEqual(['First', 'Second']);
  });

  it('refuses an issuer whose metadata cannot be read, or that is not public', async () => {
    const { tenant, adminToken } = await flows.anAdminTenant();
    const silent = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      for (const issuer of [
        `http://127.0.0.1:${port}`,
        // Not on loopback, so https only; private, link-local (the metadata service) and shared addresses refused.
        'http://id.example.com',
        'https://10.0.0.8',
        'https://169.254.169.254',
        'https://[fd00:ec2::254]',
        'https://user:pass@id.example.com',
      ]) {
        const res = await flows.addProvider(tenant, adminToken, anOidcProvider({ issuer }));
        expectProblem(res, 400, 'PROVIDER_DISCOVERY_FAILED');
        expect(res.body.errors[0].path).toBe('issuer');
      }
    } finally {
      silent.close();
    }
    expect((await call(api.url, 'GET', '/sign-in-providers', bearer(tenant, adminToken))).body).toEqual([]);
  });

  it('takes what each kind needs and refuses what it does not', async () => {
    const { tenant, adminToken } = await flows.anAdminTenant();
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'GOOGLE', clientId: 'x', clientSecret: 's', issuer: upstream.issuer }, 'issuer'],
      [{ kind: 'GOOGLE', clientId: 'x' }, 'clientSecret'],
      [{ kind: 'APPLE', clientId: 'x', clientSecret: 's' }, 'clientSecret'],
      [{ kind: 'APPLE', clientId: 'x' }, 'apple'],
      [{ kind: 'GITHUB', clientId: 'x', clientSecret: 's', microsoftTenant: 'common' }, 'microsoftTenant'],
      [{ kind: 'OIDC', clientId: 'x', clientSecret: 's', issuer: upstream.issuer }, 'displayName'],
      [{ kind: 'OIDC', clientId: 'x', clientSecret: 's', displayName: 'X' }, 'issuer'],
      // An RSA key is no Apple key (they sign ES256 with P-256).
      [
        { kind: 'APPLE', clientId: 'x', apple: { teamId: 'TEAM123456', keyId: 'KEY1234567', privateKey: RSA_PEM } },
        'apple.privateKey',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await flows.addProvider(tenant, adminToken, body);
      expectProblem(res, 400, 'VALIDATION_FAILED');
      expect(res.body.errors?.[0]?.path ?? res.body.detail, JSON.stringify(body)).toContain(field);
    }
  });

  it('keeps both buttons when two admins add providers at the same moment', async () => {
    const { tenant, adminToken } = await flows.anAdminTenant();
    const added = await Promise.all(
      ['One', 'Two', 'Three'].map((name) =>
        flows.addProvider(tenant, adminToken, anOidcProvider({ displayName: name })),
      ),
    );
    for (const res of added) expect(res.status, res.text).toBe(201);
    const names = (await discoveryOf(tenant)).signInProviders.map((b: { displayName: string }) => b.displayName);
    expect(names.sort()).toEqual(['One', 'Three', 'Two']);
  });

  it('holds at most ten per tenant', async () => {
    const { tenant, adminToken } = await flows.anAdminTenant();
    for (let i = 0; i < 10; i++) {
      const res = await flows.addProvider(tenant, adminToken, anOidcProvider({ displayName: `P${i}` }));
      expect(res.status, res.text).toBe(201);
    }
    expectProblem(await flows.addProvider(tenant, adminToken, anOidcProvider()), 409, 'PROVIDER_LIMIT_REACHED');
  });
});

describe('who may manage providers', () => {
  it('never an API key: not to read, add, change or delete them', async () => {
    const { tenant, adminToken } = await flows.anAdminTenant();
    const added = await flows.addProvider(tenant, adminToken, anOidcProvider());
    const key = await call(api.url, 'POST', `/merchants/${tenant.id}/api-keys`, bearer(tenant, adminToken), {
      label: 'providers',
    });
    expect(key.status, key.text).toBe(201);
    const withKey = { ...tenant.headers, 'x-api-key': key.body.apiKey };
    expectProblem(await call(api.url, 'GET', '/sign-in-providers', withKey), 403, 'FORBIDDEN');
    expectProblem(await call(api.url, 'GET', `/sign-in-providers/${added.body.id}`, withKey), 403, 'FORBIDDEN');
    expectProblem(await call(api.url, 'POST', '/sign-in-providers', withKey, anOidcProvider()), 403, 'FORBIDDEN');
    const change = await call(api.url, 'PATCH', `/sign-in-providers/${added.body.id}`, withKey, { enabled: false });
    expectProblem(change, 403, 'FORBIDDEN');
    expectProblem(await call(api.url, 'DELETE', `/sign-in-providers/${added.body.id}`, withKey), 403, 'FORBIDDEN');
    expect((await discoveryOf(tenant)).signInProviders).toHaveLength(1);
  });

  it('an admin signed in more than ten minutes ago reads them, but changes nothing until signing in again', async () => {
    const { tenant, adminToken } = await flows.anAdminTenant();
    const added = await flows.addProvider(tenant, adminToken, anOidcProvider());
    await ageSignIn(tenant, adminToken, 11 * 60_000);
    expect((await call(api.url, 'GET', '/sign-in-providers', bearer(tenant, adminToken))).status).toBe(200);
    expectProblem(await flows.addProvider(tenant, adminToken, anOidcProvider()), 403, 'REAUTHENTICATION_REQUIRED');
    const change = await call(api.url, 'PATCH', `/sign-in-providers/${added.body.id}`, bearer(tenant, adminToken), {
      clientSecret: 'a-new-secret',
    });
    expectProblem(change, 403, 'REAUTHENTICATION_REQUIRED');
    const removal = await call(api.url, 'DELETE', `/sign-in-providers/${added.body.id}`, bearer(tenant, adminToken));
    expectProblem(removal, 403, 'REAUTHENTICATION_REQUIRED');
  });
});

describe('changing and deleting a provider', () => {
  it('replaces the secret only when one is given, and deletes it with its button', async () => {
    const { tenant, adminToken } = await flows.anAdminTenant();
    const added = await flows.addProvider(tenant, adminToken, anOidcProvider());
    const id = added.body.id as string;
    const renamed = await call(api.url, 'PATCH', `/sign-in-providers/${id}`, bearer(tenant, adminToken), {
      displayName: 'Renamed',
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.secretSetAt).toBe(added.body.secretSetAt);
    expect((await discoveryOf(tenant)).signInProviders[0].displayName).toBe('Renamed');

    const rotated = await call(api.url, 'PATCH', `/sign-in-providers/${id}`, bearer(tenant, adminToken), {
      clientSecret: 'a-new-secret',
    });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.secretSetAt >= added.body.secretSetAt).toBe(true);
    const { Item } = await deps.store.doc.send(
      new GetCommand({ TableName: deps.store.tableName, Key: signInProviderKeys.provider(tenant, id) }),
    );
    const plain = await deps.vault.decrypt(Item?.secretCiphertext, secretContext(tenant, id));
    expect(new TextDecoder().decode(plain)).toBe('a-new-secret');

    const removed = await call(api.url, 'DELETE', `/sign-in-providers/${id}`, bearer(tenant, adminToken));
    expect(removed.status, removed.text).toBe(204);
    expectProblem(await call(api.url, 'GET', `/sign-in-providers/${id}`, bearer(tenant, adminToken)), 404, 'NOT_FOUND');
    expect((await discoveryOf(tenant)).signInProviders).toEqual([]);
  });
});
