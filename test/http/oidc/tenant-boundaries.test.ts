import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { bearer, call, expectProblem } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';
import {
  apiRefresh,
  atIssuer,
  basic,
  CALLBACK,
  expectOAuthError,
  oidcApi,
  type Provider,
  postForm,
  rpFetch,
  userinfoWith,
} from './helpers.ts';

/**
 * Every tenant is its own issuer (shared/oidc/README.md, Issuer model): what tenant A's provider issued is
 * worth nothing at tenant B's, and the API's own tokens and the provider's never stand in for each other.
 */

const api = useLocalStack();
const { aProvider, signIn, redeem, tokensFor } = oidcApi(api);

const secretOf = (provider: Provider) => provider.clientSecret as string;

describe("tenant A's code and tokens at tenant B's issuer", () => {
  it("refuses A's code at B's token endpoint: A's client is unknown there (401), B's client gets invalid_grant", async () => {
    const a = await aProvider();
    const b = await aProvider();
    const { code, verifier } = await signIn(a);
    const form = { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier };
    const asA = await postForm(b.issuer, '/oidc/token', form, { authorization: basic(a.clientId, secretOf(a)) });
    expectOAuthError(asA, 401, 'invalid_client');
    const asB = await postForm(b.issuer, '/oidc/token', form, { authorization: basic(b.clientId, secretOf(b)) });
    expectOAuthError(asB, 400, 'invalid_grant');
    // The code is still good at home.
    const home = await postForm(a.issuer, '/oidc/token', form, { authorization: basic(a.clientId, secretOf(a)) });
    expect(home.status, home.text).toBe(200);
  });

  it("refuses A's refresh token at B's token endpoint, as A's client or B's", async () => {
    const a = await aProvider();
    const b = await aProvider();
    const tokens = await tokensFor(a);
    const form = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string };
    expectOAuthError(
      await postForm(b.issuer, '/oidc/token', form, { authorization: basic(a.clientId, secretOf(a)) }),
      401,
      'invalid_client',
    );
    expectOAuthError(
      await postForm(b.issuer, '/oidc/token', form, { authorization: basic(b.clientId, secretOf(b)) }),
      400,
      'invalid_grant',
    );
    // Still good at home.
    expect((await oidc.refreshTokenGrant(a.config, tokens.refresh_token as string)).access_token).toEqual(
      expect.any(String),
    );
  });

  it("refuses A's access token at B's userinfo with 401 invalid_token", async () => {
    const a = await aProvider();
    const b = await aProvider();
    const tokens = await tokensFor(a);
    const res = await userinfoWith(b.issuer, tokens.access_token);
    expectOAuthError(res, 401, 'invalid_token');
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect((await userinfoWith(a.issuer, tokens.access_token)).status).toBe(200);
  });

  it("B's revocation endpoint neither knows A's client nor ends A's session with A's tokens", async () => {
    const a = await aProvider();
    const b = await aProvider();
    const tokens = await tokensFor(a);
    for (const token of [tokens.refresh_token as string, tokens.access_token]) {
      expectOAuthError(
        await postForm(b.issuer, '/oidc/revoke', { token }, { authorization: basic(a.clientId, secretOf(a)) }),
        401,
        'invalid_client',
      );
      const asB = await postForm(
        b.issuer,
        '/oidc/revoke',
        { token },
        { authorization: basic(b.clientId, secretOf(b)) },
      );
      expect(asB.status, asB.text).toBe(200);
    }
    expect((await userinfoWith(a.issuer, tokens.access_token)).status).toBe(200);
    expect((await oidc.refreshTokenGrant(a.config, tokens.refresh_token as string)).access_token).toEqual(
      expect.any(String),
    );
  });

  it("openid-client configured for B refuses A's callback (its iss parameter)", async () => {
    const a = await aProvider();
    const b = await aProvider();
    const signedIn = await signIn(a);
    await expect(
      oidc.authorizationCodeGrant(b.config, signedIn.callback, {
        pkceCodeVerifier: signedIn.verifier,
        expectedNonce: signedIn.nonce,
        expectedState: signedIn.state,
      }),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/"iss"/) } });
  });

  it("openid-client configured for B refuses A's ID token: its iss is A's (the signing keys are shared, the issuer is not)", async () => {
    const a = await aProvider();
    const b = await aProvider();
    const signedIn = await signIn(a);
    // A relying party that believes it talks to B, but whose token request reaches A's endpoint (a mix-up).
    const mixedUp = new oidc.Configuration(
      {
        ...(JSON.parse(JSON.stringify(b.config.serverMetadata())) as oidc.ServerMetadata),
        token_endpoint: a.config.serverMetadata().token_endpoint,
        authorization_response_iss_parameter_supported: false,
      },
      a.clientId,
      undefined,
      oidc.ClientSecretBasic(secretOf(a)),
    );
    oidc.allowInsecureRequests(mixedUp);
    mixedUp[oidc.customFetch] = rpFetch;
    const callback = new URL(signedIn.callback);
    callback.searchParams.delete('iss');
    await expect(
      oidc.authorizationCodeGrant(mixedUp, callback, {
        pkceCodeVerifier: signedIn.verifier,
        expectedNonce: signedIn.nonce,
        expectedState: signedIn.state,
      }),
    ).rejects.toMatchObject({
      code: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
      cause: { message: expect.stringMatching(/"iss"/), cause: { claim: 'iss', expected: b.issuer } },
    });
  });
});

