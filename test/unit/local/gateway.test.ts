import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { plantRouteList } from '#functions/plants/routes.ts';
import { BASE_PATH, identityRouteList } from '#functions/routes.ts';
import { createGateway } from '#local/gateway.ts';
import { REPO_ROOT } from '#local/stack.ts';
import type { RouteDef } from '#shared/http/route.ts';

const base: Omit<RouteDef, 'operationId' | 'method' | 'path'> = {
  entry: 'test/support/echo-handler.ts',
  summary: 'echo',
  tag: 'test',
  tenant: 'none',
  auth: 'none',
  status: 200,
  table: [],
};
const routes: RouteDef[] = [
  { ...base, operationId: 'getUser', method: 'GET', path: '/users/{id}' },
  { ...base, operationId: 'getMe', method: 'GET', path: '/users/me' },
  { ...base, operationId: 'postThing', method: 'POST', path: '/things' },
  { ...base, operationId: 'preflight', method: 'OPTIONS', path: '/{proxy+}' },
  { ...base, operationId: 'crash', method: 'GET', path: '/crash', entry: 'test/support/throwing-handler.ts' },
  { ...base, operationId: 'sized', method: 'GET', path: '/sized', entry: 'test/support/sized-handler.ts' },
];

/** The same routes and a `$default` route that echoes its event. */
const withDefault: RouteDef[] = [...routes, { ...base, operationId: 'fallback', method: 'ANY', path: '$default' }];

const servers = {
  plain: createGateway({ routes, basePath: '/api/v1', root: REPO_ROOT }),
  withDefault: createGateway({ routes: withDefault, basePath: '/api/v1', root: REPO_ROOT }),
  identity: createGateway({ routes: identityRouteList, basePath: BASE_PATH, root: REPO_ROOT }),
  plants: createGateway({ routes: plantRouteList, basePath: '', root: REPO_ROOT }),
};
const urls = {} as Record<keyof typeof servers, string>;
let url: string;

