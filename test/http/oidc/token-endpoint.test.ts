import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { useLocalStack } from '#test/support/server.ts';
import {
  atIssuer,
  basic,
  CALLBACK,
  expectOAuthError,
  expireCode,
  oidcApi,
  type Provider,
  postForm,
  userinfoWith,
} from './helpers.ts';

/**
 * POST /oidc/token and POST /oidc/revoke (RFC 6749 4.1.3 and 5, RFC 7636, RFC 7009) as a client developer
 * meets them: raw form requests where the raw answer is the point, openid-client where it fits.
 */

const api = useLocalStack();
const { aProvider, anotherClient, signIn, redeem, tokensFor } = oidcApi(api);

/** The code grant's form, for the provider's client with its secret in Basic. */
function codeGrant(provider: Provider, code: string, verifier: string, extra: Record<string, string> = {}) {
  return postForm(
    provider.issuer,
    '/oidc/token',
    { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier, ...extra },
    { authorization: basic(provider.clientId, provider.clientSecret as string) },
  );
}

describe('POST /oidc/token: the authorization code', () => {
  it('answers the tokens as JSON, never cached (Cache-Control: no-store, Pragma: no-cache)', async () => {
    const provider = await aProvider();
    const { code, verifier } = await signIn(provider);
    const res = await codeGrant(provider, code, verifier);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 900,
      scope: expect.any(String),
      refresh_token: expect.stringMatching(/^rt2\./),
      id_token: expect.any(String),
    });
    expect(res.body.scope.split(' ').sort()).toEqual(['email', 'offline_access', 'openid', 'profile']);
  });

  it('refuses a PKCE verifier that does not match with 400 invalid_grant (OAuth JSON, no-store)', async () => {
    const provider = await aProvider();
    const { code } = await signIn(provider);
    const res = await codeGrant(provider, code, oidc.randomPKCECodeVerifier());
    expectOAuthError(res, 400, 'invalid_grant');
    expect(res.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
  });

  it('refuses a code without code_verifier with 400 invalid_request', async () => {
    const provider = await aProvider();
    const { code, verifier } = await signIn(provider);
    const res = await postForm(
      provider.issuer,
      '/oidc/token',
      { grant_type: 'authorization_code', code, redirect_uri: CALLBACK },
      { authorization: basic(provider.clientId, provider.clientSecret as string) },
    );
    expectOAuthError(res, 400, 'invalid_request');
    expect((await codeGrant(provider, code, verifier)).status).toBe(200);
  });

  it('refuses a redirect_uri other than the authorization request’s with invalid_grant', async () => {
    const provider = await aProvider({ redirectUris: [CALLBACK, 'http://127.0.0.1:50123/other'] });
    const { code, verifier } = await signIn(provider);
    for (const uri of ['http://127.0.0.1:50123/other', `${CALLBACK}/`]) {
      expectOAuthError(await codeGrant(provider, code, verifier, { redirect_uri: uri }), 400, 'invalid_grant');
    }
  });

  it('refuses a code presented again with invalid_grant, and the tokens of its first redemption die', async () => {
    const provider = await aProvider();
    const signedIn = await signIn(provider);
    const first = await redeem(provider.config, signedIn);
    expect((await userinfoWith(provider.issuer, first.access_token)).status).toBe(200);

    expectOAuthError(await codeGrant(provider, signedIn.code, signedIn.verifier), 400, 'invalid_grant');

    const info = await userinfoWith(provider.issuer, first.access_token);
    expect(info.status, info.text).toBe(401);
    expect(info.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    await expect(oidc.refreshTokenGrant(provider.config, first.refresh_token as string)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('refuses a used code presented with a wrong verifier or redirect_uri, and revokes nothing', async () => {
    const provider = await aProvider({ redirectUris: [CALLBACK, 'http://127.0.0.1:50123/other'] });
    const signedIn = await signIn(provider);
    const first = await redeem(provider.config, signedIn);
    // Whoever saw the used code (browser history, a proxy's log) has neither the verifier nor, always, the URI.
    const without: Record<string, string>[] = [
      { code_verifier: oidc.randomPKCECodeVerifier() },
      { redirect_uri: 'http://127.0.0.1:50123/other' },
    ];
    for (const extra of without) {
      expectOAuthError(await codeGrant(provider, signedIn.code, signedIn.verifier, extra), 400, 'invalid_grant');
    }
    // Nor another client, even with the right verifier: the replay must pass the code's own client authentication.
    const other = { ...provider, ...(await anotherClient(provider, { name: 'Other app' })) };
    expectOAuthError(await codeGrant(other, signedIn.code, signedIn.verifier), 400, 'invalid_grant');
    expect((await userinfoWith(provider.issuer, first.access_token)).status).toBe(200);
    const refreshed = await oidc.refreshTokenGrant(provider.config, first.refresh_token as string);
    expect(refreshed.access_token).toEqual(expect.any(String));
  });

  it('of five concurrent redemptions of one code, exactly one gets tokens', async () => {
    const provider = await aProvider();
    const { code, verifier } = await signIn(provider);
    const answers = await Promise.all(Array.from({ length: 5 }, () => codeGrant(provider, code, verifier)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses, answers.map((a) => a.text).join('\n')).toEqual([200, 400, 400, 400, 400]);
    for (const loser of answers.filter((a) => a.status !== 200)) expectOAuthError(loser, 400, 'invalid_grant');
    // The code was used more than once: what it issued is revoked too (RFC 6749 4.1.2).
    const winner = answers.find((a) => a.status === 200)?.body;
    expect((await userinfoWith(provider.issuer, winner.access_token)).status).toBe(401);
  });

  it('refuses a code past its 60 seconds with invalid_grant', async () => {
    const provider = await aProvider();
    const { code, verifier } = await signIn(provider);
    await expireCode(provider.tenant, code);
    expectOAuthError(await codeGrant(provider, code, verifier), 400, 'invalid_grant');
  });

  it("refuses another client's code with invalid_grant", async () => {
    const provider = await aProvider();
    const other = { ...provider, ...(await anotherClient(provider, { name: 'Other app' })) };
    const { code, verifier } = await signIn(provider);
    expectOAuthError(await codeGrant(other, code, verifier), 400, 'invalid_grant');
  });

  it('refuses a code that was never issued, and an absurdly long one, with invalid_grant', async () => {
    const provider = await aProvider();
    const verifier = oidc.randomPKCECodeVerifier();
    expectOAuthError(await codeGrant(provider, 'not-a-code', verifier), 400, 'invalid_grant');
    expectOAuthError(await codeGrant(provider, 'x'.repeat(4000), verifier), 400, 'invalid_grant');
  });

  it('takes redirect_uri when the authorization request left it out (a client with one registered URI)', async () => {
    const provider = await aProvider();
    const pending = await signIn(provider, { extra: { redirect_uri: '' } });
    expect(`${pending.callback.origin}${pending.callback.pathname}`).toBe(CALLBACK);
    const res = await codeGrant(provider, pending.code, pending.verifier);
    expect(res.status, res.text).toBe(200);
  });

  // Server bug: shared/oidc/token-endpoint.ts redeemCode requires redirect_uri always (`required(body.redirect_uri, …)`),
  // though authorize lets a client with one registered URI leave it out (shared/oidc/authorize.ts). RFC 6749 4.1.3
  // (and OAuth 2.1) require it at the token endpoint only if the authorization request included it: such a
  // client, sending neither, gets 400 invalid_request instead of its tokens.
  it('gives the tokens without redirect_uri when the authorization request had none (RFC 6749 4.1.3)', async () => {
    const provider = await aProvider();
    const pending = await signIn(provider, { extra: { redirect_uri: '' } });
    const res = await postForm(
      provider.issuer,
      '/oidc/token',
      { grant_type: 'authorization_code', code: pending.code, code_verifier: pending.verifier },
      { authorization: basic(provider.clientId, provider.clientSecret as string) },
    );
    expect(res.status, res.text).toBe(200);
  });

  it('refuses two client authentication methods at once (Basic and client_secret_post) with 401 invalid_client', async () => {
    const provider = await aProvider();
    const { code, verifier } = await signIn(provider);
    const res = await codeGrant(provider, code, verifier, { client_secret: provider.clientSecret as string });
    expectOAuthError(res, 401, 'invalid_client');
  });

  it('gives no refresh token to a client without the refresh_token grant', async () => {
    const provider = await aProvider({ grantTypes: ['authorization_code'] });
    const tokens = await tokensFor(provider);
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.id_token).toEqual(expect.any(String));
  });
});

describe('POST /oidc/token: client authentication', () => {
  it('answers a wrong secret in Basic with 401 invalid_client and a Basic challenge', async () => {
    const provider = await aProvider();
    const { code, verifier } = await signIn(provider);
    const res = await postForm(
      provider.issuer,
      '/oidc/token',
      { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier },
      { authorization: basic(provider.clientId, 'cs_wrong') },
    );
    expectOAuthError(res, 401, 'invalid_client');
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic\b/);
  });

  it('answers an empty secret in Basic with 401 invalid_client and a Basic challenge', async () => {
    const provider = await aProvider();
    const { code, verifier } = await signIn(provider);
    const res = await postForm(
      provider.issuer,
      '/oidc/token',
      { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier },
      { authorization: basic(provider.clientId, '') },
    );
    expectOAuthError(res, 401, 'invalid_client');
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic\b/);
  });

  it('answers a wrong secret in the form (client_secret_post) with 401 invalid_client', async () => {
    const provider = await aProvider();
    const { code, verifier } = await signIn(provider);
    const res = await postForm(provider.issuer, '/oidc/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
      client_id: provider.clientId,
      client_secret: 'cs_wrong',
    });
    expectOAuthError(res, 401, 'invalid_client');
  });

  it('answers a confidential client that sends no secret at all with 401 invalid_client', async () => {
    const provider = await aProvider();
    const { code, verifier } = await signIn(provider);
    const res = await postForm(provider.issuer, '/oidc/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
      client_id: provider.clientId,
    });
    expectOAuthError(res, 401, 'invalid_client');
  });

  // Server bug: shared/oidc/client-auth.ts sends `WWW-Authenticate` only when the client tried Basic, so these
  // 401s carry no challenge; RFC 9110 15.5.2 says every 401 MUST (RFC 6749 5.2: the 401 says which schemes work).
  it('answers every 401 invalid_client with a Basic challenge, also when the client did not use Basic', async () => {
    const provider = await aProvider();
    const { code, verifier } = await signIn(provider);
    const form = { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier };
    const clients: Record<string, string>[] = [
      { client_id: provider.clientId },
      { client_id: provider.clientId, client_secret: 'cs_wrong' },
    ];
    for (const client of clients) {
      const res = await postForm(provider.issuer, '/oidc/token', { ...form, ...client });
      expectOAuthError(res, 401, 'invalid_client');
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic\b/);
    }
  });

  it('takes the secret in the form (client_secret_post) too', async () => {
    const provider = await aProvider();
    const { code, verifier } = await signIn(provider);
    const res = await postForm(provider.issuer, '/oidc/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
      client_id: provider.clientId,
      client_secret: provider.clientSecret as string,
    });
    expect(res.status, res.text).toBe(200);
  });

  it('answers a public client that sends a secret with 401 invalid_client', async () => {
    const provider = await aProvider({ type: 'public' });
    const { code, verifier } = await signIn(provider);
    const res = await postForm(provider.issuer, '/oidc/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
      client_id: provider.clientId,
      client_secret: 'cs_made_up',
    });
    expectOAuthError(res, 401, 'invalid_client');
  });
});

