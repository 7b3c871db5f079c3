import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import type { Authenticators, Principal } from '#shared/auth/principal.ts';
import { type Deps, makeDeps } from '#shared/deps.ts';
import { fail } from '#shared/errors.ts';
import { httpHandler } from '#shared/http/handler.ts';
import type { RouteDef } from '#shared/http/route.ts';
import { keys } from '#shared/store/keys.ts';
import type { Merchant } from '#shared/tenancy/types.ts';
import { aMerchant } from '#test/support/builders.ts';
import { aContext, anEvent } from '#test/support/events.ts';

const tenant = aMerchant();
const tenantHeaders = { 'x-app-id': tenant.app, 'x-mid-key': tenant.mid };
const json = { 'content-type': 'application/json' };

const Body = v.strictObject({
  name: v.pipe(v.string(), v.minLength(1, 'is required')),
  age: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0, 'must be 0 or more'))),
});

function route(overrides: Partial<RouteDef> = {}): RouteDef {
  return {
    operationId: 'testRoute',
    method: 'POST',
    path: '/test',
    entry: 'functions/test.ts',
    summary: 'test',
    tag: 'test',
    tenant: 'headers',
    auth: 'none',
    status: 200,
    body: Body,
    table: [],
    ...overrides,
  };
}

function testDeps(options: { merchants?: Merchant[] } = {}) {
  const logged: { message: string; fields: Record<string, unknown> }[] = [];
  const base = makeDeps({ TABLE_NAME: 'unit-test' });
  const known = options.merchants ?? [tenant];
  // The tenant stage's read of its tenant (a GetItem, by the merchant repository), answered from `known`.
  const tenantReads = vi.fn(async (command: { input: { Key?: { pk: string; sk: string } } }) => {
    const key = command.input.Key;
    const merchant = known.find((m) => {
      const mine = keys.merchant(m);
      return key?.pk === mine.pk && key.sk === mine.sk;
    });
    return { Item: merchant ? { ...keys.merchant(merchant), ...merchant } : undefined };
  });
  const merchants = { get: tenantReads };
  const deps: Deps = {
    ...base,
    store: { ...base.store, doc: { send: tenantReads } as unknown as Deps['store']['doc'] },
    log: {
      info: () => undefined,
      error: (message, fields = {}) => {
        logged.push({ message, fields });
      },
    },
  };
  return { deps, logged, merchants };
}

async function call(
  r: RouteDef,
  impl: (input: never, deps: Deps) => unknown,
  event = anEvent(),
  deps = testDeps().deps,
  authenticators: Authenticators = { bearer: async () => null, apiKey: async () => null },
) {
  const handler = httpHandler(r, impl as never, { deps: () => deps, authenticators });
  const result = (await handler(event, aContext())) as {
    statusCode: number;
    headers: Record<string, string>;
    body?: string;
  };
  return { ...result, json: result.body ? JSON.parse(result.body) : undefined };
}

const echo = (input: { body: unknown }) => input.body;

