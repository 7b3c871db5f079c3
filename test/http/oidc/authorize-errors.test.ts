import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { bearer, call, expectProblem, post } from '#test/support/http.ts';
import { useLocalStack } from '#test/support/server.ts';
import { atIssuer, CALLBACK, claimsOf, oidcApi, type Provider } from './helpers.ts';

/**
 * GET /oidc/authorize's refusals (shared/oidc/README.md, Authorize): a request whose client or redirect URI
 * cannot be trusted never goes back to that URI (the hosted error page says why); every other problem goes
 * to the client's registered URI with `error`, `error_description`, the state exactly as sent, and `iss`.
 */

const api = useLocalStack();
const { aProvider, anotherClient, authorizationUrl, signIn, redeem } = oidcApi(api);

/** A 43-character S256 challenge (any well-formed one: these requests never reach the token endpoint). */
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** The parameters of a good request of the provider's client, in order, as pairs (so a test may repeat one). */
const goodRequest = (provider: Pick<Provider, 'clientId'>): [string, string][] => [
  ['client_id', provider.clientId],
  ['redirect_uri', CALLBACK],
  ['response_type', 'code'],
  ['scope', 'openid email'],
  ['code_challenge', CHALLENGE],
  ['code_challenge_method', 'S256'],
  ['state', 'st-123'],
];

/** The pairs with `name` set to `value` (or removed, for undefined). */
function withParam(pairs: [string, string][], name: string, value: string | undefined): [string, string][] {
  const kept = pairs.filter(([n]) => n !== name);
  return value === undefined ? kept : [...kept, [name, value]];
}

/** GET <issuer>/api/v1/oidc/authorize with these pairs: the 302 and where it points. */
async function authorize(issuer: string, pairs: [string, string][]) {
  const res = await atIssuer(issuer, `/api/v1/oidc/authorize?${new URLSearchParams(pairs)}`);
  expect(res.status, res.text).toBe(302);
  return new URL(res.headers.get('location') as string);
}

/** The hosted error page, `<issuer>/authorize?error=<code>`, and nothing else. */
function expectHostedError(location: URL, issuer: string, code: string) {
  expect(String(location)).toBe(`${issuer}/authorize?error=${code}`);
}

/** An error sent to the client's registered URI (RFC 6749 4.1.2.1, RFC 9207): no code, the state echoed, iss. */
function expectClientError(location: URL, issuer: string, error: string, state: string | null = 'st-123') {
  expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
  expect(location.hash).toBe('');
  expect(location.searchParams.get('error')).toBe(error);
  expect(location.searchParams.get('error_description')).toEqual(expect.stringMatching(/\S/));
  expect(location.searchParams.get('state')).toBe(state);
  expect(location.searchParams.get('iss')).toBe(issuer);
  expect(location.searchParams.has('code')).toBe(false);
}

