import { request } from 'node:http';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
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

/** A GET with an explicit Host (Node's fetch cannot resolve `*.localhost`; Chromium can). */
function get(host: string, path: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((done, reject) => {
    const req = request({ host: '127.0.0.1', port: api.stack.port, path, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        done({
          status: res.statusCode ?? 0,
          headers: res.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
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
