import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localEdge } from '#local/web-server.ts';
import { aTenant, useLocalStack } from '#test/support/server.ts';
import { CACHE_CONTROL, WEB_SECURITY_HEADERS } from '../../../web/security-headers.ts';

/**
 * `npm start`'s edge: a tenant's host serves the built pages with the headers CloudFront's response headers
 * policy sends (test/infra/web-stack.test.ts holds that policy to the same WEB_SECURITY_HEADERS), and `/api/*`
 * beside them; the plain `localhost` host stays the API's own URL.
 */
// A fixture build: the real one is the web project's (test/web/), which builds it while these tests run.
const FIXTURE_DIST = resolve(import.meta.dirname, '../../infra/fixtures/web-dist');
const api = useLocalStack({ webDist: FIXTURE_DIST });

/** A request with an explicit Host (Node's fetch cannot resolve `*.localhost`; Chromium can), to the stack's port. */
function get(
  host: string,
  path: string,
  options: { port?: number; method?: string } = {},
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((done, reject) => {
    const req = request(
      { host: '127.0.0.1', port: options.port ?? api.stack.port, path, method: options.method, headers: { host } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          done({
            status: res.statusCode ?? 0,
            headers: res.headers as Record<string, string>,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const pagesHost = () => `shop.localhost:${api.stack.port}`;

describe('the local edge', () => {
  it.each(['/sign-in', '/account', '/console/users/usr_1', '/'])(
    'serves the app for %s with every security header, revalidated on each load',
    async (path) => {
      const res = await get(pagesHost(), path);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('<div id="app"></div>');
      for (const [name, value] of Object.entries(WEB_SECURITY_HEADERS)) expect(res.headers[name], name).toBe(value);
      expect(res.headers['cache-control']).toBe(CACHE_CONTROL.html);
    },
  );

  it('serves hashed assets as immutable', async () => {
    const asset = await get(pagesHost(), '/assets/index-abc.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toBe(CACHE_CONTROL.asset);
    for (const [name, value] of Object.entries(WEB_SECURITY_HEADERS)) expect(asset.headers[name], name).toBe(value);
  });

  it('answers 404 for a missing file and for a path out of the build folder', async () => {
    expect((await get(pagesHost(), '/assets/nothing-here.js')).status).toBe(404);
    expect((await get(pagesHost(), '/%2e%2e/package.json')).status).toBe(404);
    expect((await get(pagesHost(), '/..%2f..%2fpackage.json')).status).toBe(404);
  });

  it('sends /api/* on a tenant host to the API, same-origin with the pages', async () => {
    const tenant = await aTenant();
    const res = await get(`${tenant.subdomain}.localhost:${api.stack.port}`, '/api/v1/health');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
  });

  it('keeps the plain localhost host for the API alone, as the API Gateway URL is on AWS', async () => {
    const res = await get(`localhost:${api.stack.port}`, '/sign-in');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/problem+json');
  });
});

/**
 * A tenant's host is its OpenID Provider's issuer (shared/oidc/README.md): the discovery document answers at its
 * root, as CloudFront's viewer-request function (infra/web-stack.ts) rewrites `/.well-known/*`.
 */
describe('the local edge: the issuer’s discovery paths', () => {
  /** The edge in front of a stand-in API that tells what it was sent. */
  let echo: Server;
  const seen: { method?: string; url?: string; host?: string }[] = [];
  const echoPort = () => (echo.address() as AddressInfo).port;
  beforeAll(async () => {
    echo = createServer(
      localEdge({
        distDir: FIXTURE_DIST,
        api: (req, res) => {
          seen.push({ method: req.method, url: req.url, host: req.headers.host });
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ url: req.url, host: req.headers.host }));
        },
      }),
    );
    await new Promise<void>((done) => echo.listen(0, '127.0.0.1', done));
  });
  afterAll(async () => {
    echo.closeAllConnections();
    await new Promise((done) => echo.close(done));
  });
  const echoHost = () => `shop.localhost:${echoPort()}`;

  it.each(['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server'])(
    'sends %s to the API’s discovery route, keeping the query string and the browser’s Host',
    async (path) => {
      const res = await get(echoHost(), `${path}?foo=bar&x=%2F`, { port: echoPort() });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({
        url: '/api/v1/oidc/openid-configuration?foo=bar&x=%2F',
        host: echoHost(),
      });
      const plain = await get(echoHost(), path, { port: echoPort() });
      expect(JSON.parse(plain.body).url).toBe('/api/v1/oidc/openid-configuration');
    },
  );

  it.each([
    '/.well-known/jwks.json',
    '/.well-known/security.txt',
    '/.well-known/openid-configuration/',
    '/.well-known/OPENID-CONFIGURATION',
    '/.well-known/',
  ])('answers 404 for %s, as CloudFront’s function does, without asking the API', async (path) => {
    const before = seen.length;
    const res = await get(echoHost(), path, { port: echoPort() });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    for (const [name, value] of Object.entries(WEB_SECURITY_HEADERS)) expect(res.headers[name], name).toBe(value);
    expect(seen.length).toBe(before);
  });

  it('answers 403 for a method CloudFront’s behaviour does not allow (GET, HEAD, OPTIONS)', async () => {
    const before = seen.length;
    expect(
      (await get(echoHost(), '/.well-known/openid-configuration', { port: echoPort(), method: 'POST' })).status,
    ).toBe(403);
    expect(seen.length).toBe(before);
    const preflight = await get(echoHost(), '/.well-known/openid-configuration', {
      port: echoPort(),
      method: 'OPTIONS',
    });
    expect(JSON.parse(preflight.body).url).toBe('/api/v1/oidc/openid-configuration');
  });

  it('leaves the API’s own paths, and every path of the plain localhost host, as they are', async () => {
    const jwks = await get(echoHost(), '/api/v1/.well-known/jwks.json', { port: echoPort() });
    expect(JSON.parse(jwks.body).url).toBe('/api/v1/.well-known/jwks.json');
    const bare = await get(`localhost:${echoPort()}`, '/.well-known/openid-configuration', { port: echoPort() });
    expect(JSON.parse(bare.body).url).toBe('/.well-known/openid-configuration');
  });

  it('reaches the API gateway of the local stack (an API answer, never the pages)', async () => {
    const tenant = await aTenant();
    const host = `${tenant.subdomain}.localhost:${api.stack.port}`;
    for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
      const res = await get(host, path);
      expect(res.headers['content-type'], path).toMatch(/^application\/(problem\+)?json/);
      expect(res.body, path).not.toContain('<div id="app"></div>');
    }
    const other = await get(host, '/.well-known/jwks.json');
    expect(other.status).toBe(404);
    expect(other.headers['content-type']).toBe('text/plain; charset=utf-8');
  });
});
