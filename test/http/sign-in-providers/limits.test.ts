import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, call, expectProblem } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';
import { signInProviderApi } from '#test/support/sign-in-providers.ts';
import { type OidcUpstream, startOidcUpstream } from '#test/support/upstream/oidc-upstream.ts';

/**
 * Accounts a provider makes are sign-ups like any other: they count in the per-(tenant, IP) hourly signup limit, set
 * low here, as the deployment's 20 would be reached.
 */

const api = useLocalStack({ signupsPerIpPerHour: 2 });
const flows = signInProviderApi(api);
let upstream: OidcUpstream;

beforeAll(async () => {
  upstream = await startOidcUpstream({
    accounts: [1, 2, 3].map((n) => ({ sub: `limit-${n}`, email: `limit-${n}@demo-id.example`, emailVerified: true })),
  });
});
afterAll(() => upstream?.close());

describe('sign-ups through a provider', () => {
  it('past the hourly limit of one IP: 429 RATE_LIMITED, and no account is made; a linked account still signs in', async () => {
    const { tenant, adminToken } = await flows.anAdminTenant();
    const added = await flows.addProvider(tenant, adminToken, {
      kind: 'OIDC',
      displayName: 'Demo ID',
      issuer: upstream.issuer,
      clientId: 'limits',
      clientSecret: 'limits-secret',
    });
    expect(added.status, added.text).toBe(201);
    await upstream.addClient({
      clientId: 'limits',
      clientSecret: 'limits-secret',
      redirectUris: [added.body.redirectUri],
    });
    const providerId = added.body.id as string;

    for (const sub of ['limit-1', 'limit-2']) {
      const res = await flows.signInThrough(tenant, providerId, upstream, { sub });
      expect(res.status, res.text).toBe(200);
    }
    const third = await flows.signInThrough(tenant, providerId, upstream, { sub: 'limit-3' });
    expectProblem(third, 429, 'RATE_LIMITED');
    const users = await call(api.url, 'GET', '/users', bearer(tenant, adminToken));
    expect(users.body.map((u: { email: string }) => u.email)).not.toContain('limit-3@demo-id.example');
    // Signing in is not signing up: an account the provider made before still gets in.
    expect((await flows.signInThrough(tenant, providerId, upstream, { sub: 'limit-1' })).status).toBe(200);
  });
});