describe('GET /oidc/authorize: an untrusted client or redirect URI never gets a redirect', () => {
  it('sends an unknown client_id (well-formed or not) to the hosted error page UNKNOWN_CLIENT', async () => {
    const provider = await aProvider();
    for (const clientId of ['cli_00000000000000000000', 'not-a-client', provider.clientId.toUpperCase()]) {
      const location = await authorize(provider.issuer, withParam(goodRequest(provider), 'client_id', clientId));
      expectHostedError(location, provider.issuer, 'UNKNOWN_CLIENT');
    }
  });

  it("sends another tenant's client, at this tenant's issuer, to UNKNOWN_CLIENT (the client's own issuer accepts it)", async () => {
    const here = await aProvider();
    const elsewhere = await aProvider();
    const location = await authorize(here.issuer, goodRequest(elsewhere));
    expectHostedError(location, here.issuer, 'UNKNOWN_CLIENT');
    const atHome = await authorize(elsewhere.issuer, goodRequest(elsewhere));
    expect(`${atHome.origin}${atHome.pathname}`).toBe(`${elsewhere.issuer}/authorize`);
    expect(atHome.searchParams.get('request')).toEqual(expect.stringMatching(/^oar_/));
  });

  it.each([
    ['a trailing slash', `${CALLBACK}/`],
    ['another path on another port', 'http://127.0.0.1:50124/callback/other'],
    ['an extra query', `${CALLBACK}?next=/admin`],
    ['another host for the same loopback', 'http://localhost:50123/callback'],
    ['an attacker', 'https://attacker.example/callback'],
    ['an attacker, https:host form', 'https:attacker.example/callback'],
    ['an attacker, with backslashes', 'https:\\\\attacker.example\\callback'],
  ])('sends a redirect_uri registered only almost (%s) to REDIRECT_URI_MISMATCH, never to it', async (_, uri) => {
    const provider = await aProvider();
    const location = await authorize(provider.issuer, withParam(goodRequest(provider), 'redirect_uri', uri));
    expectHostedError(location, provider.issuer, 'REDIRECT_URI_MISMATCH');
  });

  it.each([
    ['client_id missing', (p: [string, string][]) => withParam(p, 'client_id', undefined)],
    ['client_id empty', (p: [string, string][]) => withParam(p, 'client_id', '')],
    ['client_id repeated', (p: [string, string][]) => [...p, p[0] as [string, string]]],
    ['redirect_uri repeated', (p: [string, string][]) => [...p, ['redirect_uri', CALLBACK] as [string, string]]],
  ])('sends a request with %s to the hosted error page INVALID_REQUEST', async (_, change) => {
    const provider = await aProvider();
    const location = await authorize(provider.issuer, change(goodRequest(provider)));
    expectHostedError(location, provider.issuer, 'INVALID_REQUEST');
  });

  it('sends a request without redirect_uri, of a client with two registered URIs, to INVALID_REQUEST', async () => {
    const provider = await aProvider({ redirectUris: [CALLBACK, 'http://127.0.0.1:50123/other'] });
    const location = await authorize(provider.issuer, withParam(goodRequest(provider), 'redirect_uri', undefined));
    expectHostedError(location, provider.issuer, 'INVALID_REQUEST');
  });

  it('lets a client with one registered URI leave redirect_uri out', async () => {
    const provider = await aProvider();
    const location = await authorize(provider.issuer, withParam(goodRequest(provider), 'redirect_uri', undefined));
    expect(`${location.origin}${location.pathname}`).toBe(`${provider.issuer}/authorize`);
    expect(location.searchParams.get('request')).toEqual(expect.stringMatching(/^oar_/));
  });
});

describe('GET /oidc/authorize: errors sent back to the client with its state and iss', () => {
  it.each(['token', 'id_token', 'id_token token', 'code id_token', 'code token', 'code id_token token'])(
    'refuses response_type=%s (implicit and hybrid) with unsupported_response_type',
    async (responseType) => {
      const provider = await aProvider();
      const location = await authorize(
        provider.issuer,
        withParam(goodRequest(provider), 'response_type', responseType),
      );
      expectClientError(location, provider.issuer, 'unsupported_response_type');
    },
  );

  it('refuses a request without response_type with invalid_request', async () => {
    const provider = await aProvider();
    const location = await authorize(provider.issuer, withParam(goodRequest(provider), 'response_type', undefined));
    expectClientError(location, provider.issuer, 'invalid_request');
  });

  it.each([
    ['no code_challenge', 'code_challenge', undefined],
    ['code_challenge_method=plain', 'code_challenge_method', 'plain'],
    ['no code_challenge_method (plain by default, RFC 7636)', 'code_challenge_method', undefined],
    ['a malformed challenge', 'code_challenge', 'too-short'],
  ])('refuses %s with invalid_request: PKCE S256 is required', async (_, name, value) => {
    const provider = await aProvider();
    const location = await authorize(provider.issuer, withParam(goodRequest(provider), name, value));
    expectClientError(location, provider.issuer, 'invalid_request');
  });

  it('refuses a scope without openid with invalid_scope', async () => {
    const provider = await aProvider();
    const location = await authorize(provider.issuer, withParam(goodRequest(provider), 'scope', 'email profile'));
    expectClientError(location, provider.issuer, 'invalid_scope');
  });

  it.each(['none login', 'none consent', 'bogus'])('refuses prompt=%s with invalid_request', async (prompt) => {
    const provider = await aProvider();
    const location = await authorize(provider.issuer, withParam(goodRequest(provider), 'prompt', prompt));
    expectClientError(location, provider.issuer, 'invalid_request');
  });

  it('refuses a repeated parameter (scope twice) with invalid_request, still echoing the state', async () => {
    const provider = await aProvider();
    const location = await authorize(provider.issuer, [...goodRequest(provider), ['scope', 'openid']]);
    expectClientError(location, provider.issuer, 'invalid_request');
  });

  it.each(['fragment', 'form_post'])(
    'refuses response_mode=%s with invalid_request, answered in the query',
    async (mode) => {
      const provider = await aProvider();
      const location = await authorize(provider.issuer, withParam(goodRequest(provider), 'response_mode', mode));
      expectClientError(location, provider.issuer, 'invalid_request');
    },
  );

  it('refuses a bad max_age with invalid_request', async () => {
    const provider = await aProvider();
    const location = await authorize(provider.issuer, withParam(goodRequest(provider), 'max_age', '-5'));
    expectClientError(location, provider.issuer, 'invalid_request');
  });

  it('refuses request objects (request_not_supported) and request_uri (request_uri_not_supported)', async () => {
    const provider = await aProvider();
    const jwt = 'eyJhbGciOiJub25lIn0.eyJzY29wZSI6Im9wZW5pZCJ9.';
    expectClientError(
      await authorize(provider.issuer, withParam(goodRequest(provider), 'request', jwt)),
      provider.issuer,
      'request_not_supported',
    );
    expectClientError(
      await authorize(
        provider.issuer,
        withParam(goodRequest(provider), 'request_uri', 'https://attacker.example/request.jwt'),
      ),
      provider.issuer,
      'request_uri_not_supported',
    );
  });

  it('refuses a client registered without the authorization_code grant with unauthorized_client', async () => {
    const provider = await aProvider();
    const machine = await anotherClient(provider, { grantTypes: ['client_credentials'] });
    const location = await authorize(provider.issuer, goodRequest(machine));
    expectClientError(location, provider.issuer, 'unauthorized_client');
  });

  it('leaves state out of the answer when the request had none', async () => {
    const provider = await aProvider();
    const location = await authorize(
      provider.issuer,
      withParam(withParam(goodRequest(provider), 'state', undefined), 'scope', 'profile'),
    );
    expectClientError(location, provider.issuer, 'invalid_scope', null);
  });
});