describe('httpHandler', () => {
  it('answers with the route status and the JSON the implementation returns', async () => {
    const res = await call(
      route({ status: 201 }),
      echo,
      anEvent({ method: 'POST', headers: { ...tenantHeaders, ...json }, body: '{"name":"Fern","age":3}' }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json).toEqual({ name: 'Fern', age: 3 });
  });

  it("hands the implementation the client's language, from Accept-Language, English without one of ours", async () => {
    const languageOf = async (headers: Record<string, string>) => {
      const res = await call(
        route(),
        (input: { client: { language: string } }) => ({ language: input.client.language }),
        anEvent({ method: 'POST', headers: { ...tenantHeaders, ...json, ...headers }, body: '{"name":"Fern"}' }),
      );
      return res.json.language;
    };
    expect(await languageOf({ 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' })).toBe('de');
    expect(await languageOf({ 'Accept-Language': 'de-AT' })).toBe('de');
    expect(await languageOf({ 'accept-language': 'en-GB,en;q=0.9' })).toBe('en');
    expect(await languageOf({ 'accept-language': 'fr-FR' })).toBe('en');
    expect(await languageOf({})).toBe('en');
  });

  it('answers 204 with no body for a no-content route', async () => {
    const res = await call(
      route({ status: 204, body: undefined }),
      () => undefined,
      anEvent({ headers: tenantHeaders }),
    );
    expect(res.statusCode).toBe(204);
    expect(res.body).toBeUndefined();
  });

  it('returns 413 PAYLOAD_TOO_LARGE for a body over 16 KiB, before anything else', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(16 * 1024) });
    const res = await call(route(), echo, anEvent({ headers: { 'content-type': 'text/plain' }, body }));
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.json).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE', title: 'Payload Too Large' });
  });

  describe('with EDGE_ONLY (a web ACL on CloudFront, which a caller of the API domain would go around)', () => {
    const SECRET = 'edge-secret-0123456789abcdef';
    const edgeOnly = () => {
      const { deps } = testDeps();
      return { ...deps, config: makeDeps({ TABLE_NAME: 'unit-test', EDGE_SECRET: SECRET, EDGE_ONLY: 'true' }).config };
    };
    const named = anEvent({ method: 'POST', headers: { ...tenantHeaders, ...json }, body: '{"name":"Fern"}' });
    const withHeaders = (headers: Record<string, string>) => ({ ...named, headers: { ...named.headers, ...headers } });

    it('refuses a request that did not come through CloudFront, before the tenant is looked up', async () => {
      const impl = vi.fn(echo);
      const deps = edgeOnly();
      for (const event of [named, withHeaders({ 'x-identity-edge-secret': 'guess-0123456789abcdef' })]) {
        const res = await call(route(), impl, event, deps);
        expect(res.statusCode).toBe(403);
        expect(res.json).toMatchObject({ code: 'FORBIDDEN', detail: expect.stringContaining('/api/v1') });
      }
      expect(impl).not.toHaveBeenCalled();
      expect(deps.store.doc.send).not.toHaveBeenCalled();
    });

    it('answers a request that carries the edge secret as always', async () => {
      const res = await call(route(), echo, withHeaders({ 'x-identity-edge-secret': SECRET }), edgeOnly());
      expect(res.statusCode).toBe(200);
      expect(res.json).toEqual({ name: 'Fern' });
    });

    it('still answers the issuer’s metadata and keys, which resource servers read at the API’s own URL', async () => {
      const res = await call(route({ servedAtIssuer: true }), echo, named, edgeOnly());
      expect(res.statusCode).toBe(200);
      const refused = await call(route(), echo, named, edgeOnly());
      expect(refused.statusCode).toBe(403);
    });

    it('is off without the setting: a direct caller is answered', async () => {
      const { deps } = testDeps();
      const res = await call(route(), echo, named, {
        ...deps,
        config: makeDeps({ TABLE_NAME: 'unit-test', EDGE_SECRET: SECRET }).config,
      });
      expect(res.statusCode).toBe(200);
    });

    it('cannot be set without an edge secret to tell CloudFront by', () => {
      expect(() => makeDeps({ TABLE_NAME: 'unit-test', EDGE_ONLY: 'true' })).toThrow(/EDGE_ONLY needs EDGE_SECRET/);
    });
  });

  it('accepts a body of exactly 16 KiB', async () => {
    const filler = 'x'.repeat(16 * 1024 - '{"name":""}'.length);
    const res = await call(
      route(),
      echo,
      anEvent({ headers: { ...tenantHeaders, ...json }, body: `{"name":"${filler}"}` }),
    );
    expect(res.statusCode).toBe(200);
  });

  it('counts bytes, not characters, against the limit (multi-byte UTF-8)', async () => {
    const body = JSON.stringify({ name: 'é'.repeat(9000) }); // 9,000 characters, 18,000 bytes
    const res = await call(route(), echo, anEvent({ headers: { ...tenantHeaders, ...json }, body }));
    expect(res.statusCode).toBe(413);
  });

  it('returns 415 UNSUPPORTED_MEDIA_TYPE for a body that is not JSON', async () => {
    const res = await call(
      route(),
      echo,
      anEvent({ headers: { ...tenantHeaders, 'content-type': 'text/plain' }, body: 'name=x' }),
    );
    expect(res.statusCode).toBe(415);
    expect(res.json.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('accepts application/json with a charset and +json media types', async () => {
    for (const contentType of ['application/json; charset=utf-8', 'application/merge-patch+json']) {
      const res = await call(
        route(),
        echo,
        anEvent({ headers: { ...tenantHeaders, 'content-type': contentType }, body: '{"name":"a"}' }),
      );
      expect(res.statusCode).toBe(200);
    }
  });

  it('returns 400 MALFORMED_JSON for broken JSON and for bytes that are not UTF-8', async () => {
    const broken = await call(route(), echo, anEvent({ headers: { ...tenantHeaders, ...json }, body: '{"name":' }));
    expect(broken.statusCode).toBe(400);
    expect(broken.json.code).toBe('MALFORMED_JSON');
    const notUtf8 = Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]).toString('base64');
    const bad = await call(
      route(),
      echo,
      anEvent({ headers: { ...tenantHeaders, ...json }, body: notUtf8, isBase64Encoded: true }),
    );
    expect(bad.json.code).toBe('MALFORMED_JSON');
  });

  it('decodes a base64-encoded JSON body', async () => {
    const body = Buffer.from('{"name":"Ivy"}').toString('base64');
    const res = await call(
      route(),
      echo,
      anEvent({ headers: { ...tenantHeaders, ...json }, body, isBase64Encoded: true }),
    );
    expect(res.json).toEqual({ name: 'Ivy' });
  });

  it('returns 400 TENANT_REQUIRED when either tenant header is missing', async () => {
    for (const headers of [{}, { 'x-app-id': tenant.app }, { 'x-mid-key': tenant.mid }] as Record<string, string>[]) {
      const res = await call(route({ body: undefined }), () => ({}), anEvent({ headers }));
      expect(res.statusCode).toBe(400);
      expect(res.json.code).toBe('TENANT_REQUIRED');
    }
  });

  it('returns 404 TENANT_NOT_FOUND for an unknown pair, or one no tenant could have, without a lookup', async () => {
    const { deps, merchants } = testDeps();
    const unknown = await call(
      route({ body: undefined }),
      () => ({}),
      anEvent({ headers: { 'x-app-id': tenant.app, 'x-mid-key': 'mid_other' } }),
      deps,
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json.code).toBe('TENANT_NOT_FOUND');
    merchants.get.mockClear();
    const hostile = await call(
      route({ body: undefined }),
      () => ({}),
      anEvent({ headers: { 'x-app-id': 'a#b', 'x-mid-key': 'T#x' } }),
      deps,
    );
    expect(hostile.json.code).toBe('TENANT_NOT_FOUND');
    expect(merchants.get).not.toHaveBeenCalled();
  });

  it('checks the tenant before validating the body', async () => {
    const res = await call(route(), echo, anEvent({ headers: json, body: '{"bogus":1}' }));
    expect(res.json.code).toBe('TENANT_REQUIRED');
  });

  it("returns 403 ORIGIN_NOT_ALLOWED for a browser origin outside the tenant's allowlist, and no CORS header", async () => {
    const res = await call(
      route({ body: undefined }),
      () => ({}),
      anEvent({ headers: { ...tenantHeaders, origin: 'https://evil.example' } }),
    );
    expect(res.statusCode).toBe(403);
    expect(res.json.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('echoes an allowed origin in CORS headers, on success and on errors alike', async () => {
    const headers = { ...tenantHeaders, ...json, origin: 'https://shop.example' };
    const ok = await call(route(), echo, anEvent({ headers, body: '{"name":"a"}' }));
    expect(ok.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(ok.headers.vary).toBe('Origin');
    const bad = await call(route(), echo, anEvent({ headers, body: '{}' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['access-control-allow-origin']).toBe('https://shop.example');
  });

  it('lets requests without Origin (servers, CLIs) through: the Origin check is a browser defence', async () => {
    const res = await call(route({ body: undefined }), () => ({ ok: true }), anEvent({ headers: tenantHeaders }));
    expect(res.statusCode).toBe(200);
  });

  it('returns 400 VALIDATION_FAILED naming every bad field', async () => {
    const res = await call(
      route(),
      echo,
      anEvent({ headers: { ...tenantHeaders, ...json }, body: '{"name":"","age":-1.5}' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json.code).toBe('VALIDATION_FAILED');
    const paths = res.json.errors.map((e: { path: string }) => e.path);
    expect(paths).toContain('name');
    expect(paths).toContain('age');
    expect(res.json.detail).toContain('name: is required');
  });

  it('rejects unknown keys, __proto__ included, naming the key', async () => {
    for (const key of ['role', '__proto__', 'constructor']) {
      const res = await call(
        route(),
        echo,
        anEvent({ headers: { ...tenantHeaders, ...json }, body: `{"name":"a","${key}":{"admin":true}}` }),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json.errors).toContainEqual({ path: key, message: 'is not a known field' });
    }
  });

  it('rejects a JSON body that is not an object, and a missing body, with VALIDATION_FAILED', async () => {
    for (const body of ['[1,2]', '"text"', 'null', '42', undefined]) {
      const res = await call(route(), echo, anEvent({ headers: { ...tenantHeaders, ...json }, body }));
      expect(res.statusCode).toBe(400);
      expect(res.json.code).toBe('VALIDATION_FAILED');
      expect(res.json.errors[0].path).toBe('body');
    }
  });

  it('validates query and path parameters with the route schemas', async () => {
    const r = route({
      method: 'GET',
      body: undefined,
      query: v.object({ limit: v.pipe(v.string(), v.regex(/^\d+$/, 'must be a number')) }),
      params: v.object({ id: v.pipe(v.string(), v.startsWith('usr_', 'must be a user id')) }),
    });
    const res = await call(
      r,
      () => ({}),
      anEvent({ headers: tenantHeaders, query: { limit: 'ten' }, pathParameters: { id: 'x' } }),
    );
    expect(res.json.errors).toEqual([
      { path: 'limit', message: 'must be a number' },
      { path: 'id', message: 'must be a user id' },
    ]);
  });

  it('passes an AppError thrown by the implementation through with its code and headers', async () => {
    const res = await call(
      route({ body: undefined }),
      () => {
        throw fail('TOO_MANY_ATTEMPTS', { headers: { 'retry-after': '900' } });
      },
      anEvent({ headers: tenantHeaders }),
    );
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('900');
    expect(res.json.code).toBe('TOO_MANY_ATTEMPTS');
  });

  it.each([
    ['RATE_LIMITED', 429, '60'],
    ['UNAVAILABLE', 503, '1'],
  ] as const)(
    'gives a %s thrown without Retry-After a default one (every 429 and 503 says when to retry)',
    async (code, status, seconds) => {
      const res = await call(
        route({ body: undefined }),
        () => {
          throw fail(code);
        },
        anEvent({ headers: tenantHeaders }),
      );
      expect(res.statusCode).toBe(status);
      expect(res.headers['retry-after']).toBe(seconds);
    },
  );

  it('turns an unexpected error into 500 INTERNAL, leaking nothing, and logs the cause with the request id', async () => {
    const { deps, logged } = testDeps();
    const event = anEvent({ headers: tenantHeaders });
    const res = await call(
      route({ body: undefined }),
      () => {
        throw new Error('table identity-prod: secret internals');
      },
      event,
      deps,
    );
    expect(res.statusCode).toBe(500);
    expect(res.json).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500, code: 'INTERNAL' });
    expect(res.body).not.toContain('secret internals');
    expect(logged).toHaveLength(1);
    expect(logged[0]?.fields).toMatchObject({
      requestId: event.requestContext.requestId,
      operationId: 'testRoute',
      errorMessage: 'table identity-prod: secret internals',
    });
  });

  it('answers 503 UNAVAILABLE with Retry-After when DynamoDB throttles', async () => {
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    const res = await call(
      route({ body: undefined }),
      () => {
        throw throttled;
      },
      anEvent({ headers: tenantHeaders }),
    );
    expect(res.statusCode).toBe(503);
    expect(res.json.code).toBe('UNAVAILABLE');
    expect(res.headers['retry-after']).toBe('1');
  });
});

describe('httpHandler authentication stage', () => {
  const user: Principal = { kind: 'user', userId: 'usr_1', sessionId: 'ses_1', roles: ['DEFAULT'], authority: 99 };
  const admin: Principal = { kind: 'user', userId: 'usr_2', sessionId: 'ses_2', roles: ['ADMIN'], authority: 1 };
  const key: Principal = { kind: 'apiKey', keyId: 'key_1', authority: 1 };
  const authenticators: Authenticators = {
    bearer: async (token) => ({ 'user-token': user, 'admin-token': admin })[token] ?? null,
    apiKey: async (k) => (k === 'good-key' ? key : null),
  };
  const whoAmI = (input: { auth: Principal }) => input.auth;
  const send = (r: RouteDef, headers: Record<string, string>) =>
    call(r, whoAmI, anEvent({ headers: { ...tenantHeaders, ...headers } }), testDeps().deps, authenticators);

  it('returns 401 UNAUTHENTICATED with WWW-Authenticate when no credential is sent', async () => {
    const res = await send(route({ body: undefined, auth: 'bearer' }), {});
    expect(res.statusCode).toBe(401);
    expect(res.json.code).toBe('UNAUTHENTICATED');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('returns 401 for a malformed or unknown bearer', async () => {
    for (const authorization of ['Basic abc', 'Bearer', 'Bearer not-known']) {
      const res = await send(route({ body: undefined, auth: 'bearer' }), { authorization });
      expect(res.statusCode).toBe(401);
    }
  });

  it('hands the principal of a good bearer to the implementation', async () => {
    const res = await send(route({ body: undefined, auth: 'bearer' }), { authorization: 'Bearer user-token' });
    expect(res.json).toEqual(user);
  });

  it('never accepts an API key on a bearer-only route', async () => {
    const res = await send(route({ body: undefined, auth: 'bearer' }), { 'x-api-key': 'good-key' });
    expect(res.statusCode).toBe(401);
  });

  it('returns 403 FORBIDDEN to a plain user on an admin route, and lets admins and API keys in', async () => {
    const r = route({ body: undefined, auth: 'admin' });
    expect((await send(r, { authorization: 'Bearer user-token' })).statusCode).toBe(403);
    expect((await send(r, { authorization: 'Bearer admin-token' })).json).toEqual(admin);
    expect((await send(r, { 'x-api-key': 'good-key' })).json).toEqual(key);
    expect((await send(r, { 'x-api-key': 'bad-key' })).statusCode).toBe(401);
  });

  it('refuses to build a protected route without authenticators (it could only ever answer 401)', () => {
    expect(() => httpHandler(route({ auth: 'bearer' }), () => ({}))).toThrow(/pass authenticators/);
  });

  it('checks tenant headers before the bearer', async () => {
    const res = await call(
      route({ body: undefined, auth: 'bearer' }),
      whoAmI,
      anEvent({ headers: { authorization: 'Bearer user-token' } }),
      testDeps().deps,
      authenticators,
    );
    expect(res.json.code).toBe('TENANT_REQUIRED');
  });
});

describe('httpHandler with a broken environment', () => {
  it('answers 500 INTERNAL problem+json, not a crash, when the deps cannot be built', async () => {
    const handler = httpHandler(route({ body: undefined }), () => ({}), {
      deps: () => makeDeps({}), // no TABLE_NAME
    });
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const res = (await handler(anEvent({ headers: tenantHeaders }), aContext())) as {
        statusCode: number;
        body: string;
      };
      expect(res.statusCode).toBe(500);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'INTERNAL' });
      expect(String(stderr.mock.calls[0]?.[0])).toContain('invalid environment: TABLE_NAME');
    } finally {
      stderr.mockRestore();
    }
  });
});