describe('POST /oidc/token: grants and formats', () => {
  it.each(['password', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code'])(
    'answers grant_type=%s with 400 unsupported_grant_type',
    async (grantType) => {
      const provider = await aProvider();
      const res = await postForm(
        provider.issuer,
        '/oidc/token',
        { grant_type: grantType, username: 'a', password: 'b' },
        { authorization: basic(provider.clientId, provider.clientSecret as string) },
      );
      expectOAuthError(res, 400, 'unsupported_grant_type');
    },
  );

  it('answers a request without grant_type with 400 invalid_request', async () => {
    const provider = await aProvider();
    const res = await postForm(
      provider.issuer,
      '/oidc/token',
      {},
      { authorization: basic(provider.clientId, provider.clientSecret as string) },
    );
    expectOAuthError(res, 400, 'invalid_request');
  });

  it('answers a JSON body with 415, as OAuth JSON', async () => {
    const provider = await aProvider();
    const { code, verifier } = await signIn(provider);
    const res = await atIssuer(provider.issuer, '/api/v1/oidc/token', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: basic(provider.clientId, provider.clientSecret as string),
      },
      body: JSON.stringify({
        grant_type: 'authorization_code',
        code,
        redirect_uri: CALLBACK,
        code_verifier: verifier,
      }),
    });
    expectOAuthError(res, 415, 'invalid_request');
  });

  it('answers client_credentials of a client without that grant with 400 unauthorized_client', async () => {
    const provider = await aProvider();
    await expect(oidc.clientCredentialsGrant(provider.config)).rejects.toMatchObject({
      error: 'unauthorized_client',
      status: 400,
    });
  });

  it('answers client_credentials of a public client with unauthorized_client', async () => {
    const provider = await aProvider({ type: 'public' });
    const res = await postForm(provider.issuer, '/oidc/token', {
      grant_type: 'client_credentials',
      client_id: provider.clientId,
    });
    expectOAuthError(res, 400, 'unauthorized_client');
  });

  it('answers the refresh grant of a client without that grant with unauthorized_client', async () => {
    const provider = await aProvider();
    const tokens = await tokensFor(provider);
    const lean = await anotherClient(provider, { grantTypes: ['authorization_code'], name: 'No refresh' });
    const res = await postForm(
      provider.issuer,
      '/oidc/token',
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string },
      { authorization: basic(lean.clientId, lean.clientSecret as string) },
    );
    expectOAuthError(res, 400, 'unauthorized_client');
  });
});

