import * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { aTenantWith } from '#test/support/auth.ts';
import { issuerOf, localhostFetch } from '#test/support/oidc.ts';
import { useLocalStack } from '#test/support/server.ts';
import { atIssuer, CALLBACK, oidcApi, postForm } from './helpers.ts';

/**
 * The provider's metadata as relying-party libraries and the specifications read it: oauth4webapi's strict
 * discovery (both algorithms), OpenID Connect Discovery 1.0 section 3 and RFC 8414 section 2 member by member,
 * where it is (and is not) served, and the CORS answers a SPA on any origin needs.
 */

const api = useLocalStack();
const { aProvider, tokensFor } = oidcApi(api);

const strict = { [oauth.customFetch]: localhostFetch, [oauth.allowInsecureRequests]: true } as const;

async function anIssuer() {
  const tenant = await aTenantWith();
  return { tenant, issuer: issuerOf(api.stack, tenant) };
}

async function documentOf(issuer: string, path = '/.well-known/openid-configuration') {
  const res = await atIssuer(issuer, path);
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
  return res.body as Record<string, any>;
}

describe('discovery through oauth4webapi (strict)', () => {
  it("algorithm 'oidc' (<issuer>/.well-known/openid-configuration) accepts the issuer's document", async () => {
    const { issuer } = await anIssuer();
    const url = new URL(issuer);
    const as = await oauth.processDiscoveryResponse(
      url,
      await oauth.discoveryRequest(url, { ...strict, algorithm: 'oidc' }),
    );
    expect(as.issuer).toBe(issuer);
  });

  it("algorithm 'oauth2' (<issuer>/.well-known/oauth-authorization-server) accepts the same document", async () => {
    const { issuer } = await anIssuer();
    const url = new URL(issuer);
    const as = await oauth.processDiscoveryResponse(
      url,
      await oauth.discoveryRequest(url, { ...strict, algorithm: 'oauth2' }),
    );
    expect(as).toEqual(await documentOf(issuer));
  });

  it("refuses another tenant's document for this issuer (the issuer is checked)", async () => {
    const here = await anIssuer();
    const there = await anIssuer();
    const response = await oauth.discoveryRequest(new URL(there.issuer), { ...strict, algorithm: 'oidc' });
    await expect(oauth.processDiscoveryResponse(new URL(here.issuer), response)).rejects.toThrow();
  });
});

describe('the document, member by member', () => {
  it('OpenID Connect Discovery 1.0 section 3: every REQUIRED member, endpoints under the issuer', async () => {
    const { issuer } = await anIssuer();
    const doc = await documentOf(issuer);
    // issuer: exactly the hosted origin, no path, query or fragment; the URL the document was fetched under.
    expect(doc.issuer).toBe(issuer);
    expect(new URL(doc.issuer).origin).toBe(doc.issuer);
    for (const member of [
      'authorization_endpoint',
      'token_endpoint',
      'userinfo_endpoint',
      'jwks_uri',
      'revocation_endpoint',
      'end_session_endpoint',
    ]) {
      expect(doc[member], member).toEqual(expect.stringMatching(new RegExp(`^${issuer}/api/v1/`)));
      expect(new URL(doc[member]).search, member).toBe('');
      expect(new URL(doc[member]).hash, member).toBe('');
    }
    expect(doc.authorization_endpoint).toBe(`${issuer}/api/v1/oidc/authorize`);
    expect(doc.token_endpoint).toBe(`${issuer}/api/v1/oidc/token`);
    expect(doc.userinfo_endpoint).toBe(`${issuer}/api/v1/oidc/userinfo`);
    expect(doc.response_types_supported).toEqual(['code']);
    expect(doc.subject_types_supported).toEqual(expect.arrayContaining(['public']));
    for (const type of doc.subject_types_supported) expect(['public', 'pairwise']).toContain(type);
    // RS256 MUST be listed (section 3), and "none" never for the code flow's ID tokens.
    expect(doc.id_token_signing_alg_values_supported).toContain('RS256');
    expect(doc.id_token_signing_alg_values_supported).not.toContain('none');
    // RECOMMENDED members, with what a client relies on.
    expect(doc.scopes_supported).toContain('openid');
    expect(doc.claims_supported).toEqual(expect.arrayContaining(['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time']));
    // OPTIONAL members, when present, as section 3 defines them.
    expect(doc.response_modes_supported).toEqual(['query']);
    expect(doc.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(doc.grant_types_supported).not.toContain('implicit');
    expect(doc.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['client_secret_basic', 'client_secret_post', 'none']),
    );
    expect(doc.claims_parameter_supported).toBe(false);
    expect(doc.request_parameter_supported).toBe(false);
    expect(doc.request_uri_parameter_supported).toBe(false);
    // No algorithm list for auth methods it does not offer (private_key_jwt, client_secret_jwt).
    for (const method of doc.token_endpoint_auth_methods_supported) {
      expect(['client_secret_basic', 'client_secret_post', 'none']).toContain(method);
    }
  });

  it('RFC 8414 section 2: PKCE S256 only, revocation and the iss response parameter (RFC 9207)', async () => {
    const { issuer } = await anIssuer();
    const doc = await documentOf(issuer, '/.well-known/oauth-authorization-server');
    expect(doc.issuer).toBe(issuer);
    expect(doc.code_challenge_methods_supported).toEqual(['S256']);
    // The languages the hosted pages speak: an app may ask for one by ui_locales.
    expect(doc.ui_locales_supported).toEqual(['en', 'de']);
    expect(doc.revocation_endpoint).toBe(`${issuer}/api/v1/oidc/revoke`);
    expect(doc.revocation_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['client_secret_basic', 'client_secret_post', 'none']),
    );
    expect(doc.authorization_response_iss_parameter_supported).toBe(true);
    // Every member's value is of the type RFC 8414 gives it.
    for (const [member, value] of Object.entries(doc)) {
      if (member.endsWith('_supported') && !member.endsWith('_parameter_supported')) {
        if (member !== 'authorization_response_iss_parameter_supported') {
          expect(Array.isArray(value), member).toBe(true);
          for (const item of value as unknown[]) expect(typeof item, member).toBe('string');
        }
      }
    }
  });

  it('serves the same document at both well-known paths and the API route, for each tenant its own', async () => {
    const { issuer } = await anIssuer();
    const oidcDoc = await documentOf(issuer);
    expect(await documentOf(issuer, '/.well-known/oauth-authorization-server')).toEqual(oidcDoc);
    expect(await documentOf(issuer, '/api/v1/oidc/openid-configuration')).toEqual(oidcDoc);
    const other = await anIssuer();
    expect((await documentOf(other.issuer)).issuer).toBe(other.issuer);
  });

  it("the jwks_uri answers the keys that signed an RS256 client's tokens (public parts only)", async () => {
    const provider = await aProvider({ idTokenSigningAlg: 'RS256' });
    const tokens = await tokensFor(provider);
    const kid = JSON.parse(
      Buffer.from((tokens.id_token as string).split('.')[0] as string, 'base64url').toString(),
    ).kid;
    const doc = await documentOf(provider.issuer);
    const res = await atIssuer(provider.issuer, new URL(doc.jwks_uri).pathname);
    expect(res.status, res.text).toBe(200);
    const keys = res.body.keys as { alg: string; kid: string; kty: string }[];
    expect(keys.find((k) => k.kid === kid)).toMatchObject({ alg: 'RS256', kty: 'RSA' });
    for (const key of keys) expect(key).not.toHaveProperty('d');
  });
});