/** Characters that break naive encoders: spaces, plus, reserved ones, a literal %20, unicode, quotes. */
const ODD = 'a b+c&d=e#f%g%20h?i/j ü ß 漢字 😀 "q" <x>';

describe('state and nonce with odd characters', () => {
  it('come back byte for byte: state in an error redirect', async () => {
    const provider = await aProvider();
    const location = await authorize(
      provider.issuer,
      withParam(withParam(goodRequest(provider), 'state', ODD), 'scope', 'email'),
    );
    expectClientError(location, provider.issuer, 'invalid_scope', ODD);
  });

  it('come back byte for byte: state in the callback with the code, nonce in the ID token', async () => {
    const provider = await aProvider();
    const signedIn = await signIn(provider, { extra: { state: `s:${ODD}`, nonce: `n:${ODD}` } });
    expect(signedIn.callback.searchParams.get('state')).toBe(`s:${ODD}`);
    const tokens = await redeem(provider.config, signedIn);
    expect(tokens.claims()?.nonce).toBe(`n:${ODD}`);
    expect(claimsOf(tokens.id_token as string).nonce).toBe(`n:${ODD}`);
  });
});

describe('redirect URIs compared serialized', () => {
  it('matches a loopback IP redirect URI on any port, and answers to the port asked (native apps take a free one)', async () => {
    const provider = await aProvider();
    const ephemeral = 'http://127.0.0.1:61234/callback';
    const refused = await authorize(provider.issuer, [
      ...withParam(goodRequest(provider), 'redirect_uri', ephemeral),
      ['request_uri', 'https://attacker.example/r'],
    ]);
    expect(`${refused.origin}${refused.pathname}`).toBe(ephemeral);
    expect(refused.searchParams.get('error')).toBe('request_uri_not_supported');
    const signedIn = await signIn(provider, { extra: { redirect_uri: ephemeral } });
    expect(`${signedIn.callback.origin}${signedIn.callback.pathname}`).toBe(ephemeral);
    const tokens = await redeem(provider.config, signedIn);
    expect(tokens.id_token).toEqual(expect.any(String));
  });

  it('answers a URI that serializes to the registered one at the registered one, as written there', async () => {
    const provider = await aProvider();
    const location = await authorize(provider.issuer, [
      ...withParam(goodRequest(provider), 'redirect_uri', 'HTTP://127.0.0.1:50123/callback'),
      ['request_uri', 'https://attacker.example/r'],
    ]);
    expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
    expect(location.searchParams.get('error')).toBe('request_uri_not_supported');
  });
});

