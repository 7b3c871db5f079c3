import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminApi, anEmail, aRoleName } from '#test/support/admin.ts';
import { aTenantWith, aUser, latestCodeTo, type TestTenant } from '#test/support/auth.ts';
import { type ResourceName, violationsOf } from '#test/support/brief-resources.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import type { Answer } from '#test/support/http.ts';
import { hostedCeremony, passkeySignInBody } from '#test/support/passkeys.ts';
import { useLocalStack } from '#test/support/server.ts';
import { aPagePkce, signInProviderApi } from '#test/support/sign-in-providers.ts';
import { register } from '#test/support/soft-authenticator.ts';
import { startOidcUpstream } from '#test/support/upstream/oidc-upstream.ts';
import { aStoredWebhookAttempt, aStoredWebhookEvent, LOOPBACK_HOOK } from '#test/support/webhooks.ts';

/**
 * A client written from the brief's field tables (test/support/brief-resources.ts,
 * kept by hand): every route that answers a resource is called, and
 * every field of every answer is checked against the table: present, of its
 * type, null only where the brief allows it, and one of its values. A renamed
 * field, a new value or a field gone fails here. The last test checks that no
 * documented route with a JSON answer was left out.
 */

const api = useLocalStack();
const { call, logIn, bearer } = adminApi(() => api.url);
const ORIGIN = 'https://shop.example';
const PASSWORD = 'Monstera-42-leaf';

/** Answers of the documented routes that are not the brief's resources: standards' own documents. */
const NOT_BRIEF_RESOURCES = new Set([
  'GET /openapi.json',
  'GET /.well-known/jwks.json',
  'GET /.well-known/openid-configuration',
  // The OpenID Provider: its protocol documents are OAuth's and OpenID Connect's (test/http/oidc/ holds them to
  // those specs), and the sign-in page's steps are its own (test/http/oidc/, test/web/journeys/oidc-*).
  'GET /oidc/openid-configuration',
  'POST /oidc/token',
  'GET /oidc/userinfo',
  'POST /oidc/userinfo',
  'GET /oidc/authorization-requests/{requestId}',
  'POST /oidc/authorization-requests/{requestId}/complete',
  'POST /oidc/authorization-requests/{requestId}/cancel',
  'POST /oidc/logout-requests/{logoutId}/complete',
  // The hosted sign-up page's look at an invitation link: not a resource of the brief, its answer held to its
  // schema by every http answer's check against the document, and its fields by test/http/auth/invitation-lookup.test.ts.
  'POST /auth/invitations/lookup',
  // An invitation sent again: its answer (the user and the new expiry) is not a resource of the brief either; held
  // to its schema by every http answer's check against the document, its fields by test/http/admin/user-mail.test.ts.
  'POST /users/{id}/invitation',
  // WebAuthn's own options (PublicKeyCredentialCreationOptionsJSON and ...RequestOptionsJSON) and Related Origin
  // Requests' document: held to their schemas by every answer's check against the document, their fields by
  // test/http/passkeys/passkeys.test.ts and the passkey journeys.
  'POST /users/me/passkeys/options',
  'POST /auth/passkeys/options',
  'POST /auth/reauthenticate/passkey/options',
  'GET /passkeys/related-origins',
  // Where the browser goes at a sign-in provider: OAuth's authorization URL, held to its schema by every answer's check
  // against the document, its parameters by test/http/sign-in-providers/.
  'POST /auth/providers/{providerId}/start',
  'POST /users/me/identities/start',
]);

/** `METHOD /path/template` of every route this file checked. */
const checked = new Set<string>();

/**
 * Calls a route and holds its answer to the brief: `shape` says how the body
 * wraps the resource (the ApiResponse envelope, a list, or the resource itself).
 */
