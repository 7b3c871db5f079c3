import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as oidc from 'openid-client';
import { expect } from 'vitest';
import type { LocalStack } from '#local/stack.ts';
import { hashToken } from '#shared/auth/codes.ts';
import { keys } from '#shared/store/keys.ts';
import { aTenantWith, type TestTenant } from '#test/support/auth.ts';
import { makeTestDeps } from '#test/support/deps.ts';
import { type Answer, bearer, identityApi, post } from '#test/support/http.ts';
import { authorizeAs, issuerOf, localhostFetch, registerClient } from '#test/support/oidc.ts';

/**
 * Helpers of the OpenID Provider's black-box tests (a plain module: vitest runs only *.test.ts): a tenant's
 * provider with a registered client and an openid-client configuration, the front channel driven as the
 * hosted sign-in page drives it, raw protocol requests, and the store edits that age a session or a code.
 */

export const CALLBACK = 'http://127.0.0.1:50123/callback';
export const AFTER_LOGOUT = 'http://127.0.0.1:50123/signed-out';

export interface Provider {
  tenant: TestTenant;
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  config: oidc.Configuration;
  /** The tenant admin's API access token (a signed-in user: SUPER_ADMIN). */
  userToken: string;
  userRefreshToken: string;
}

/** A pending front channel: the authorization URL the library built, and what its callback is checked with. */
export interface Pending {
  url: URL;
  verifier: string;
  nonce: string;
  state: string;
}

/** The claims of a JWT, unverified (the library verified it, or the test's point is elsewhere). */
export const claimsOf = (jwt: string): Record<string, any> =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString());

/** localhostFetch as the relying-party libraries type their fetch. */
export const rpFetch = localhostFetch as unknown as oidc.CustomFetch;

/** An openid-client configuration of a client at an issuer, fetching through localhostFetch. */
export function configFor(issuer: string, clientId: string, clientSecret: string | null): Promise<oidc.Configuration> {
  return oidc.discovery(
    new URL(issuer),
    clientId,
    undefined,
    clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None(),
    { execute: [oidc.allowInsecureRequests], [oidc.customFetch]: rpFetch },
  );
}

export function oidcApi(api: { readonly url: string; readonly stack: LocalStack }) {
  const { logIn } = identityApi(() => api.url);

  /** A fresh tenant, its admin signed in, and a first-party confidential client (unless `client` says otherwise). */
  async function aProvider(
    client: Record<string, unknown> = {},
    tenantOptions: Parameters<typeof aTenantWith>[0] = {},
  ): Promise<Provider> {
    const tenant = await aTenantWith(tenantOptions);
    const admin = await logIn(tenant, tenant.adminEmail, tenant.adminPassword);
    const provider = { tenant, userToken: admin.accessToken, userRefreshToken: admin.refreshToken };
    return { ...provider, ...(await anotherClient(provider, client)) };
  }

  /** Another client of the same tenant, registered by its admin. */
  async function anotherClient(
    provider: Pick<Provider, 'tenant' | 'userToken'>,
    client: Record<string, unknown> = {},
  ): Promise<Pick<Provider, 'issuer' | 'clientId' | 'clientSecret' | 'config'>> {
    const registered = await registerClient(
      api.url,
      { headers: bearer(provider.tenant, provider.userToken) },
      {
        name: 'Shop web',
        type: 'confidential',
        redirectUris: [CALLBACK],
        postLogoutRedirectUris: [AFTER_LOGOUT],
        firstParty: true,
        ...client,
      },
    );
    const issuer = issuerOf(api.stack, provider.tenant);
    return {
      issuer,
      clientId: registered.clientId,
      clientSecret: registered.clientSecret,
      config: await configFor(issuer, registered.clientId, registered.clientSecret),
    };
  }

  /**
   * An authorization URL as openid-client builds it: code flow, PKCE S256, nonce and state (`extra` '' leaves one out).
   * The scopes of a client that stays signed in (`offline_access`: a refresh token); `roles` only where a test asks.
   */
  async function authorizationUrl(config: oidc.Configuration, extra: Record<string, string> = {}): Promise<Pending> {
    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = extra.nonce ?? oidc.randomNonce();
    const state = extra.state ?? oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope: 'openid email profile offline_access',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...extra,
      nonce,
      state,
    });
    // An empty value in `extra` leaves the parameter out.
    for (const [name, value] of Object.entries(extra)) if (value === '') url.searchParams.delete(name);
    return { url, verifier, nonce, state };
  }

  /**
   * The front channel up to the callback: the user behind `token` (the admin unless given) completes the
   * request on the hosted page (with `body`, e.g. consent). Insists on a code.
   */
  async function signIn(
    provider: Pick<Provider, 'tenant' | 'config' | 'userToken'>,
    options: { token?: string; extra?: Record<string, string>; body?: Record<string, unknown> } = {},
  ): Promise<Pending & { callback: URL; code: string }> {
    const pending = await authorizationUrl(provider.config, options.extra);
    const done = await authorizeAs(
      api.url,
      provider.tenant,
      options.token ?? provider.userToken,
      pending.url,
      options.body,
    );
    expect(done.status, JSON.stringify(done.problem)).toBe(200);
    const callback = done.redirectTo as URL;
    const code = callback.searchParams.get('code');
    expect(code, String(callback)).toEqual(expect.any(String));
    return { ...pending, callback, code: code as string };
  }

  /** The code grant through openid-client, checking state and nonce. */
  function redeem(config: oidc.Configuration, signedIn: Pending & { callback: URL }) {
    return oidc.authorizationCodeGrant(config, signedIn.callback, {
      pkceCodeVerifier: signedIn.verifier,
      expectedNonce: signedIn.nonce,
      expectedState: signedIn.state,
      idTokenExpected: true,
    });
  }

  /** Signed in and redeemed: the client's tokens. */
  async function tokensFor(
    provider: Pick<Provider, 'tenant' | 'config' | 'userToken'>,
    options: Parameters<typeof signIn>[1] = {},
  ) {
    return redeem(provider.config, await signIn(provider, options));
  }

  return { logIn, aProvider, anotherClient, authorizationUrl, signIn, redeem, tokensFor };
}

