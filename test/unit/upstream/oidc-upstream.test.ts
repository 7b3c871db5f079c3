import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OidcUpstream, startOidcUpstream } from '#test/support/upstream/oidc-upstream.ts';
import { authorizationUrl, discover, finishAuthorization, userInfo } from '#test/support/upstream/relying-party.ts';

const ada = {
  sub: 'ada-1815',
  email: 'ada@example.com',
  emailVerified: true,
  name: 'Ada Lovelace',
  givenName: 'Ada',
  familyName: 'Lovelace',
  extraClaims: { hd: 'example.com' },
};
const grace = { sub: 'grace-1906', email: 'grace@example.com', emailVerified: false, name: 'Grace Hopper' };

const web = { clientId: 'web-app', clientSecret: 'web-secret', redirectUri: 'http://127.0.0.1:9/callback' };
const apple = { clientId: 'apple-style', clientSecret: 'apple-secret', redirectUri: 'http://127.0.0.1:9/apple' };

let google: OidcUpstream;
let as: oauth.AuthorizationServer;

beforeAll(async () => {
  google = await startOidcUpstream({
    issuerPath: '/google',
    accounts: [ada, grace],
    clients: [
      { clientId: web.clientId, clientSecret: web.clientSecret, redirectUris: [web.redirectUri] },
      {
        clientId: apple.clientId,
        clientSecret: apple.clientSecret,
        redirectUris: [apple.redirectUri],
        responseModes: ['form_post'],
      },
    ],
  });
  as = await discover(google.issuer);
});
afterAll(() => google?.close());