beforeAll(async () => {
  // The not-found handlers build their service's deps (no request is made with them).
  vi.stubEnv('TABLE_NAME', 'gateway-test');
  vi.stubEnv('PLANTS_TABLE_NAME', 'gateway-test-plants');
  vi.stubEnv('ISSUER_URL', 'http://localhost:3000/api/v1');
  for (const [name, server] of Object.entries(servers)) {
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    urls[name as keyof typeof servers] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  url = urls.plain;
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await Promise.all(Object.values(servers).map((s) => new Promise<void>((done) => s.close(() => done()))));
});

async function echo(path: string, init?: RequestInit & { base?: string }) {
  const res = await fetch(`${init?.base ?? url}${path}`, init);
  return { res, event: (await res.json()) as APIGatewayProxyEventV2 };
}

describe('local gateway', () => {
  it('builds the API Gateway v2 event: version, routeKey, rawPath, rawQueryString, query parameters', async () => {
    const { event } = await echo('/api/v1/users/usr_1?limit=5&tag=a&tag=b&q=a%20b');
    expect(event.version).toBe('2.0');
    expect(event.routeKey).toBe('GET /api/v1/users/{id}');
    expect(event.rawPath).toBe('/api/v1/users/usr_1');
    expect(event.rawQueryString).toBe('limit=5&tag=a&tag=b&q=a%20b');
    // Repeated parameters are joined with commas, values decoded, as on AWS.
    expect(event.queryStringParameters).toEqual({ limit: '5', tag: 'a,b', q: 'a b' });
    expect(event.pathParameters).toEqual({ id: 'usr_1' });
    expect(event.isBase64Encoded).toBe(false);
    expect(event.body).toBeUndefined();
  });

  it('lower-cases headers, moves cookies to their own field and fills requestContext', async () => {
    const { event, res } = await echo('/api/v1/users/me', {
      headers: { 'X-App-ID': 'app_1', Cookie: 'svc_rt=abc; theme=dark', 'User-Agent': 'Plantly/1.0' },
    });
    expect(event.routeKey).toBe('GET /api/v1/users/me'); // the literal route wins over /users/{id}
    expect(event.headers['x-app-id']).toBe('app_1');
    expect(event.headers.cookie).toBeUndefined();
    expect(event.cookies).toEqual(['svc_rt=abc', 'theme=dark']);
    expect(event.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(event.headers['x-forwarded-proto']).toBe('http');
    expect(event.requestContext.http).toEqual({
      method: 'GET',
      path: '/api/v1/users/me',
      protocol: 'HTTP/1.1',
      sourceIp: '127.0.0.1',
      userAgent: 'Plantly/1.0',
    });
    expect(event.requestContext.stage).toBe('$default');
    expect(event.requestContext.requestId).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(res.headers.get('apigw-requestid')).toBe(event.requestContext.requestId);
    expect(event.queryStringParameters).toBeUndefined();
    expect(event.pathParameters).toBeUndefined();
  });

  it('passes a JSON body as text and a binary body base64-encoded', async () => {
    const text = await echo('/api/v1/things', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Fern"}',
    });
    expect(text.event.body).toBe('{"name":"Fern"}');
    expect(text.event.isBase64Encoded).toBe(false);
    const bytes = Buffer.from([0, 1, 2, 255]);
    const binary = await echo('/api/v1/things', {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(binary.event.isBase64Encoded).toBe(true);
    expect(Buffer.from(binary.event.body ?? '', 'base64')).toEqual(bytes);
  });

  it('matches a greedy {proxy+} path for any depth', async () => {
    const { event } = await echo('/api/v1/a/b/c', { method: 'OPTIONS' });
    expect(event.routeKey).toBe('OPTIONS /api/v1/{proxy+}');
    expect(event.pathParameters).toEqual({ proxy: 'a/b/c' });
  });

  it("sends the handler's status, headers and cookies back", async () => {
    const res = await fetch(`${url}/api/v1/users/me`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-echo')).toBe('yes');
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });

  const unmatched = [
    ['GET', '/api/v1/nope'],
    ['DELETE', '/api/v1/things'],
    ['GET', '/users/me'],
  ] as const;

  it('answers as API Gateway does for an unknown route, a wrong method and a path outside the base, when there is no $default route', async () => {
    for (const [method, path] of unmatched) {
      const res = await fetch(`${url}${path}`, { method });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'Not Found' });
    }
  });

  it('gives what no route matches to the $default route, with the event AWS builds for it', async () => {
    for (const [method, path] of unmatched) {
      const { res, event } = await echo(path, { method, base: urls.withDefault });
      expect(res.status, `${method} ${path}`).toBe(200);
      expect(event.routeKey).toBe('$default');
      expect(event.requestContext.routeKey).toBe('$default');
      expect(event.requestContext.http).toMatchObject({ method, path });
      expect(event.rawPath).toBe(path);
      expect(event.pathParameters).toBeUndefined();
    }
    // A route that matches still wins: the $default route takes only the rest.
    const { event } = await echo('/api/v1/users/usr_1', { base: urls.withDefault });
    expect(event.routeKey).toBe('GET /api/v1/users/{id}');
  });

  it('answers 404 problem+json NOT_FOUND through the identity route list: unknown path, unknown method, outside the base', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/no/such/route'],
      ['PUT', '/api/v1/users/me'],
      ['DELETE', '/api/v1/health'],
      ['POST', '/api/v1/.well-known/jwks.json'],
      ['GET', '/health'],
    ] as const) {
      const res = await fetch(`${urls.identity}${path}`, { method });
      const what = `${method} ${path}`;
      expect(res.status, what).toBe(404);
      expect(res.headers.get('content-type'), what).toBe('application/problem+json');
      // Through the handler pipeline: the base headers of every answer, and the gateway's request id.
      expect(res.headers.get('cache-control'), what).toBe('no-store');
      expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
      expect(res.headers.get('apigw-requestid'), what).toBeTruthy();
      expect(await res.json(), what).toMatchObject({ status: 404, code: 'NOT_FOUND', title: 'Not Found' });
    }
  });

  it("answers 404 in the plant store's own error body through its route list", async () => {
    for (const [method, path] of [
      ['GET', '/no/such/route'],
      ['GET', '/plants'],
      ['DELETE', '/openapi.json'],
    ] as const) {
      const res = await fetch(`${urls.plants}${path}`, { method });
      const what = `${method} ${path}`;
      expect(res.status, what).toBe(404);
      expect(res.headers.get('content-type'), what).toBe('application/json');
      const body = (await res.json()) as { error: unknown; message: unknown };
      expect(Object.keys(body).sort(), what).toEqual(['error', 'message']);
      expect(body.error, what).toBe(404);
      expect(body.message, what).toEqual(expect.any(String));
    }
  });

  it('keeps its own answers over a $default route: 413 over 10 MB', async () => {
    const res = await fetch(`${urls.identity}/api/v1/no/such/route`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(10 * 1024 * 1024 + 1),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: 'Request Entity Too Large' });
  });

  it("answers 500 Internal Server Error, as API Gateway does, when the function's answer passes Lambda's 6 MB", async () => {
    // Lambda counts the whole answer it returns (the JSON of status, headers and body): 6,291,556 bytes at most.
    const fits = await fetch(`${url}/api/v1/sized?bytes=${6 * 1024 * 1024 - 1000}`);
    expect(fits.status).toBe(200);
    expect((await fits.text()).length).toBe(6 * 1024 * 1024 - 1000);
    const over = await fetch(`${url}/api/v1/sized?bytes=${6_291_556}`);
    expect(over.status).toBe(500);
    expect(await over.json()).toEqual({ message: 'Internal Server Error' });
  });

  it('answers 500 Internal Server Error, as API Gateway does, when the function throws', async () => {
    const res = await fetch(`${url}/api/v1/crash`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: 'Internal Server Error' });
  });
});