/** An answer of the issuer's API, read as the tests read the API's own. */
async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

/** A form POST to `<issuer>/api/v1<path>` (token, revoke), raw. */
export async function postForm(
  issuer: string,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return answerOf(
    await localhostFetch(`${issuer}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

/** Any request to `<issuer><path>`, raw (a path under the issuer's origin, `/api/v1/...` or `/.well-known/...`). */
export async function atIssuer(issuer: string, path: string, init: RequestInit = {}): Promise<Answer> {
  return answerOf(await localhostFetch(`${issuer}${path}`, { redirect: 'manual', ...init }));
}

/** HTTP Basic credentials of a client (RFC 6749 2.3.1: form-encoded first). */
export const basic = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** An OAuth error answer (RFC 6749 5.2): this status, `error`, JSON, never cached. */
export function expectOAuthError(res: Answer, status: number, error: string) {
  expect({ status: res.status, error: res.body?.error }, res.text).toEqual({ status, error });
  expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
  expect(res.headers.get('cache-control')).toBe('no-store');
}

/** GET userinfo with a bearer at an issuer, raw. */
export const userinfoWith = (issuer: string, accessToken: string) =>
  atIssuer(issuer, '/api/v1/oidc/userinfo', { headers: { authorization: `Bearer ${accessToken}` } });

/** Sets a field of the session behind an API access token (its `sub` and `sid`) straight in the store. */
export async function setSessionField(tenant: TestTenant, accessToken: string, field: string, value: unknown) {
  const claims = claimsOf(accessToken);
  const deps = makeTestDeps();
  await deps.store.doc.send(
    new UpdateCommand({
      TableName: deps.store.tableName,
      Key: keys.session(tenant, claims.sub, claims.sid),
      UpdateExpression: 'SET #f = :v',
      ExpressionAttributeNames: { '#f': field },
      ExpressionAttributeValues: { ':v': value },
    }),
  );
}

/** Makes the session behind an API access token have proven its first factor `ms` ago. */
export const ageSignIn = (tenant: TestTenant, accessToken: string, ms: number) =>
  setSessionField(tenant, accessToken, 'authenticatedAt', new Date(Date.now() - ms).toISOString());

/** Makes an authorization code's 60 s lapse: its stored `expiresAt` a second ago. */
export async function expireCode(tenant: TestTenant, code: string) {
  const deps = makeTestDeps();
  await deps.store.doc.send(
    new UpdateCommand({
      TableName: deps.store.tableName,
      Key: keys.oidcCode(tenant, hashToken(code)),
      UpdateExpression: 'SET expiresAt = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': new Date(Date.now() - 1000).toISOString() },
    }),
  );
}

/** POST /auth/refresh of the API with a refresh token, raw. */
export const apiRefresh = (apiUrl: string, tenant: TestTenant, refreshToken: string) =>
  post(`${apiUrl}/auth/refresh`, { refreshToken }, tenant.headers);