describe('a redirect URI registered with a query of its own', () => {
  it('keeps its query: the code and the errors are added to it', async () => {
    const withQuery = 'http://127.0.0.1:50123/cb?shop=north&lang=fr';
    const provider = await aProvider({ redirectUris: [withQuery] });
    const signedIn = await signIn(provider, { extra: { redirect_uri: withQuery } });
    expect(signedIn.callback.searchParams.get('shop')).toBe('north');
    expect(signedIn.callback.searchParams.get('lang')).toBe('fr');
    expect(signedIn.callback.searchParams.get('code')).toBe(signedIn.code);
    const refused = await authorize(provider.issuer, [
      ...withParam(goodRequest(provider), 'redirect_uri', withQuery),
      ['request_uri', 'https://attacker.example/r'],
    ]);
    expect(refused.searchParams.get('shop')).toBe('north');
    expect(refused.searchParams.get('error')).toBe('request_uri_not_supported');
  });
});

describe('prompt=none without a session', () => {
  it("the page's cancel sends login_required with state and iss to the client; the request is then used up", async () => {
    const provider = await aProvider();
    const pending = await authorizationUrl(provider.config, { prompt: 'none' });
    const page = await authorize(provider.issuer, [...pending.url.searchParams.entries()]);
    expect(`${page.origin}${page.pathname}`).toBe(`${provider.issuer}/authorize`);
    const requestId = page.searchParams.get('request') as string;

    const shown = await atIssuer(provider.issuer, `/api/v1/oidc/authorization-requests/${requestId}`, {
      headers: provider.tenant.headers,
    });
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body).toMatchObject({ requestId, prompt: 'none', client: { clientId: provider.clientId } });

    const cancel = () =>
      post(
        `${api.url}/oidc/authorization-requests/${requestId}/cancel`,
        { error: 'login_required' },
        provider.tenant.headers,
      );
    const cancelled = await cancel();
    expect(cancelled.status, cancelled.text).toBe(200);
    const back = new URL(cancelled.body.redirectTo);
    expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
    expect(Object.fromEntries(back.searchParams)).toEqual({
      error: 'login_required',
      state: pending.state,
      iss: provider.issuer,
    });
    // openid-client reads it as the OP's error, with the state and issuer checked.
    await expect(
      oidc.authorizationCodeGrant(provider.config, back, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
      }),
    ).rejects.toMatchObject({ error: 'login_required' });

    const complete = await post(
      `${api.url}/oidc/authorization-requests/${requestId}/complete`,
      {},
      bearer(provider.tenant, provider.userToken),
    );
    expectProblem(complete, 404, 'NOT_FOUND');
    expectProblem(await cancel(), 404, 'NOT_FOUND');
    expectProblem(
      await call(api.url, 'GET', `/oidc/authorization-requests/${requestId}`, provider.tenant.headers),
      404,
      'NOT_FOUND',
    );
  });
});

describe('GET /oidc/authorize: ui_locales chooses the language of the hosted pages', () => {
  it('the first tag we write in goes to the sign-in page as ui_locales; tags we do not, and none, leave it out', async () => {
    const provider = await aProvider();
    const request = goodRequest(provider);
    const german = await authorize(provider.issuer, withParam(request, 'ui_locales', 'fr-CA de-CH en'));
    expect(german.pathname).toBe('/authorize');
    expect(german.searchParams.get('request')).toMatch(/^oar_/);
    expect(german.searchParams.get('ui_locales')).toBe('de');
    for (const value of ['fr ja', '<b>', undefined]) {
      const other = await authorize(provider.issuer, withParam(request, 'ui_locales', value));
      expect(other.searchParams.get('request')).toMatch(/^oar_/);
      expect(other.searchParams.has('ui_locales'), String(value)).toBe(false);
    }
  });

  it('the hosted error page is told it too', async () => {
    const provider = await aProvider();
    const unknown = withParam(withParam(goodRequest(provider), 'client_id', 'oc_nope'), 'ui_locales', 'de');
    const location = await authorize(provider.issuer, unknown);
    expect(String(location)).toBe(`${provider.issuer}/authorize?error=UNKNOWN_CLIENT&ui_locales=de`);
  });
});
