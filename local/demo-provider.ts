import type { Principal } from '#shared/auth/principal.ts';
import type { Deps } from '#shared/deps.ts';
import { createSignInProvider, listSignInProviders, updateSignInProvider } from '#shared/sign-in-providers/admin.ts';
import type { TenantRef } from '#shared/store/keys.ts';
import { merchantRepo } from '#shared/store/merchant-repo.ts';
import { type OidcUpstream, startOidcUpstream } from '#test/support/upstream/oidc-upstream.ts';

/**
 * "Demo ID", the OpenID Provider of the local stack (`npm start`): a real one on 127.0.0.1:`port` (the
 * issuer is `http://127.0.0.1:<port>`), so that "sign in with …" can be tried without a Google account.
 * Its page offers two people: Ada Lovelace, whose e-mail address is verified, and Charles Babbage, whose
 * address is not. One client, with a fixed secret (this is a machine-local demo), may use the redirect URIs given.
 */
export const DEMO_PROVIDER_CLIENT = { clientId: 'demo-id-client', clientSecret: 'demo-id-secret' } as const;

export async function startDemoProvider(options: { port: number; redirectUris: string[] }): Promise<OidcUpstream> {
  return startOidcUpstream({
    port: options.port,
    accounts: [
      {
        sub: 'demo-ada',
        email: 'ada@demo-id.example',
        emailVerified: true,
        name: 'Ada Lovelace',
        givenName: 'Ada',
        familyName: 'Lovelace',
      },
      {
        sub: 'demo-charles',
        email: 'charles@demo-id.example',
        emailVerified: false,
        name: 'Charles Babbage',
        givenName: 'Charles',
        familyName: 'Babbage',
      },
    ],
    clients: [{ ...DEMO_PROVIDER_CLIENT, redirectUris: options.redirectUris }],
  });
}

/**
 * The demo tenant's "Demo ID" button: the provider added once (as its admin would in the console, through the same
 * service), and its issuer kept at the demo provider's address. Returns the provider's id.
 */
export async function ensureDemoProvider(deps: Deps, tenantRef: TenantRef, issuer: string): Promise<string> {
  const tenant = await merchantRepo(deps.store).get(tenantRef);
  if (!tenant?.adminUserId) throw new Error('the demo tenant is missing');
  // The demo tenant's first admin, as if just signed in: the console's own path, without a browser.
  const admin: Principal = {
    kind: 'user',
    userId: tenant.adminUserId,
    sessionId: 'local-demo',
    roles: ['SUPER_ADMIN'],
    authority: 0,
    authenticatedAt: deps.clock.now().toISOString(),
  };
  const existing = (await listSignInProviders(deps, tenant, admin)).find((p) => p.displayName === DEMO_PROVIDER_NAME);
  if (existing?.issuer === issuer) return existing.id;
  if (existing) return (await updateSignInProvider(deps, tenant, admin, existing.id, { issuer })).id;
  const created = await createSignInProvider(deps, tenant, admin, {
    kind: 'OIDC',
    displayName: DEMO_PROVIDER_NAME,
    issuer,
    ...DEMO_PROVIDER_CLIENT,
  });
  return created.id;
}

const DEMO_PROVIDER_NAME = 'Demo ID';
