import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
];

let url: string;
const server = createGateway({ routes, basePath: '/api/v1', root: REPO_ROOT });

beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

async function echo(path: string, init?: RequestInit) {
  const res = await fetch(`${url}${path}`, init);
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

  it('answers as API Gateway does for an unknown route, a wrong method and a path outside the base', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/nope'],
      ['DELETE', '/api/v1/things'],
      ['GET', '/users/me'],
    ] as const) {
      const res = await fetch(`${url}${path}`, { method });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'Not Found' });
    }
  });

  it('answers 500 Internal Server Error, as API Gateway does, when the function throws', async () => {
    const res = await fetch(`${url}/api/v1/crash`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: 'Internal Server Error' });
  });
});
