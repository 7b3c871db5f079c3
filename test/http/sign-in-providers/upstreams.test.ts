import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTenant } from '#test/support/auth.ts';
import { expectProblem } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';
import { signInProviderApi } from '#test/support/sign-in-providers.ts';
import { type GithubStub, startGithubStub } from '#test/support/upstream/github-stub.ts';
import { type HostileOidc, startHostileOidc, TAMPERS } from '#test/support/upstream/hostile-oidc.ts';
import { type OidcUpstream, startOidcUpstream } from '#test/support/upstream/oidc-upstream.ts';

/**
 * Each kind of provider over its own protocol on loopback: a real OpenID provider playing Google and Entra ID (the
 * local stack told to find them there, as LOCAL_SIGN_IN_PROVIDERS says), a GitHub OAuth 2 stub, an answer posted
 * (Apple's form_post), and a hand-made provider whose ID token is bad in one way at a time.
 */

let google: OidcUpstream;
let microsoft: OidcUpstream;
let github: GithubStub;
let hostile: HostileOidc;

// Started before the stack, which is told where they are.
beforeAll(async () => {
  [google, microsoft, github, hostile] = await Promise.all([
    startOidcUpstream({
      name: 'Google',
      issuerPath: '/google',
      accounts: [
        { sub: 'g-1', email: 'grace@gmail.test', emailVerified: true, givenName: 'Grace', familyName: 'Hopper' },
      ],
    }),
    startOidcUpstream({
      name: 'Microsoft',
      accounts: [
        // Entra ID's own word on an address: xms_edov (the domain is the directory's, verified).
        { sub: 'm-1', email: 'kay@contoso.test', emailVerified: true, extraClaims: { xms_edov: true, tid: 'x' } },
        { sub: 'm-2', email: 'typed@contoso.test', emailVerified: true, extraClaims: { xms_edov: false, tid: 'x' } },
      ],
    }),
    startGithubStub({
      clients: [{ clientId: 'gh-client', clientSecret: 'gh-secret' }],
      users: [
        {
          id: 4001,
          login: 'linus',
          name: 'Linus Torvalds',
          emails: [
            { email: 'old@example.test', primary: false, verified: true },
            { email: 'linus@example.test', primary: true, verified: true },
          ],
        },
        {
          id: 4002,
          login: 'anon',
          name: null,
          emails: [{ email: 'anon@example.test', primary: true, verified: false }],
        },
      ],
    }),
    startHostileOidc({ clientId: 'hostile-client', clientSecret: 'hostile-secret' }),
  ]);
});
afterAll(() => Promise.all([google?.close(), microsoft?.close(), github?.close(), hostile?.close()]));

const api = useLocalStack({
  signInProviderEndpoints: () => ({ GOOGLE: google.issuer, MICROSOFT: microsoft.issuer, GITHUB: github.baseUrl }),
});
const flows = signInProviderApi(api);

async function withProvider(body: Record<string, unknown>, upstream?: OidcUpstream) {
  const { tenant, adminToken } = await flows.anAdminTenant();
  const res = await flows.addProvider(tenant, adminToken, body);
  expect(res.status, res.text).toBe(201);
  if (upstream) {
    await upstream.addClient({
      clientId: String(body.clientId),
      clientSecret: String(body.clientSecret),
      redirectUris: [res.body.redirectUri],
    });
  }
  return { tenant, providerId: res.body.id as string, provider: res.body };
}

describe('Google (an OpenID provider with email_verified)', () => {
  it('signs a new user up with its verified address and names', async () => {
    const { tenant, providerId, provider } = await withProvider(
      { kind: 'GOOGLE', clientId: 'google-client', clientSecret: 'google-secret' },
      google,
    );
    expect(provider).toMatchObject({ displayName: 'Google', issuer: google.issuer });
    const res = await flows.signInThrough(tenant, providerId, google, { sub: 'g-1' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.user).toMatchObject({ email: 'grace@gmail.test', firstName: 'Grace', lastName: 'Hopper' });
  });
});

describe('Microsoft (Entra ID: an address counts as verified only by xms_edov)', () => {
  it('takes an address whose domain the directory verified, and refuses one a directory admin merely typed', async () => {
    const { tenant, providerId, provider } = await withProvider(
      { kind: 'MICROSOFT', clientId: `ms-${Date.now()}`, clientSecret: 'ms-secret' },
      microsoft,
    );
    expect(provider.microsoftTenant).toBe('common');
    const verified = await flows.signInThrough(tenant, providerId, microsoft, { sub: 'm-1' });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.data.user.email).toBe('kay@contoso.test');
    const typed = await flows.signInThrough(tenant, providerId, microsoft, { sub: 'm-2' });
    expectProblem(typed, 403, 'PROVIDER_EMAIL_NOT_VERIFIED');
  });
});