describe("the API's tokens and the provider's never stand in for each other", () => {
  it('GET /users/me refuses an OIDC access token with 401', async () => {
    const provider = await aProvider();
    const tokens = await tokensFor(provider);
    const res = await call(api.url, 'GET', '/users/me', bearer(provider.tenant, tokens.access_token));
    expect(res.status, res.text).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });

  it('userinfo refuses an API access token with 401 and Bearer error="invalid_token"', async () => {
    const provider = await aProvider();
    const res = await userinfoWith(provider.issuer, provider.userToken);
    expectOAuthError(res, 401, 'invalid_token');
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it('userinfo without a bearer answers 401 with a Bearer challenge', async () => {
    const provider = await aProvider();
    const res = await userinfoWith(provider.issuer, '');
    expect(res.status, res.text).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
  });

  it("userinfo refuses a client's own token (client_credentials): it speaks for no user", async () => {
    const provider = await aProvider({ grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'] });
    const own = await oidc.clientCredentialsGrant(provider.config);
    const res = await userinfoWith(provider.issuer, own.access_token);
    expectOAuthError(res, 401, 'invalid_token');
  });

  it('POST /auth/refresh refuses an OIDC refresh token with 401 REFRESH_TOKEN_INVALID, and the client keeps it', async () => {
    const provider = await aProvider();
    const tokens = await tokensFor(provider);
    expectProblem(
      await apiRefresh(api.url, provider.tenant, tokens.refresh_token as string),
      401,
      'REFRESH_TOKEN_INVALID',
    );
    expect((await oidc.refreshTokenGrant(provider.config, tokens.refresh_token as string)).access_token).toEqual(
      expect.any(String),
    );
  });

  it("the token endpoint refuses the API's refresh token with invalid_grant, and the API session keeps it", async () => {
    const provider = await aProvider();
    await expect(oidc.refreshTokenGrant(provider.config, provider.userRefreshToken)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const res = await apiRefresh(api.url, provider.tenant, provider.userRefreshToken);
    expect(res.status, res.text).toBe(200);
  });

  it("another client's refresh token of the same tenant is invalid_grant", async () => {
    const provider = await aProvider();
    const signedIn = await signIn(provider);
    const tokens = await redeem(provider.config, signedIn);
    const { anotherClient } = oidcApi(api);
    const other = await anotherClient(provider, { name: 'Other app' });
    await expect(oidc.refreshTokenGrant(other.config, tokens.refresh_token as string)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });
});

describe("tenant A's pending sign-in at tenant B", () => {
  it("B's headers neither read, complete nor cancel A's authorization request; A's page still can", async () => {
    const a = await aProvider();
    const b = await aProvider();
    const { authorizationUrl } = oidcApi(api);
    const pending = await authorizationUrl(a.config);
    const page = await atIssuer(a.issuer, `${pending.url.pathname}${pending.url.search}`);
    const requestId = new URL(page.headers.get('location') as string).searchParams.get('request') as string;
    const path = `/oidc/authorization-requests/${requestId}`;
    expectProblem(await call(api.url, 'GET', path, b.tenant.headers), 404, 'NOT_FOUND');
    expectProblem(await call(api.url, 'POST', `${path}/complete`, bearer(b.tenant, b.userToken), {}), 404, 'NOT_FOUND');
    expectProblem(
      await call(api.url, 'POST', `${path}/cancel`, b.tenant.headers, { error: 'access_denied' }),
      404,
      'NOT_FOUND',
    );
    expect((await call(api.url, 'GET', path, a.tenant.headers)).status).toBe(200);
    const done = await call(api.url, 'POST', `${path}/complete`, bearer(a.tenant, a.userToken), {});
    expect(done.status, done.text).toBe(200);
  });
});
