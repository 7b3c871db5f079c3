import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostileOidc, startHostileOidc, type Tamper } from '#test/support/upstream/hostile-oidc.ts';
import { authorizationUrl, discover, finishAuthorization, userInfo } from '#test/support/upstream/relying-party.ts';

const rp = { clientId: 'victim', clientSecret: 'victim-secret', redirectUri: 'http://127.0.0.1:9/callback' };

let hostile: HostileOidc;
let as: oauth.AuthorizationServer;

beforeAll(async () => {
  hostile = await startHostileOidc({ clientId: rp.clientId, clientSecret: rp.clientSecret, tamper: 'none' });
  as = await discover(hostile.issuer);
});
afterAll(() => hostile?.close());

async function signIn(tamper: Tamper, auth: 'basic' | 'post' = 'basic') {
  hostile.setTamper(tamper);
  const client = { ...rp, auth };
  const started = await authorizationUrl(as, client);
  const answer = await hostile.authorize(started.url);
  return finishAuthorization(as, client, started, answer);
}

describe('a hostile OpenID Provider stub', () => {
  it('is a correct provider when it tampers with nothing: oauth4webapi takes its ID token, signature and all', async () => {
    const { tokens, claims } = await signIn('none');
    expect(claims).toMatchObject({
      iss: hostile.issuer,
      aud: rp.clientId,
      sub: hostile.account.sub,
      email: hostile.account.email,
      email_verified: true,
    });
    await expect(userInfo(as, rp.clientId, tokens.access_token, hostile.account.sub)).resolves.toMatchObject({
      email_verified: true,
    });
    await expect(signIn('none', 'post')).resolves.toMatchObject({ claims: { sub: hostile.account.sub } });
  });

  it('answers the authorization request with code, state and its issuer (RFC 9207)', async () => {
    hostile.setTamper('none');
    const started = await authorizationUrl(as, rp);
    const answer = await hostile.authorize(started.url);
    expect(answer.method).toBe('GET');
    expect(answer.params.get('state')).toBe(started.state);
    expect(answer.params.get('iss')).toBe(hostile.issuer);
    expect(answer.params.get('code')).toEqual(expect.any(String));
  });

  it.each<[Tamper, RegExp]>([
    ['audience', /"aud" \(audience\)/],
    ['issuer', /"iss" \(issuer\)/],
    ['expired', /expiration/],
    ['alg-none', /"alg" header/],
    ['unknown-key', /signature verification failed/],
    ['nonce', /"nonce"/],
  ])('hands out an ID token oauth4webapi refuses: %s', async (tamper, reason) => {
    await expect(signIn(tamper)).rejects.toThrow(reason);
  });

  it('signs with an unknown key a token that only a signature check catches', async () => {
    hostile.setTamper('unknown-key');
    const started = await authorizationUrl(as, rp);
    const params = oauth.validateAuthResponse(
      as,
      { client_id: rp.clientId },
      (await hostile.authorize(started.url)).params,
      started.state,
    );
    const client = { client_id: rp.clientId };
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(rp.clientSecret),
      params,
      rp.redirectUri,
      started.codeVerifier,
      { [oauth.allowInsecureRequests]: true },
    );
    // oauth4webapi takes a token from the token endpoint on the strength of the connection alone ...
    await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: started.nonce });
    // ... and refuses it once asked to check its signature against the provider's keys.
    await expect(
      oauth.validateApplicationLevelSignature(as, response, { [oauth.allowInsecureRequests]: true }),
    ).rejects.toThrow(/signature verification failed/);
  });

  it('says an e-mail address is unverified in a token oauth4webapi takes: refusing it is the service’s job', async () => {
    const { tokens, claims } = await signIn('email-unverified');
    expect(claims).toMatchObject({ email: hostile.account.email, email_verified: false });
    await expect(userInfo(as, rp.clientId, tokens.access_token, hostile.account.sub)).resolves.toMatchObject({
      email_verified: false,
    });
  });

  it('checks the client secret, the PKCE verifier and that a code is used once', async () => {
    hostile.setTamper('none');
    const started = await authorizationUrl(as, rp);
    const answer = await hostile.authorize(started.url);
    await expect(
      finishAuthorization(as, rp, { ...started, codeVerifier: oauth.generateRandomCodeVerifier() }, answer),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(finishAuthorization(as, rp, started, answer)).rejects.toMatchObject({ error: 'invalid_grant' });

    const again = await authorizationUrl(as, rp);
    const second = await hostile.authorize(again.url);
    await expect(
      finishAuthorization(as, { ...rp, clientSecret: 'wrong', auth: 'post' }, again, second),
    ).rejects.toMatchObject({ error: 'invalid_client', status: 401 });
  });

  it('sends a request without PKCE back with invalid_request', async () => {
    const started = await authorizationUrl(as, rp);
    started.url.searchParams.delete('code_challenge');
    const answer = await hostile.authorize(started.url);
    expect(answer.params.get('error')).toBe('invalid_request');
  });
});
