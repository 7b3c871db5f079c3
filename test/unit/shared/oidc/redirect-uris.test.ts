import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { clientShapeProblems } from '#shared/oidc/clients.ts';
import {
  CreateOidcClientRequest,
  matchRedirectUri,
  RedirectUri,
  redirectUriKind,
  sameRedirectUri,
} from '#shared/oidc/schemas.ts';

const problemOf = (uri: string) => {
  const kind = redirectUriKind(uri);
  return typeof kind === 'string' ? null : kind.problem;
};

describe('redirect URIs', () => {
  it.each([
    ['https://shop.example/callback', 'https'],
    ['https://shop.example:8443/cb?x=1', 'https'],
    ['http://localhost:3000/callback', 'loopback'],
    ['http://127.0.0.1:49152/cb', 'loopback'],
    ['http://[::1]:8080/cb', 'loopback'],
    ['com.example.app:/callback', 'private-use'],
    ['com.example.app:/oauth2redirect/example-provider', 'private-use'],
  ])('accepts %s as %s', (uri, kind) => {
    expect(redirectUriKind(uri)).toBe(kind);
    expect(v.safeParse(RedirectUri, uri).success).toBe(true);
  });

  it.each([
    ['/callback', 'absolute'],
    ['shop.example/callback', 'absolute'],
    ['https://shop.example/cb#done', 'fragment'],
    ['https://shop.example/cb#', 'fragment'],
    ['http://shop.example/cb', 'https'],
    ['http://localhost.evil.example/cb', 'https'],
    ['http://127.0.0.2/cb', 'https'],
    ['https://*.shop.example/cb', 'wildcards'],
    ['https://user:pass@shop.example/cb', 'user information'],
    ['myapp:/callback', 'scheme with a dot'],
    ['javascript:alert(1)', 'scheme with a dot'],
    ['data:text/html,hi', 'scheme with a dot'],
    ['ftp://shop.example/cb', 'scheme with a dot'],
    ['https://shop.example/a b', 'spaces'],
  ])('refuses %s (%s)', (uri, reason) => {
    expect(problemOf(uri)).toContain(reason);
    const parsed = v.safeParse(RedirectUri, uri);
    expect(parsed.success).toBe(false);
    expect(parsed.issues?.[0]?.message).toContain(reason);
  });

  it('refuses a URI longer than 2048 characters', () => {
    expect(v.safeParse(RedirectUri, `https://shop.example/${'a'.repeat(2048)}`).success).toBe(false);
  });

  it('takes 1 to 10 redirect URIs, 0 to 10 post-logout URIs, none repeated', () => {
    const body = (redirectUris: string[], postLogoutRedirectUris?: string[]) =>
      v.safeParse(CreateOidcClientRequest, { name: 'Shop', type: 'public', redirectUris, postLogoutRedirectUris })
        .success;
    const uris = (n: number) => Array.from({ length: n }, (_, i) => `https://shop.example/cb${i}`);
    expect(body([])).toBe(false);
    expect(body(uris(1))).toBe(true);
    expect(body(uris(10))).toBe(true);
    expect(body(uris(11))).toBe(false);
    expect(body(['https://a.example/cb', 'https://a.example/cb'])).toBe(false);
    expect(body(uris(1), [])).toBe(true);
    expect(body(uris(1), uris(10))).toBe(true);
    expect(body(uris(1), uris(11))).toBe(false);
    expect(body(uris(1), ['https://a.example/bye#x'])).toBe(false);
  });
});

describe('matchRedirectUri: serialized, loopback IPs on any port', () => {
  const registered = [
    'http://127.0.0.1:8000/cb',
    'http://[::1]/cb',
    'http://localhost:8000/cb',
    'https://shop.example/cb',
  ];

  it('matches 127.0.0.1 and [::1] on any port, answering the port asked', () => {
    expect(matchRedirectUri(registered, 'http://127.0.0.1:53123/cb')).toBe('http://127.0.0.1:53123/cb');
    expect(matchRedirectUri(registered, 'http://[::1]:61000/cb')).toBe('http://[::1]:61000/cb');
  });

  it('never another path, query, scheme or loopback host, and localhost only whole', () => {
    for (const uri of [
      'http://127.0.0.1:53123/cb/x',
      'http://127.0.0.1:53123/cb?x=1',
      'https://127.0.0.1:53123/cb',
      'http://[::1]:61000/other',
      'http://localhost:9000/cb',
      'http://127.0.0.2:8000/cb',
    ]) {
      expect(matchRedirectUri(registered, uri), uri).toBeUndefined();
    }
    expect(matchRedirectUri(registered, 'http://localhost:8000/cb')).toBe('http://localhost:8000/cb');
  });

  it('compares serialized forms and answers the registered text; a fragment or a non-URL matches nothing', () => {
    expect(matchRedirectUri(registered, 'HTTPS://SHOP.example/cb')).toBe('https://shop.example/cb');
    expect(matchRedirectUri(registered, 'https://shop.example/cb#x')).toBeUndefined();
    expect(matchRedirectUri(registered, 'not a url')).toBeUndefined();
    expect(sameRedirectUri('HTTPS://shop.example/cb', 'https://shop.example/cb')).toBe(true);
    expect(sameRedirectUri('https://shop.example/cb/', 'https://shop.example/cb')).toBe(false);
  });
});

describe('the rules between fields', () => {
  const client = (overrides = {}) => ({
    type: 'public' as const,
    grantTypes: ['authorization_code'] as const,
    redirectUris: ['https://shop.example/cb'],
    postLogoutRedirectUris: [],
    ...overrides,
  });

  it('accepts a public native app with a private-use scheme', () => {
    expect(clientShapeProblems(client({ redirectUris: ['com.example.app:/callback'] }))).toEqual([]);
  });

  it('keeps client_credentials for confidential clients', () => {
    expect(clientShapeProblems(client({ grantTypes: ['client_credentials'] }))).toEqual([
      { path: 'grantTypes', message: expect.stringContaining('confidential') },
    ]);
    expect(clientShapeProblems(client({ type: 'confidential', grantTypes: ['client_credentials'] }))).toEqual([]);
  });

  it('asks authorization_code of refresh_token', () => {
    expect(clientShapeProblems(client({ grantTypes: ['refresh_token'] }))).toEqual([
      { path: 'grantTypes', message: 'refresh_token requires authorization_code' },
    ]);
  });

  it('keeps private-use schemes for public clients, naming the URI', () => {
    expect(
      clientShapeProblems(
        client({
          type: 'confidential',
          redirectUris: ['https://shop.example/cb', 'com.example.app:/callback'],
          postLogoutRedirectUris: ['com.example.app:/bye'],
        }),
      ),
    ).toEqual([
      { path: 'redirectUris.1', message: expect.any(String) },
      { path: 'postLogoutRedirectUris.0', message: expect.any(String) },
    ]);
  });
});
