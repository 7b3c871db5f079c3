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