async function expectResource(
  route: string,
  answer: Answer,
  status: number,
  resource: ResourceName,
  shape: 'itself' | 'list' | 'envelope' = 'itself',
) {
  expect(answer.status, `${route}: ${JSON.stringify(answer.body)}`).toBe(status);
  const bodies =
    shape === 'list' ? (answer.body as unknown[]) : shape === 'envelope' ? [envelopeData(answer.body)] : [answer.body];
  if (shape === 'list') expect(bodies.length, `${route} answers an empty list: nothing to check`).toBeGreaterThan(0);
  expect(
    bodies.flatMap((body) => violationsOf(resource, body)),
    route,
  ).toEqual([]);
  checked.add(route);
}

/** The ApiResponse envelope: `{ success: true, data }`, nothing else. */
function envelopeData(body: unknown): unknown {
  expect(Object.keys(body as object).sort()).toEqual(['data', 'success']);
  expect((body as { success: unknown }).success).toBe(true);
  return (body as { data: unknown }).data;
}

let tenant: TestTenant;
let admin: Awaited<ReturnType<typeof logIn>>;
let adminHeaders: Record<string, string>;
beforeAll(async () => {
  tenant = await aTenantWith({ loginMode: 'PASSWORD_OR_OTP_EMAIL', origins: [ORIGIN] });
  admin = await logIn(tenant, tenant.adminEmail, tenant.adminPassword);
  adminHeaders = bearer(tenant, admin.accessToken);
});