describe('a fake OpenID Provider (oidc-provider on loopback)', () => {
  it('publishes discovery under its issuer path: code flow, PKCE S256, form_post, RS256, the iss parameter', () => {
    expect(google.issuer).toBe(`http://127.0.0.1:${google.port}/google`);
    expect(as).toMatchObject({
      issuer: google.issuer,
      authorization_endpoint: `${google.issuer}/auth`,
      token_endpoint: `${google.issuer}/token`,
      jwks_uri: `${google.issuer}/jwks`,
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: expect.arrayContaining(['RS256']),
      authorization_response_iss_parameter_supported: true,
    });
    expect(as.response_modes_supported).toEqual(expect.arrayContaining(['query', 'form_post']));
    expect(as.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
    expect(as.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['client_secret_basic', 'client_secret_post']),
    );
  });

  it('signs in as the chosen account: the ID token carries its email and profile claims, as does userinfo', async () => {
    const started = await authorizationUrl(as, web);
    const answer = await google.authorize(started.url, { sub: ada.sub });
    expect(answer.method).toBe('GET');
    expect(`${answer.url.origin}${answer.url.pathname}`).toBe(web.redirectUri);
    expect(answer.params.get('iss')).toBe(google.issuer);

    const { tokens, claims } = await finishAuthorization(as, web, started, answer);
    expect(claims).toMatchObject({
      iss: google.issuer,
      aud: web.clientId,
      sub: ada.sub,
      nonce: started.nonce,
      email: 'ada@example.com',
      email_verified: true,
      name: 'Ada Lovelace',
      given_name: 'Ada',
      family_name: 'Lovelace',
      hd: 'example.com',
    });
    const [header] = tokens.id_token?.split('.') ?? [];
    expect(JSON.parse(Buffer.from(header ?? '', 'base64url').toString())).toMatchObject({ alg: 'RS256' });
    await expect(userInfo(as, web.clientId, tokens.access_token, ada.sub)).resolves.toMatchObject({
      sub: ada.sub,
      email: 'ada@example.com',
      email_verified: true,
    });
  });

  it('says an unverified e-mail address is unverified', async () => {
    const started = await authorizationUrl(as, { ...web, auth: 'post' });
    const answer = await google.authorize(started.url, { sub: grace.sub });
    const { claims } = await finishAuthorization(as, { ...web, auth: 'post' }, started, answer);
    expect(claims).toMatchObject({ sub: grace.sub, email: 'grace@example.com', email_verified: false });
  });

  it('answers with a form post to the redirect_uri when asked for response_mode=form_post', async () => {
    const rp = { ...apple, auth: 'post' as const };
    const started = await authorizationUrl(as, rp, { response_mode: 'form_post' });
    const answer = await google.authorize(started.url, { sub: ada.sub });
    expect(answer.method).toBe('POST');
    expect(answer.url.href).toBe(apple.redirectUri);
    expect([...answer.params.keys()].sort()).toEqual(['code', 'iss', 'state']);
    const { claims } = await finishAuthorization(as, rp, started, answer);
    expect(claims.sub).toBe(ada.sub);
  });

  it('refuses a client the response mode it did not register', async () => {
    const started = await authorizationUrl(as, apple);
    const answer = await google.authorize(started.url, { sub: ada.sub });
    expect(answer.params.get('error')).toBe('invalid_request');
  });

  it('requires PKCE: a request without a code challenge comes back as invalid_request', async () => {
    const started = await authorizationUrl(as, web);
    started.url.searchParams.delete('code_challenge');
    started.url.searchParams.delete('code_challenge_method');
    const answer = await google.authorize(started.url, { sub: ada.sub });
    expect(answer.params.get('error')).toBe('invalid_request');
    expect(answer.params.get('error_description')).toMatch(/PKCE/);
  });

  it('refuses the code with the wrong verifier, the wrong secret, or a second time', async () => {
    const started = await authorizationUrl(as, web);
    const answer = await google.authorize(started.url, { sub: ada.sub });
    await expect(
      finishAuthorization(as, web, { ...started, codeVerifier: oauth.generateRandomCodeVerifier() }, answer),
    ).rejects.toMatchObject({ error: 'invalid_grant' });

    const again = await authorizationUrl(as, web);
    const second = await google.authorize(again.url, { sub: ada.sub });
    await expect(
      finishAuthorization(as, { ...web, clientSecret: 'not-the-secret' }, again, second),
    ).rejects.toMatchObject({
      status: 401,
      cause: [expect.objectContaining({ parameters: expect.objectContaining({ error: 'invalid_client' }) })],
    });

    const third = await authorizationUrl(as, web);
    const answered = await google.authorize(third.url, { sub: ada.sub });
    await finishAuthorization(as, web, third, answered);
    await expect(finishAuthorization(as, web, third, answered)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('sends access_denied when the person cancels', async () => {
    const started = await authorizationUrl(as, web);
    const answer = await google.authorize(started.url, { cancel: true });
    expect(answer.params.get('error')).toBe('access_denied');
    expect(answer.params.get('state')).toBe(started.state);
  });

  it('shows a page titled Demo ID with one "Continue as" button per account, usable without JavaScript', async () => {
    const started = await authorizationUrl(as, web);
    const toPage = await fetch(started.url, { redirect: 'manual' });
    const page = await fetch(new URL(toPage.headers.get('location') ?? '', started.url), {
      headers: {
        cookie: toPage.headers
          .getSetCookie()
          .map((line) => line.split(';')[0])
          .join('; '),
      },
    });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('<title>Demo ID</title>');
    expect(html).toContain('<html lang="en">');
    expect(html).not.toContain('<script');
    expect(html).toContain('>Continue as Ada Lovelace &lt;ada@example.com&gt;</button>');
    expect(html).toContain('>Continue as Grace Hopper &lt;grace@example.com&gt;</button>');
    expect(html).toContain('>Cancel</button>');
  });

  it('takes accounts and clients added after the start, and an account changed between sign-ins', async () => {
    const rp = { clientId: 'late', clientSecret: 'late-secret', redirectUri: 'http://127.0.0.1:9/late' };
    await google.addClient({ clientId: rp.clientId, clientSecret: rp.clientSecret, redirectUris: [rp.redirectUri] });
    google.setAccount({ sub: 'alan', email: 'alan@example.com', emailVerified: true });
    google.setAccount({ ...grace, email: 'grace@navy.example', emailVerified: true });

    const first = await authorizationUrl(as, rp);
    const alan = await finishAuthorization(as, rp, first, await google.authorize(first.url, { sub: 'alan' }));
    expect(alan.claims).toMatchObject({ sub: 'alan', email: 'alan@example.com' });
    const second = await authorizationUrl(as, rp);
    const changed = await finishAuthorization(as, rp, second, await google.authorize(second.url, { sub: grace.sub }));
    expect(changed.claims).toMatchObject({ email: 'grace@navy.example', email_verified: true });
  });

  it('refuses client metadata oidc-provider would not take, when it is added', async () => {
    await expect(
      google.addClient({ clientId: 'bad', clientSecret: 'bad-secret', redirectUris: ['not a url'] }),
    ).rejects.toThrow(/client bad: invalid_redirect_uri/);
  });

  it('is an issuer at the root of its origin without an issuer path', async () => {
    const plain = await startOidcUpstream({
      accounts: [ada],
      clients: [{ clientId: web.clientId, clientSecret: web.clientSecret, redirectUris: [web.redirectUri] }],
    });
    try {
      const root = await discover(plain.issuer);
      expect(root.issuer).toBe(`http://127.0.0.1:${plain.port}`);
      const started = await authorizationUrl(root, web);
      const { claims } = await finishAuthorization(root, web, started, await plain.authorize(started.url, ada));
      expect(claims).toMatchObject({ iss: plain.issuer, sub: ada.sub });
    } finally {
      await plain.close();
    }
  });
});
