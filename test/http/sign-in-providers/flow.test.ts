import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvitation } from '#shared/auth/invitations.ts';
import { totpCodeAt } from '#shared/auth/totp.ts';
import { aUser, setLoginPolicy, type TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { bearer, call, expectProblem, post } from '#test/support/http.ts';
import { issuerOf } from '#test/support/oidc.ts';
import { useLocalStack } from '#test/support/server.ts';
import { aPagePkce, signInProviderApi } from '#test/support/sign-in-providers.ts';
import { type OidcUpstream, startOidcUpstream } from '#test/support/upstream/oidc-upstream.ts';
import { ageSignIn } from '../oidc/helpers.ts';

/**
 * Signing in with an OpenID provider, end to end over real protocol: a real OpenID Provider (oidc-provider) on
 * loopback plays the upstream, the local stack the tenant; the browser's part is played by plain requests.
 */

const api = useLocalStack();
const flows = signInProviderApi(api);
let upstream: OidcUpstream;
let accounts = 0;

beforeAll(async () => {
  upstream = await startOidcUpstream({ accounts: [] });
});
afterAll(() => upstream?.close());

/** An account at the upstream: `sub` and its address (verified unless said). */
function anUpstreamAccount(options: { email?: string; emailVerified?: boolean } = {}) {
  accounts++;
  const sub = `sub-${process.pid}-${accounts}`;
  const email = options.email ?? `ada-${process.pid}-${accounts}@demo-id.example`;
  upstream.setAccount({
    sub,
    email,
    emailVerified: options.emailVerified ?? true,
    givenName: 'Ada',
    familyName: 'Lovelace',
    name: 'Ada Lovelace',
  });
  return { sub, email };
}

/** A tenant with the upstream as its provider (kind OIDC), registered at the upstream with the tenant's callback. */
async function aTenantWithProvider(
  options: { trustEmail?: boolean; tenant?: Parameters<typeof flows.anAdminTenant>[0] } = {},
) {
  const { tenant, adminToken } = await flows.anAdminTenant(options.tenant);
  const clientId = `client-${tenant.subdomain}`;
  const res = await flows.addProvider(tenant, adminToken, {
    kind: 'OIDC',
    displayName: 'Demo ID',
    issuer: upstream.issuer,
    clientId,
    clientSecret: 'upstream-secret',
    trustEmail: options.trustEmail ?? false,
  });
  expect(res.status, res.text).toBe(201);
  await upstream.addClient({ clientId, clientSecret: 'upstream-secret', redirectUris: [res.body.redirectUri] });
  return { tenant, adminToken, providerId: res.body.id as string, redirectUri: res.body.redirectUri as string };
}

async function me(tenant: TestTenant, token: string) {
  const res = await call(api.url, 'GET', '/users/me', bearer(tenant, token));
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe('a first sign-in with a provider', () => {
  it('makes an account with the verified address, signed in, its provider linked and recorded', async () => {
    const { tenant, providerId } = await aTenantWithProvider();
    const account = anUpstreamAccount();
    const res = await flows.signInThrough(tenant, providerId, upstream, { sub: account.sub });
    expect(res.status, res.text).toBe(200);
    const { accessToken, user } = res.body.data;
    expect(user).toMatchObject({ email: account.email, emailStatus: 'VALIDATED', status: 'ACTIVE' });
    expect(user).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
    expect((await me(tenant, accessToken)).email).toBe(account.email);

    const linked = await flows.identities(tenant, accessToken);
    expect(linked.body).toEqual([
      expect.objectContaining({ providerId, kind: 'OIDC', displayName: 'Demo ID', email: account.email }),
    ]);
    const activity = await call(api.url, 'GET', '/users/me/activity', bearer(tenant, accessToken));
    const types = activity.body.items.map((item: { type: string }) => item.type);
    expect(types).toEqual(expect.arrayContaining(['SIGNUP', 'IDENTITY_LINKED', 'LOGIN']));
    const login = activity.body.items.find((item: { type: string }) => item.type === 'LOGIN');
    expect(login.method).toBe('PROVIDER');
  });

  it('signs the same provider account in to the same user the next time', async () => {
    const { tenant, providerId } = await aTenantWithProvider();
    const account = anUpstreamAccount();
    const first = await flows.signInThrough(tenant, providerId, upstream, { sub: account.sub });
    const again = await flows.signInThrough(tenant, providerId, upstream, { sub: account.sub });
    expect(again.status, again.text).toBe(200);
    expect(again.body.data.user.id).toBe(first.body.data.user.id);
    const linked = await flows.identities(tenant, again.body.data.accessToken);
    expect(linked.body[0].lastUsedAt).toEqual(expect.any(String));
  });

  it('two first sign-ins of one provider account at once end in one account, both signed in', async () => {
    const { tenant, providerId } = await aTenantWithProvider();
    const account = anUpstreamAccount();
    const [a, b] = await Promise.all([
      flows.throughProvider(tenant, providerId, upstream, { sub: account.sub }),
      flows.throughProvider(tenant, providerId, upstream, { sub: account.sub }),
    ]);
    const [first, second] = await Promise.all([
      flows.signIn(tenant, a.result ?? '', a.verifier),
      flows.signIn(tenant, b.result ?? '', b.verifier),
    ]);
    expect(first.status, first.text).toBe(200);
    expect(second.status, second.text).toBe(200);
    expect(second.body.data?.user?.id, second.text).toBe(first.body.data.user.id);
  });

  it("a deleted user's provider account is free again: it signs up as a new account", async () => {
    const { tenant, adminToken, providerId } = await aTenantWithProvider();
    const account = anUpstreamAccount();
    const first = await flows.signInThrough(tenant, providerId, upstream, { sub: account.sub });
    const deleted = await call(api.url, 'DELETE', `/users/${first.body.data.user.id}`, bearer(tenant, adminToken));
    expect(deleted.status, deleted.text).toBe(204);
    const again = await flows.signInThrough(tenant, providerId, upstream, { sub: account.sub });
    expect(again.status, again.text).toBe(200);
    expect(again.body.data.user.id).not.toBe(first.body.data.user.id);
    expect(again.body.data.user.email).toBe(account.email);
  });

  it('in an INVITATION_ONLY tenant: an uninvited address is refused, an invited one accepts its invitation', async () => {
    const { tenant, providerId } = await aTenantWithProvider({ tenant: { signupMode: 'INVITATION_ONLY' } });
    const stranger = anUpstreamAccount();
    expectProblem(
      await flows.signInThrough(tenant, providerId, upstream, { sub: stranger.sub }),
      403,
      'SIGNUP_NOT_ALLOWED',
    );

    const invitee = anUpstreamAccount();
    const invited = await createInvitation(makeTestDeps(), tenant, {
      email: invitee.email,
      invitedBy: tenant.adminUserId,
      firstName: 'Ivy',
    });
    const res = await flows.signInThrough(tenant, providerId, upstream, { sub: invitee.sub });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.user).toMatchObject({ id: invited.userId, status: 'ACTIVE', emailStatus: 'VALIDATED' });
  });

  it('refuses an address the provider has not verified, whether or not an account has it', async () => {
    const { tenant, providerId } = await aTenantWithProvider({ trustEmail: true });
    const unverified = anUpstreamAccount({ emailVerified: false });
    const alone = await flows.signInThrough(tenant, providerId, upstream, { sub: unverified.sub });
    expectProblem(alone, 403, 'PROVIDER_EMAIL_NOT_VERIFIED');

    const owner = await aUser(tenant);
    const squatter = anUpstreamAccount({ email: owner.email, emailVerified: false });
    const linking = await flows.signInThrough(tenant, providerId, upstream, { sub: squatter.sub });
    expectProblem(linking, 403, 'PROVIDER_EMAIL_NOT_VERIFIED');
    const owners = await flows.identities(tenant, await loginAs(tenant, owner));
    expect(owners.body).toEqual([]);
  });
});

async function loginAs(tenant: TestTenant, user: { email: string; password: string }): Promise<string> {
  const res = await post(`${api.url}/auth/login`, { email: user.email, password: user.password }, tenant.headers);
  expect(res.status, res.text).toBe(200);
  return res.body.data.accessToken;
}

describe('an address that already has an account', () => {
  it('is linked only once its owner signs in another way (linkRequired), and then signs in with the provider', async () => {
    const { tenant, providerId } = await aTenantWithProvider();
    const owner = await aUser(tenant);
    const account = anUpstreamAccount({ email: owner.email });
    const outcome = await flows.throughProvider(tenant, providerId, upstream, { sub: account.sub });
    const first = await flows.signIn(tenant, outcome.result ?? '', outcome.verifier);
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toMatchObject({ linkRequired: true, email: owner.email, providerName: 'Demo ID' });
    expect(first.body.data.accessToken).toBeUndefined();

    // Asked again with the same result: still only linking.
    const again = await flows.signIn(tenant, outcome.result ?? '', outcome.verifier);
    expect(again.body.data).toMatchObject({ linkRequired: true });

    const token = await loginAs(tenant, owner);
    const link = await post(
      `${api.url}/users/me/identities`,
      { result: outcome.result, codeVerifier: outcome.verifier },
      bearer(tenant, token),
    );
    expect(link.status, link.text).toBe(201);
    expect(link.body).toMatchObject({ providerId, email: owner.email });

    const later = await flows.signInThrough(tenant, providerId, upstream, { sub: account.sub });
    expect(later.status, later.text).toBe(200);
    expect(later.body.data.user.id).toBe(owner.id);
  });

  it("another account's session cannot take the pending link", async () => {
    const { tenant, providerId } = await aTenantWithProvider();
    const owner = await aUser(tenant);
    const other = await aUser(tenant);
    const account = anUpstreamAccount({ email: owner.email });
    const outcome = await flows.throughProvider(tenant, providerId, upstream, { sub: account.sub });
    expect((await flows.signIn(tenant, outcome.result ?? '', outcome.verifier)).body.data.linkRequired).toBe(true);
    const token = await loginAs(tenant, other);
    const link = await post(
      `${api.url}/users/me/identities`,
      { result: outcome.result, codeVerifier: outcome.verifier },
      bearer(tenant, token),
    );
    expectProblem(link, 401, 'PROVIDER_SIGN_IN_FAILED');
    expect((await flows.identities(tenant, token)).body).toEqual([]);
  });

  it('with a provider trusted for e-mail: linked at once, and a TOTP user still gets the TOTP step', async () => {
    const { tenant, providerId } = await aTenantWithProvider({ trustEmail: true });
    const owner = await aUser(tenant, { totp: true });
    const account = anUpstreamAccount({ email: owner.email });
    const first = await flows.signInThrough(tenant, providerId, upstream, { sub: account.sub });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toMatchObject({ challengeRequired: true, challengeType: 'TOTP' });
    const verified = await post(
      `${api.url}/auth/login/verify`,
      { challengeId: first.body.data.challengeId, code: totpCodeAt(owner.totpSecret ?? '', new Date()) },
      tenant.headers,
    );
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.data.user.id).toBe(owner.id);
  });

  it('refuses a disabled account after the provider proved it', async () => {
    const { tenant, providerId } = await aTenantWithProvider({ trustEmail: true });
    const owner = await aUser(tenant, { status: 'DISABLED' });
    const account = anUpstreamAccount({ email: owner.email });
    expectProblem(
      await flows.signInThrough(tenant, providerId, upstream, { sub: account.sub }),
      403,
      'ACCOUNT_DISABLED',
    );
  });
});