describe('GitHub (OAuth 2 and its user API)', () => {
  it("signs in with the user's id and its verified primary address; an unverified primary is refused", async () => {
    const { tenant, providerId, provider } = await withProvider({
      kind: 'GITHUB',
      clientId: 'gh-client',
      clientSecret: 'gh-secret',
    });
    expect(provider.scopes).toEqual(['read:user', 'user:email']);
    const res = await flows.signInThrough(tenant, providerId, github, { userId: 4001 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.user).toMatchObject({ email: 'linus@example.test', firstName: 'Linus', lastName: 'Torvalds' });
    const again = await flows.signInThrough(tenant, providerId, github, { userId: 4001 });
    expect(again.body.data.user.id).toBe(res.body.data.user.id);
    expectProblem(
      await flows.signInThrough(tenant, providerId, github, { userId: 4002 }),
      403,
      'PROVIDER_EMAIL_NOT_VERIFIED',
    );
  });

  it('a wrong client secret fails at the callback, and nothing is made', async () => {
    const { tenant, providerId } = await withProvider({ kind: 'GITHUB', clientId: 'gh-client', clientSecret: 'wrong' });
    const outcome = await flows.throughProvider(tenant, providerId, github, { userId: 4001 });
    expect(outcome.error).toBe('PROVIDER_SIGN_IN_FAILED');
    expect(outcome.result).toBeNull();
  });
});

describe('an answer the provider posts (response_mode=form_post, as Apple answers)', () => {
  it("is taken at the same callback by POST, from the provider's page (its Origin)", async () => {
    const { tenant, providerId } = await withProvider(
      { kind: 'GOOGLE', clientId: 'google-posting', clientSecret: 'google-secret' },
      google,
    );
    const started = await flows.start(tenant, providerId);
    const url = new URL(started.authorizationUrl ?? '');
    url.searchParams.set('response_mode', 'form_post');
    const answer = await google.authorize(url, { sub: 'g-1' });
    expect(answer.method).toBe('POST');
    // A browser posting the provider's form names the provider's page as its Origin.
    const outcome = await flows.deliver(answer, { origin: new URL(google.issuer).origin });
    expect(outcome.status).toBe(302);
    expect(outcome.error).toBeNull();
    const res = await flows.signIn(tenant, outcome.result ?? '', started.verifier);
    expect(res.status, res.text).toBe(200);
  });
});

describe('an ID token that must be refused', () => {
  let tenant: TestTenant;
  let providerId: string;
  beforeAll(async () => {
    ({ tenant, providerId } = await withProvider({
      kind: 'OIDC',
      displayName: 'Hostile',
      issuer: hostile.issuer,
      clientId: 'hostile-client',
      clientSecret: 'hostile-secret',
    }));
  });

  const REFUSED = TAMPERS.filter((tamper) => tamper !== 'none' && tamper !== 'email-unverified');
  it.each(REFUSED)('%s: the callback fails, no result is made', async (tamper) => {
    hostile.setTamper(tamper);
    const outcome = await flows.throughProvider(tenant, providerId, hostile, undefined as never);
    expect(outcome.error).toBe('PROVIDER_SIGN_IN_FAILED');
    expect(outcome.result).toBeNull();
  });

  // Before the correct token below links the same account.
  it('email_verified false: the account is proven, but its address cannot make or find an account', async () => {
    hostile.setTamper('email-unverified');
    const outcome = await flows.throughProvider(tenant, providerId, hostile, undefined as never);
    expect(outcome.result).toEqual(expect.any(String));
    expectProblem(
      await flows.signIn(tenant, outcome.result ?? '', outcome.verifier),
      403,
      'PROVIDER_EMAIL_NOT_VERIFIED',
    );
  });
  it('a correct token from the same provider signs in (the refusals are the token, not the setup)', async () => {
    hostile.setTamper('none');
    const res = await flows.signInThrough(tenant, providerId, hostile, undefined as never);
    expect(res.status, res.text).toBe(200);
  });
});