describe('where discovery is not served', () => {
  it('the bare API host answers 404 (no issuer to be)', async () => {
    for (const base of [`http://127.0.0.1:${api.stack.port}/api/v1`, api.url]) {
      const res = await fetch(`${base}/oidc/openid-configuration`);
      expect(res.status, base).toBe(404);
      await res.body?.cancel();
    }
  });

  it('a subdomain that is no tenant answers 404', async () => {
    const res = await atIssuer(
      `http://nobody-here-${Date.now()}.localhost:${api.stack.port}`,
      '/.well-known/openid-configuration',
    );
    expect(res.status).toBe(404);
  });

  it('any other /.well-known/ path of the issuer answers 404', async () => {
    const { issuer } = await anIssuer();
    for (const path of ['/.well-known/webfinger', '/.well-known/openid-configuration/extra']) {
      expect((await atIssuer(issuer, path)).status, path).toBe(404);
    }
  });
});

describe('CORS: the protocol endpoints answer any origin', () => {
  const origin = 'https://spa-anywhere.example';

  it('discovery answers Access-Control-Allow-Origin: *', async () => {
    const { issuer } = await anIssuer();
    for (const path of ['/.well-known/openid-configuration', '/api/v1/oidc/openid-configuration']) {
      const res = await atIssuer(issuer, path, { headers: { origin } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
    }
  });

  it('the token endpoint answers Access-Control-Allow-Origin: *, on success and on error', async () => {
    const provider = await aProvider({ type: 'public' });
    const failed = await postForm(
      provider.issuer,
      '/oidc/token',
      {
        grant_type: 'authorization_code',
        code: 'nope',
        redirect_uri: CALLBACK,
        code_verifier: 'x'.repeat(43),
        client_id: provider.clientId,
      },
      { origin },
    );
    expect(failed.status).toBe(400);
    expect(failed.headers.get('access-control-allow-origin')).toBe('*');
    expect(failed.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('userinfo answers Access-Control-Allow-Origin: * for any origin', async () => {
    const provider = await aProvider();
    const tokens = await tokensFor(provider);
    for (const from of [origin, 'http://localhost:5173', 'null']) {
      const res = await atIssuer(provider.issuer, '/api/v1/oidc/userinfo', {
        headers: { origin: from, authorization: `Bearer ${tokens.access_token}` },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('access-control-allow-origin'), from).toBe('*');
    }
    const refused = await atIssuer(provider.issuer, '/api/v1/oidc/userinfo', { headers: { origin } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('the OPTIONS preflight of userinfo allows the Authorization header from any origin', async () => {
    const { issuer } = await anIssuer();
    const res = await atIssuer(issuer, '/api/v1/oidc/userinfo', {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(res.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('the OPTIONS preflight of the token endpoint allows a form POST from any origin', async () => {
    const { issuer } = await anIssuer();
    const res = await atIssuer(issuer, '/api/v1/oidc/token', {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });
});