describe('refusals of the flow', () => {
  it('a result is taken once, and only with the verifier of the page that started', async () => {
    const { tenant, providerId } = await aTenantWithProvider();
    const account = anUpstreamAccount();
    const outcome = await flows.throughProvider(tenant, providerId, upstream, { sub: account.sub });
    // Another verifier: the page's with its last character changed.
    const other = `${outcome.verifier.slice(0, -1)}${outcome.verifier.endsWith('A') ? 'B' : 'A'}`;
    const stranger = await flows.signIn(tenant, outcome.result ?? '', other);
    expectProblem(stranger, 401, 'PROVIDER_SIGN_IN_FAILED');
    // The wrong verifier used it up: the page's own is refused too (a stolen result is worth one guess, then nothing).
    expectProblem(await flows.signIn(tenant, outcome.result ?? '', outcome.verifier), 401, 'PROVIDER_SIGN_IN_FAILED');

    const fresh = await flows.throughProvider(tenant, providerId, upstream, { sub: account.sub });
    expect((await flows.signIn(tenant, fresh.result ?? '', fresh.verifier)).status).toBe(200);
    expectProblem(await flows.signIn(tenant, fresh.result ?? '', fresh.verifier), 401, 'PROVIDER_SIGN_IN_FAILED');
  });

  it('a replayed state (the provider answer delivered twice) comes back as a failure the second time', async () => {
    const { tenant, providerId } = await aTenantWithProvider();
    const account = anUpstreamAccount();
    const started = await flows.start(tenant, providerId);
    const answer = await upstream.authorize(started.authorizationUrl ?? '', { sub: account.sub });
    const first = await flows.deliver(answer);
    expect(first.result).toEqual(expect.any(String));
    const replay = await flows.deliver(answer);
    expect(replay.status).toBe(302);
    expect(replay.result).toBeNull();
    expect(replay.error).toBe('PROVIDER_SIGN_IN_FAILED');
  });

  it('a state the service never sent (or altered) finds no sign-in, and the right one still works after', async () => {
    const { tenant, providerId } = await aTenantWithProvider();
    const account = anUpstreamAccount();
    const started = await flows.start(tenant, providerId);
    const answer = await upstream.authorize(started.authorizationUrl ?? '', { sub: account.sub });
    const forged = new URL(answer.url);
    forged.searchParams.set('state', `${forged.searchParams.get('state')?.slice(0, -2)}xx`);
    const outcome = await flows.deliver({ ...answer, url: forged, params: forged.searchParams });
    expect(outcome.error).toBe('PROVIDER_SIGN_IN_FAILED');
    expect(outcome.result).toBeNull();
    expect((await flows.deliver(answer)).result).toEqual(expect.any(String));
  });

  it("a callback on another tenant's host finds no sign-in there", async () => {
    const { tenant, providerId } = await aTenantWithProvider();
    const { tenant: other } = await aTenantWithProvider();
    const account = anUpstreamAccount();
    const started = await flows.start(tenant, providerId);
    const answer = await upstream.authorize(started.authorizationUrl ?? '', { sub: account.sub });
    const elsewhere = new URL(answer.url);
    elsewhere.host = new URL(issuerOf(api.stack, other)).host;
    const outcome = await flows.deliver({ ...answer, url: elsewhere });
    expect(outcome.error).toBe('PROVIDER_SIGN_IN_FAILED');
    expect(outcome.location.origin).toBe(issuerOf(api.stack, other));
    // The right host still takes it: nothing was used up by the other tenant.
    expect((await flows.deliver(answer)).result).toEqual(expect.any(String));
  });

  it('a user who cancels at the provider comes back with PROVIDER_SIGN_IN_CANCELLED', async () => {
    const { tenant, providerId } = await aTenantWithProvider();
    const started = await flows.start(tenant, providerId);
    const outcome = await flows.deliver(await upstream.authorize(started.authorizationUrl ?? '', { cancel: true }));
    expect(outcome.error).toBe('PROVIDER_SIGN_IN_CANCELLED');
    expect(outcome.location.pathname).toBe('/sign-in');
  });

  it('a provider turned off: no button, no start, and a sign-in already at the provider fails', async () => {
    const { tenant, adminToken, providerId } = await aTenantWithProvider();
    const account = anUpstreamAccount();
    const started = await flows.start(tenant, providerId);
    const answer = await upstream.authorize(started.authorizationUrl ?? '', { sub: account.sub });
    const off = await call(api.url, 'PATCH', `/sign-in-providers/${providerId}`, bearer(tenant, adminToken), {
      enabled: false,
    });
    expect(off.status, off.text).toBe(200);
    expect((await flows.deliver(answer)).error).toBe('PROVIDER_SIGN_IN_FAILED');
    expectProblem((await flows.start(tenant, providerId)).res, 404, 'NOT_FOUND');
    const discovery = await call(api.url, 'GET', `/auth/discovery?clientId=${tenant.publicApiKey}`, {
      origin: 'https://shop.example',
    });
    expect(discovery.body.signInProviders).toEqual([]);
  });

  it('returns only to the hosted pages or an allowed origin', async () => {
    const { tenant, providerId } = await aTenantWithProvider();
    const refused = await flows.start(tenant, providerId, { returnTo: 'https://evil.example/steal' });
    expectProblem(refused.res, 400, 'VALIDATION_FAILED');
    const allowed = await flows.start(tenant, providerId, { returnTo: 'https://shop.example/signed-in' });
    expect(allowed.res.status, allowed.res.text).toBe(200);
  });

  it('sends state, nonce and PKCE (S256) to the provider, and its own callback as redirect_uri', async () => {
    const { tenant, providerId, redirectUri } = await aTenantWithProvider();
    const { authorizationUrl } = await flows.start(tenant, providerId);
    const url = new URL(authorizationUrl ?? '');
    expect(url.href.startsWith(upstream.issuer)).toBe(true);
    expect(url.searchParams.get('redirect_uri')).toBe(redirectUri);
    expect(redirectUri).toBe(`${issuerOf(api.stack, tenant)}/api/v1/auth/providers/callback`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    for (const name of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(name)).toMatch(/^.{43,}$/);
    expect(url.searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email']));
  });
});

describe('linked providers of a signed-in user', () => {
  it('links from the account (recent sign-in), refuses a second link of the same provider, unlinks while a password remains', async () => {
    const { tenant, providerId } = await aTenantWithProvider();
    const user = await aUser(tenant);
    const token = await loginAs(tenant, user);
    const account = anUpstreamAccount();
    const pkce = aPagePkce();
    const started = await post(
      `${api.url}/users/me/identities/start`,
      { providerId, returnTo: `${issuerOf(api.stack, tenant)}/account`, codeChallenge: pkce.challenge },
      bearer(tenant, token),
    );
    expect(started.status, started.text).toBe(200);
    const outcome = await flows.deliver(await upstream.authorize(started.body.authorizationUrl, { sub: account.sub }));
    expect(outcome.location.pathname).toBe('/account');
    const linked = await post(
      `${api.url}/users/me/identities`,
      { result: outcome.result, codeVerifier: pkce.verifier },
      bearer(tenant, token),
    );
    expect(linked.status, linked.text).toBe(201);
    // The provider account's own address need not be the user's: the user proved both.
    expect(linked.body).toMatchObject({ providerId, email: account.email });

    const twice = await post(
      `${api.url}/users/me/identities/start`,
      { providerId, returnTo: `${issuerOf(api.stack, tenant)}/account`, codeChallenge: pkce.challenge },
      bearer(tenant, token),
    );
    expectProblem(twice, 409, 'PROVIDER_ALREADY_LINKED');

    const signedIn = await flows.signInThrough(tenant, providerId, upstream, { sub: account.sub });
    expect(signedIn.body.data.user.id).toBe(user.id);

    const unlink = await call(api.url, 'DELETE', `/users/me/identities/${providerId}`, bearer(tenant, token));
    expect(unlink.status, unlink.text).toBe(204);
    expect((await flows.identities(tenant, token)).body).toEqual([]);
  });

  it('refuses to unlink the only way to sign in (an account the provider made, in a password-only tenant)', async () => {
    const { tenant, providerId } = await aTenantWithProvider();
    const account = anUpstreamAccount();
    const res = await flows.signInThrough(tenant, providerId, upstream, { sub: account.sub });
    const token = res.body.data.accessToken;
    const unlink = await call(api.url, 'DELETE', `/users/me/identities/${providerId}`, bearer(tenant, token));
    expectProblem(unlink, 409, 'LAST_SIGN_IN_METHOD');
    // Where e-mail codes sign in, the address is a way in: the link may go.
    await setLoginPolicy(tenant, { loginMode: 'PASSWORD_OR_OTP_EMAIL' });
    const allowed = await call(api.url, 'DELETE', `/users/me/identities/${providerId}`, bearer(tenant, token));
    expect(allowed.status, allowed.text).toBe(204);
  });
});

describe('proving it is you again with a provider', () => {
  it('lets an account with no password freshen its session, and then change how it signs in', async () => {
    const { tenant, providerId } = await aTenantWithProvider();
    const account = anUpstreamAccount();
    const first = await flows.signInThrough(tenant, providerId, upstream, { sub: account.sub });
    const token = first.body.data.accessToken;
    await ageSignIn(tenant, token, 11 * 60_000);
    const pkce = aPagePkce();
    const startLink = () =>
      post(
        `${api.url}/users/me/identities/start`,
        { providerId, returnTo: `${issuerOf(api.stack, tenant)}/account`, codeChallenge: pkce.challenge },
        bearer(tenant, token),
      );
    expectProblem(await startLink(), 403, 'REAUTHENTICATION_REQUIRED');

    const again = await flows.throughProvider(tenant, providerId, upstream, { sub: account.sub });
    const reauth = await post(
      `${api.url}/auth/reauthenticate/provider`,
      { result: again.result, codeVerifier: again.verifier },
      bearer(tenant, token),
    );
    expect(reauth.status, reauth.text).toBe(204);
    // Recent again: the start is judged on (this provider is linked already).
    expectProblem(await startLink(), 409, 'PROVIDER_ALREADY_LINKED');
  });

  it("refuses a provider account that is not the caller's, and asks a TOTP user for the code", async () => {
    const { tenant, providerId } = await aTenantWithProvider({ trustEmail: true });
    const owner = await aUser(tenant, { totp: true });
    const mine = anUpstreamAccount({ email: owner.email });
    const linking = await flows.signInThrough(tenant, providerId, upstream, { sub: mine.sub });
    expect(linking.body.data.challengeType, linking.text).toBe('TOTP');
    const token = (
      await post(
        `${api.url}/auth/login/verify`,
        { challengeId: linking.body.data.challengeId, code: totpCodeAt(owner.totpSecret ?? '', new Date()) },
        tenant.headers,
      )
    ).body.data.accessToken;

    const stranger = anUpstreamAccount();
    const theirs = await flows.throughProvider(tenant, providerId, upstream, { sub: stranger.sub });
    const refused = await post(
      `${api.url}/auth/reauthenticate/provider`,
      { result: theirs.result, codeVerifier: theirs.verifier, totpCode: '000000' },
      bearer(tenant, token),
    );
    expectProblem(refused, 401, 'PROVIDER_SIGN_IN_FAILED');

    const ours = await flows.throughProvider(tenant, providerId, upstream, { sub: mine.sub });
    const withoutCode = await post(
      `${api.url}/auth/reauthenticate/provider`,
      { result: ours.result, codeVerifier: ours.verifier },
      bearer(tenant, token),
    );
    expectProblem(withoutCode, 400, 'VALIDATION_FAILED');
    // A mistyped code is typed again: the provider's result is kept until the code is right.
    const send = (totpCode: string) =>
      post(
        `${api.url}/auth/reauthenticate/provider`,
        { result: ours.result, codeVerifier: ours.verifier, totpCode },
        bearer(tenant, token),
      );
    expectProblem(await send('000000'), 401, 'INVALID_CODE');
    const withCode = await send(owner.backupCodes?.[0] ?? '');
    expect(withCode.status, withCode.text).toBe(204);
    // Then it is used up.
    expectProblem(await send(owner.backupCodes?.[1] ?? ''), 401, 'PROVIDER_SIGN_IN_FAILED');
  });
});