describe('POST /oidc/revoke (RFC 7009)', () => {
  it('answers 200 for a token it does not know', async () => {
    const provider = await aProvider();
    for (const token of ['nothing-like-a-token', 'rt2.bogus.bogus', 'eyJhbGciOiJub25lIn0.e30.']) {
      const res = await postForm(
        provider.issuer,
        '/oidc/revoke',
        { token },
        { authorization: basic(provider.clientId, provider.clientSecret as string) },
      );
      expect(res.status, res.text).toBe(200);
    }
  });

  it('answers a wrong client secret with 401 invalid_client, and revokes nothing', async () => {
    const provider = await aProvider();
    const tokens = await tokensFor(provider);
    const res = await postForm(
      provider.issuer,
      '/oidc/revoke',
      { token: tokens.refresh_token as string },
      { authorization: basic(provider.clientId, 'cs_wrong') },
    );
    expectOAuthError(res, 401, 'invalid_client');
    expect((await userinfoWith(provider.issuer, tokens.access_token)).status).toBe(200);
  });

  it('revoking an access token ends its session: refresh is invalid_grant, userinfo 401', async () => {
    const provider = await aProvider();
    const tokens = await tokensFor(provider);
    await oidc.tokenRevocation(provider.config, tokens.access_token, { token_type_hint: 'access_token' });
    expect((await userinfoWith(provider.issuer, tokens.access_token)).status).toBe(401);
    await expect(oidc.refreshTokenGrant(provider.config, tokens.refresh_token as string)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('a refresh token made up from the ID token’s sub and sid ends nothing, whatever generation it claims', async () => {
    const provider = await aProvider();
    const first = await tokensFor(provider);
    const claims = first.claims();
    const [sub, sid] = [String(claims?.sub), String(claims?.sid)];
    expect(first.refresh_token).toMatch(new RegExp(`^rt2\\.${sub}\\.${sid}\\.0\\.`));
    // One rotation: generation 0 is now a rotated-out one, 1 the current one.
    const tokens = await oidc.refreshTokenGrant(provider.config, first.refresh_token as string);
    expect(tokens.refresh_token).toMatch(new RegExp(`^rt2\\.${sub}\\.${sid}\\.1\\.`));
    for (const generation of [0, 1, 2]) {
      const forged = `rt2.${sub}.${sid}.${generation}.${Buffer.alloc(32, 7).toString('base64url')}`;
      await oidc.tokenRevocation(provider.config, forged);
    }
    expect((await userinfoWith(provider.issuer, tokens.access_token)).status).toBe(200);
    const refreshed = await oidc.refreshTokenGrant(provider.config, tokens.refresh_token as string);
    expect(refreshed.access_token).toEqual(expect.any(String));
  });

  it('the refresh token the session holds ends it, and so does one rotated out of it', async () => {
    const provider = await aProvider();
    const current = await tokensFor(provider);
    await oidc.tokenRevocation(provider.config, current.refresh_token as string);
    expect((await userinfoWith(provider.issuer, current.access_token)).status).toBe(401);

    const rotatedOut = await tokensFor(provider);
    const next = await oidc.refreshTokenGrant(provider.config, rotatedOut.refresh_token as string);
    await oidc.tokenRevocation(provider.config, rotatedOut.refresh_token as string);
    expect((await userinfoWith(provider.issuer, next.access_token)).status).toBe(401);
    await expect(oidc.refreshTokenGrant(provider.config, next.refresh_token as string)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it("another client's refresh token, presented by this client, leaves that client's session alive", async () => {
    const provider = await aProvider();
    const tokens = await tokensFor(provider);
    const intruder = await anotherClient(provider, { name: 'Intruder' });
    await oidc.tokenRevocation(intruder.config, tokens.refresh_token as string);
    await oidc.tokenRevocation(intruder.config, tokens.access_token);
    expect((await userinfoWith(provider.issuer, tokens.access_token)).status).toBe(200);
    const refreshed = await oidc.refreshTokenGrant(provider.config, tokens.refresh_token as string);
    expect(refreshed.access_token).toEqual(expect.any(String));
  });
});
