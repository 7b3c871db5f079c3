import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROVIDER_CLIENT, startDemoProvider } from '#local/demo-provider.ts';
import type { OidcUpstream } from '#test/support/upstream/oidc-upstream.ts';
import { authorizationUrl, discover, finishAuthorization } from '#test/support/upstream/relying-party.ts';

const rp = { ...DEMO_PROVIDER_CLIENT, redirectUri: 'http://demo.localhost:3000/api/auth/upstream/callback' };

let demo: OidcUpstream;
beforeAll(async () => {
  demo = await startDemoProvider({ port: 0, redirectUris: [rp.redirectUri] });
});
afterAll(() => demo?.close());

describe('the local stack’s Demo ID', () => {
  it('signs in Ada with a verified address and Charles with an unverified one', async () => {
    const as = await discover(demo.issuer);
    const forAda = await authorizationUrl(as, rp);
    const ada = await finishAuthorization(as, rp, forAda, await demo.authorize(forAda.url, { sub: 'demo-ada' }));
    expect(ada.claims).toMatchObject({ name: 'Ada Lovelace', email: 'ada@demo-id.example', email_verified: true });

    const forCharles = await authorizationUrl(as, rp);
    const charles = await finishAuthorization(
      as,
      rp,
      forCharles,
      await demo.authorize(forCharles.url, { sub: 'demo-charles' }),
    );
    expect(charles.claims).toMatchObject({ email: 'charles@demo-id.example', email_verified: false });
  });
});