describe('the service answers every brief resource exactly as the brief names it', () => {
  it('health and discovery', async () => {
    await expectResource('GET /health', await call('GET', '/health', {}), 200, 'HealthResponse');
    const discovery = await call('GET', `/auth/discovery?clientId=${tenant.publicApiKey}`, { origin: ORIGIN });
    await expectResource('GET /auth/discovery', discovery, 200, 'DiscoveryResponse');
  });

  it('signup, its verification, and the users it makes as an admin sees them', async () => {
    const email = anEmail('signup');
    const body = { app: tenant.app, mid: tenant.mid, email, password: PASSWORD, firstName: 'Moss', lastName: 'Stone' };
    const signup = await call('POST', '/auth/signup', tenant.headers, body);
    await expectResource('POST /auth/signup', signup, 201, 'ChallengeIdResponse', 'envelope');
    // Unverified, with its code out: listed VALIDATION_SENT.
    const users = await call('GET', '/users', adminHeaders);
    await expectResource('GET /users', users, 200, 'UserResponse', 'list');
    expect(users.body.find((u: { email: string }) => u.email === email)?.emailStatus).toBe('VALIDATION_SENT');

    const code = await latestCodeTo(api.stack.sesUrl, email);
    const verified = await call('POST', '/auth/signup/verify', tenant.headers, {
      challengeId: signup.body.data.challengeId,
      code,
    });
    await expectResource('POST /auth/signup/verify', verified, 200, 'LoginTokens', 'envelope');
    expect(verified.body.data.user).toMatchObject({ email, status: 'ACTIVE', emailStatus: 'VALIDATED' });
  });

  it('logins by password, by e-mail code and with TOTP, their second steps, and refresh', async () => {
    const user = await aUser(tenant);
    const byPassword = await call('POST', '/auth/login', tenant.headers, {
      email: user.email,
      password: user.password,
    });
    await expectResource('POST /auth/login', byPassword, 200, 'LoginTokens', 'envelope');

    const byCode = await call('POST', '/auth/login', tenant.headers, { email: user.email, loginMode: 'OTP_EMAIL' });
    await expectResource('POST /auth/login', byCode, 200, 'LoginChallenge', 'envelope');
    const code = await latestCodeTo(api.stack.sesUrl, user.email);
    const verified = await call('POST', '/auth/login/verify', tenant.headers, {
      challengeId: byCode.body.data.challengeId,
      code,
    });
    await expectResource('POST /auth/login/verify', verified, 200, 'LoginTokens', 'envelope');

    const withTotp = await aUser(tenant, { totp: true });
    const totpStep = await call('POST', '/auth/login', tenant.headers, {
      email: withTotp.email,
      password: withTotp.password,
    });
    await expectResource('POST /auth/login', totpStep, 200, 'LoginChallenge', 'envelope');
    expect(totpStep.body.data.challengeType).toBe('TOTP');
    const backup = await call('POST', '/auth/login/verify', tenant.headers, {
      challengeId: totpStep.body.data.challengeId,
      code: withTotp.backupCodes?.[0],
    });
    await expectResource('POST /auth/login/verify', backup, 200, 'LoginTokens', 'envelope');

    const refreshed = await call('POST', '/auth/refresh', tenant.headers, {
      refreshToken: byPassword.body.data.refreshToken,
    });
    await expectResource('POST /auth/refresh', refreshed, 200, 'LoginTokens', 'envelope');

    const forgot = await call('POST', '/auth/forgot-password', tenant.headers, { email: user.email });
    await expectResource('POST /auth/forgot-password', forgot, 202, 'ChallengeIdResponse');
  });

  it("a user's own profile, e-mail change, TOTP setup and sessions", async () => {
    const user = await aUser(tenant);
    const tokens = await logIn(tenant, user.email, user.password);
    const headers = bearer(tenant, tokens.accessToken);
    await expectResource('GET /users/me', await call('GET', '/users/me', headers), 200, 'UserResponse');
    const patched = await call('PATCH', '/users/me', headers, { phone: '555-0100' });
    await expectResource('PATCH /users/me', patched, 200, 'UserResponse');

    const newEmail = anEmail('moved');
    const change = await call('POST', '/users/me/email-change', headers, { newEmail });
    await expectResource('POST /users/me/email-change', change, 200, 'EmailChangeResponse');
    const code = await latestCodeTo(api.stack.sesUrl, newEmail);
    const changed = await call('POST', '/users/me/email-change/verify', headers, {
      challengeId: change.body.challengeId,
      code,
    });
    await expectResource('POST /users/me/email-change/verify', changed, 200, 'EmailChangeVerifyResponse');

    // Reauthentication by e-mail code (the tenant takes codes): its 200 is `{ challengeId }`; the code answers 204.
    const reauth = await call('POST', '/auth/reauthenticate', headers, { loginMode: 'OTP_EMAIL' });
    await expectResource('POST /auth/reauthenticate', reauth, 200, 'ChallengeIdResponse');
    const proven = await call('POST', '/auth/reauthenticate', headers, {
      challengeId: reauth.body.challengeId,
      code: await latestCodeTo(api.stack.sesUrl, newEmail),
    });
    expect(proven.status, JSON.stringify(proven.body)).toBe(204);

    const totp = await call('POST', '/users/me/totp/init', headers);
    await expectResource('POST /users/me/totp/init', totp, 200, 'TotpSetupResponse');
    expect(totp.body.backupCodes).toHaveLength(10);

    const sessions = await call('GET', '/users/me/sessions', headers);
    await expectResource('GET /users/me/sessions', sessions, 200, 'SessionResponse', 'list');
    // The user's own activity (ours): the admin's ActivityPage, for the caller alone.
    const mine = await call('GET', '/users/me/activity?limit=1', headers);
    await expectResource('GET /users/me/activity', mine, 200, 'ActivityPage');
  });

  it('user administration: invitation, one user, status, devices, activity', async () => {
    const email = anEmail('invited');
    const invited = await call('POST', '/users/invitations', adminHeaders, { email, firstName: 'Ivy' });
    await expectResource('POST /users/invitations', invited, 201, 'InviteUserResponse');
    const one = await call('GET', `/users/${invited.body.userId}`, adminHeaders);
    await expectResource('GET /users/{id}', one, 200, 'AdminUserResponse');
    expect(one.body).toMatchObject({ status: 'INVITED', emailStatus: 'VALIDATION_SENT', lastName: null });

    const user = await aUser(tenant);
    await logIn(tenant, user.email, user.password);
    const disabled = await call('PATCH', `/users/${user.id}/status`, adminHeaders, { status: 'DISABLED' });
    await expectResource('PATCH /users/{id}/status', disabled, 200, 'UserResponse');
    const devices = await call('GET', `/users/${user.id}/devices`, adminHeaders);
    await expectResource('GET /users/{id}/devices', devices, 200, 'DeviceResponse', 'list');
    const activity = await call('GET', `/users/${user.id}/activity?limit=1`, adminHeaders);
    await expectResource('GET /users/{id}/activity', activity, 200, 'ActivityPage');
    expect(activity.body.nextCursor).toEqual(expect.any(String));
  });

  it('merchant settings and API keys; the key the brief names `apiKey` is the one X-Api-Key takes', async () => {
    await expectResource(
      'GET /merchants/me',
      await call('GET', '/merchants/me', adminHeaders),
      200,
      'MerchantResponse',
    );
    const patched = await call('PATCH', `/merchants/${tenant.id}`, adminHeaders, {
      primaryColor: '#1a2b3c',
      totpAllowed: null,
    });
    await expectResource('PATCH /merchants/{id}', patched, 200, 'MerchantResponse');
    expect(patched.body).toMatchObject({ adminUserId: tenant.adminUserId, totpAllowed: true });

    const created = await call('POST', `/merchants/${tenant.id}/api-keys`, adminHeaders, { label: 'brief client' });
    await expectResource('POST /merchants/{id}/api-keys', created, 201, 'GenerateApiKeyResponse');
    const listed = await call('GET', `/merchants/${tenant.id}/api-keys`, adminHeaders);
    await expectResource('GET /merchants/{id}/api-keys', listed, 200, 'ApiKeyResponse', 'list');
    const withKey = await call('GET', '/users', { ...tenant.headers, 'x-api-key': created.body.apiKey });
    await expectResource('GET /users', withKey, 200, 'UserResponse', 'list');
  });

  it('OpenID Connect clients (ours): registered, listed, read, changed, secret rotated', async () => {
    const body = { name: 'Brief client', type: 'confidential', redirectUris: ['https://shop.example/callback'] };
    const created = await call('POST', '/oidc/clients', adminHeaders, body);
    await expectResource('POST /oidc/clients', created, 201, 'OidcClientWithSecretResponse');
    const id = created.body.clientId;
    const listed = await call('GET', '/oidc/clients', adminHeaders);
    await expectResource('GET /oidc/clients', listed, 200, 'OidcClientResponse', 'list');
    const read = await call('GET', `/oidc/clients/${id}`, adminHeaders);
    await expectResource('GET /oidc/clients/{clientId}', read, 200, 'OidcClientResponse');
    const patched = await call('PATCH', `/oidc/clients/${id}`, adminHeaders, { firstParty: true });
    await expectResource('PATCH /oidc/clients/{clientId}', patched, 200, 'OidcClientResponse');
    const rotated = await call('POST', `/oidc/clients/${id}/secret`, adminHeaders);
    await expectResource('POST /oidc/clients/{clientId}/secret', rotated, 200, 'OidcClientWithSecretResponse');
  });

  it('webhook endpoints (ours): added, listed, read, changed, secret rotated; the log; a test, a redelivery, a replay', async () => {
    const created = await call('POST', '/webhook-endpoints', adminHeaders, {
      url: LOOPBACK_HOOK,
      eventTypes: ['user.created'],
      description: 'Brief endpoint',
    });
    await expectResource('POST /webhook-endpoints', created, 201, 'WebhookEndpointWithSecret');
    const id = created.body.id;
    const listed = await call('GET', '/webhook-endpoints', adminHeaders);
    await expectResource('GET /webhook-endpoints', listed, 200, 'WebhookEndpointResponse', 'list');
    const read = await call('GET', `/webhook-endpoints/${id}`, adminHeaders);
    await expectResource('GET /webhook-endpoints/{endpointId}', read, 200, 'WebhookEndpointResponse');
    const patched = await call('PATCH', `/webhook-endpoints/${id}`, adminHeaders, { description: null });
    await expectResource('PATCH /webhook-endpoints/{endpointId}', patched, 200, 'WebhookEndpointResponse');
    const rotated = await call('POST', `/webhook-endpoints/${id}/secret`, adminHeaders);
    await expectResource('POST /webhook-endpoints/{endpointId}/secret', rotated, 200, 'WebhookEndpointWithSecret');
    expect(rotated.body.previousSecretExpiresAt).not.toBeNull();

    // No deliverer runs on this stack: the event and the attempt are written as the dispatcher and deliverer would.
    const deps = makeTestDeps();
    const eventId = await aStoredWebhookEvent(deps, tenant);
    await aStoredWebhookAttempt(deps, tenant, id, eventId);
    const log = await call('GET', `/webhook-endpoints/${id}/attempts`, adminHeaders);
    await expectResource('GET /webhook-endpoints/{endpointId}/attempts', log, 200, 'DeliveryAttemptPage');
    expect(log.body.items).toHaveLength(1);
    const tested = await call('POST', `/webhook-endpoints/${id}/test`, adminHeaders);
    await expectResource('POST /webhook-endpoints/{endpointId}/test', tested, 202, 'QueuedResponse');
    const again = await call('POST', `/webhook-endpoints/${id}/redeliver`, adminHeaders, { eventId });
    await expectResource('POST /webhook-endpoints/{endpointId}/redeliver', again, 202, 'QueuedResponse');
    expect(again.body).toEqual({ eventId, events: 1 });
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const replayed = await call('POST', `/webhook-endpoints/${id}/replay`, adminHeaders, { since });
    await expectResource('POST /webhook-endpoints/{endpointId}/replay', replayed, 202, 'QueuedResponse');
    expect(replayed.body).toEqual({ eventId: null, events: 1 });
  });

  it('roles: SYSTEM and MERCHANT, custom as created', async () => {
    const made = await call('POST', '/roles', adminHeaders, { name: aRoleName(), priority: 20, custom: false });
    await expectResource('POST /roles', made, 201, 'RoleResponse');
    expect(made.body).toMatchObject({ app: tenant.app, mid: tenant.mid, custom: false, owner: 'MERCHANT' });
    const roles = await call('GET', '/roles', adminHeaders);
    await expectResource('GET /roles', roles, 200, 'RoleResponse', 'list');
    expect(roles.body.find((r: { name: string }) => r.name === 'ADMIN')).toMatchObject({
      app: null,
      mid: null,
      custom: false,
      owner: 'SYSTEM',
    });
  });

  it('passkeys (ours): added, listed, renamed, signed in with; an admin’s list', async () => {
    const user = await aUser(tenant);
    const signedIn = await logIn(tenant, user.email, user.password);
    const options = await call('POST', '/users/me/passkeys/options', bearer(tenant, signedIn.accessToken), {});
    const { credential, json } = register({
      ...hostedCeremony(api.stack, tenant, options.body.options.challenge),
      userHandle: options.body.options.user.id,
    });
    const added = await call('POST', '/users/me/passkeys', bearer(tenant, signedIn.accessToken), { credential: json });
    await expectResource('POST /users/me/passkeys', added, 201, 'PasskeyResponse');
    const listed = await call('GET', '/users/me/passkeys', bearer(tenant, signedIn.accessToken));
    await expectResource('GET /users/me/passkeys', listed, 200, 'PasskeyResponse', 'list');
    const renamed = await call('PATCH', `/users/me/passkeys/${added.body.id}`, bearer(tenant, signedIn.accessToken), {
      name: 'Phone',
    });
    await expectResource('PATCH /users/me/passkeys/{passkeyId}', renamed, 200, 'PasskeyResponse');
    const byAdmin = await call('GET', `/users/${user.id}/passkeys`, adminHeaders);
    await expectResource('GET /users/{id}/passkeys', byAdmin, 200, 'PasskeyResponse', 'list');
    const body = await passkeySignInBody(api.url, api.stack, tenant, credential);
    const signedInWithPasskey = await call('POST', '/auth/passkeys/sign-in', tenant.headers, body);
    await expectResource('POST /auth/passkeys/sign-in', signedInWithPasskey, 200, 'LoginTokens', 'envelope');
  });

  it('sign-in providers (ours): added, read, changed, listed; a sign-in through one; linked providers, listed and linked', async () => {
    const upstream = await startOidcUpstream({
      accounts: [{ sub: 'contract', email: anEmail('provider'), emailVerified: true, givenName: 'Ada' }],
    });
    try {
      const added = await call('POST', '/sign-in-providers', adminHeaders, {
        kind: 'OIDC',
        displayName: 'Demo ID',
        issuer: upstream.issuer,
        clientId: 'contract',
        clientSecret: 'contract-secret',
      });
      await expectResource('POST /sign-in-providers', added, 201, 'SignInProviderResponse');
      const id = added.body.id as string;
      await upstream.addClient({
        clientId: 'contract',
        clientSecret: 'contract-secret',
        redirectUris: [added.body.redirectUri],
      });
      await expectResource(
        'GET /sign-in-providers',
        await call('GET', '/sign-in-providers', adminHeaders),
        200,
        'SignInProviderResponse',
        'list',
      );
      await expectResource(
        'GET /sign-in-providers/{providerId}',
        await call('GET', `/sign-in-providers/${id}`, adminHeaders),
        200,
        'SignInProviderResponse',
      );
      const changed = await call('PATCH', `/sign-in-providers/${id}`, adminHeaders, { order: 3 });
      await expectResource('PATCH /sign-in-providers/{providerId}', changed, 200, 'SignInProviderResponse');

      const flows = signInProviderApi(api);
      const outcome = await flows.throughProvider(tenant, id, upstream, { sub: 'contract' });
      const signedIn = await flows.signIn(tenant, outcome.result ?? '', outcome.verifier);
      await expectResource('POST /auth/providers/sign-in', signedIn, 200, 'LoginTokens', 'envelope');
      const mine = await call('GET', '/users/me/identities', bearer(tenant, signedIn.body.data.accessToken));
      await expectResource('GET /users/me/identities', mine, 200, 'IdentityResponse', 'list');
      const byAdmin = await call('GET', `/users/${signedIn.body.data.user.id}/identities`, adminHeaders);
      await expectResource('GET /users/{id}/identities', byAdmin, 200, 'IdentityResponse', 'list');

      // A user with a password links the provider from the account page.
      upstream.setAccount({ sub: 'contract-2', email: anEmail('provider'), emailVerified: true });
      const user = await aUser(tenant, { password: PASSWORD });
      const token = (await logIn(tenant, user.email, PASSWORD)).accessToken;
      const pkce = aPagePkce();
      const started = await call('POST', '/users/me/identities/start', bearer(tenant, token), {
        providerId: id,
        returnTo: `${ORIGIN}/account`,
        codeChallenge: pkce.challenge,
      });
      const back = await flows.deliver(await upstream.authorize(started.body.authorizationUrl, { sub: 'contract-2' }));
      const linked = await call('POST', '/users/me/identities', bearer(tenant, token), {
        result: back.result,
        codeVerifier: pkce.verifier,
      });
      await expectResource('POST /users/me/identities', linked, 201, 'IdentityResponse');
    } finally {
      await upstream.close();
    }
  });

  it('left no documented route with a JSON answer unchecked (runs last)', () => {
    const document = JSON.parse(readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8'));
    const answering = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) =>
          Object.entries(op.responses as Record<string, any>).some(
            ([status, response]) => /^2\d\d$/.test(status) && response.content?.['application/json'],
          ),
        )
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(answering.length).toBeGreaterThan(20);
    expect(answering.filter((route) => !NOT_BRIEF_RESOURCES.has(route) && !checked.has(route))).toEqual([]);
  });
});
