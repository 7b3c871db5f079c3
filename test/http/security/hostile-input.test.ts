import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, identityRouteList } from '#functions/routes.ts';
import { ERRORS } from '#shared/errors.ts';
import { isDefaultRoute, type RouteDef } from '#shared/http/route.ts';
import { type AdminTenant, adminApi } from '#test/support/admin.ts';
import { issuerOf, localhostFetch } from '#test/support/oidc.ts';
import { useLocalStack } from '#test/support/server.ts';

/**
 * Hostile input, generated from THE route list: every route
 * that takes a body gets random and adversarial bodies (wrong types, strings
 * near and over 16 KiB, deep nesting, `__proto__`/`constructor` keys, invalid
 * UTF-8, control characters, lone surrogates, numbers beyond 2^53, arrays),
 * and every route random query strings and hostile header values. Always with
 * valid tenant headers and, where the route needs one, the SUPER_ADMIN's
 * bearer, so that the body reaches validation.
 *
 * The rules: never a 5xx; every error is application/problem+json with a code
 * of the catalogue (and its status) and no stack trace or internal names; and
 * an error stores nothing (what the tenant's admin can read is unchanged).
 */

const api = useLocalStack();
const { call } = adminApi(() => api.url);

/** Runs per route and kind: bodies get more (they reach validation), queries and headers fewer. */
const BODY_RUNS = Number(process.env.HOSTILE_RUNS ?? 30);
const OTHER_RUNS = Math.ceil(BODY_RUNS / 3);
const MAX_BODY = 16 * 1024;

let owner: AdminTenant;

beforeAll(async () => {
  owner = await adminApi(() => api.url).aSuperAdmin();
});

// ---------------------------------------------------------------- requests

interface Sent {
  status: number;
  contentType: string | null;
  text: string;
}

/**
 * Sends a request whose body is raw bytes or text, as given; never parses the answer. An OpenID Provider
 * route (`tenant: 'issuer'`) goes to the owner's issuer, its hosted origin, where its requests reach validation.
 */
async function send(
  route: RouteDef,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string | Buffer,
) {
  const base = route.tenant === 'issuer' ? `${issuerOf(api.stack, owner.tenant)}${BASE_PATH}` : api.url;
  const res = await localhostFetch(`${base}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : new Uint8Array(body) }),
  });
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() } as Sent;
}

/** The `$default` route (notFound) takes what no other route matches: a known path with a method it does not have. */
const UNMATCHED = { method: 'PUT', path: '/users/me' };

const methodOf = (route: RouteDef) => (isDefaultRoute(route) ? UNMATCHED.method : route.method);

/** The path of a route with its parameters filled with ids of the owner's tenant. */
function pathOf(route: RouteDef): string {
  if (isDefaultRoute(route)) return UNMATCHED.path;
  return route.path
    .replace('{proxy+}', 'users/me')
    .replace('{id}', route.path.startsWith('/merchants/') ? owner.tenant.id : owner.userId)
    .replace('{keyId}', 'key_00000000000000000000')
    .replace('{sessionId}', 'ses_00000000000000000000')
    .replace('{clientId}', 'cli_00000000000000000000')
    .replace('{requestId}', `oar_${'0'.repeat(32)}`)
    .replace('{logoutId}', `olr_${'0'.repeat(32)}`);
}

/** The headers under which a route's body is validated: the tenant, and the SUPER_ADMIN's bearer if it needs one. */
function validHeaders(route: RouteDef): Record<string, string> {
  return route.auth === 'none' ? { ...owner.tenant.headers } : { ...owner.headers };
}

// ---------------------------------------------------------------- the rules

/** Text that only a stack trace, a source path or an internal name would put in an answer. */
const LEAKS = [
  /\n\s*at /,
  /\bat [\w$.<>[\] ]+ \(/,
  /[\w/-]+\.ts(:\d+)?\b/,
  /\b\w*Error:/,
  /dynamodb/i,
  /\bnode_modules\b/,
  /ConditionalCheckFailed|ValidationException|ResourceNotFound|TransactionCanceled/,
];

/** The OAuth error names the OpenID Provider's protocol endpoints answer (shared/http/oauth-error.ts). */
const OAUTH_ERRORS = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_token',
  'temporarily_unavailable',
];

/** The code an error answer names: a problem's `code`, or `oauth:<error>` for OAuth's body. */
const codeOf = (route: RouteDef, res: Sent) => {
  const body = JSON.parse(res.text) as { code?: string; error?: string };
  return route.oauth ? `oauth:${body.error}` : (body.code as string);
};

/**
 * Never a 5xx; an error is a catalogued problem with no stack trace or internal name (an OAuth protocol
 * endpoint's: OAuth's `{ error, error_description }` with a known error name).
 */
function expectSafeAnswer(route: RouteDef, res: Sent, what: string) {
  const context = `${what}\n→ ${res.status} ${res.contentType} ${res.text.slice(0, 500)}`;
  expect(res.status, context).toBeLessThan(500);
  if (res.status < 400) return;
  if (route.oauth) {
    expect(res.contentType, context).toBe('application/json; charset=utf-8');
    const body = JSON.parse(res.text) as Record<string, unknown>;
    expect(OAUTH_ERRORS, context).toContain(body.error);
    expect(
      Object.keys(body).filter((key) => key !== 'error' && key !== 'error_description'),
      context,
    ).toEqual([]);
    for (const leak of LEAKS) expect(res.text, context).not.toMatch(leak);
    return;
  }
  // A 431/400 of Node's HTTP parser would be plain text: none of our requests should reach it.
  expect(res.contentType, context).toBe('application/problem+json');
  const problem = JSON.parse(res.text) as { code?: string; status?: number };
  expect(Object.keys(ERRORS), context).toContain(problem.code);
  expect(ERRORS[problem.code as keyof typeof ERRORS], context).toBe(res.status);
  for (const leak of LEAKS) expect(res.text, context).not.toMatch(leak);
}

/** What the tenant's SUPER_ADMIN can read: a change stored by an erroring request would show here. */
async function snapshot() {
  const paths = ['/users/me', '/users', '/roles', '/merchants/me', `/merchants/${owner.tenant.id}/api-keys`];
  const answers = await Promise.all(paths.map((path) => call('GET', path, owner.headers)));
  return answers.map((res, i) => ({ path: paths[i], status: res.status, body: res.body }));
}

/**
 * Runs a property over one route's requests: each answer must be safe, and the
 * store must be unchanged at the end unless a request was accepted (a random
 * input may happen to be valid: then what it stored becomes the new baseline).
 */
async function checkRoute<T>(
  route: RouteDef,
  arbitrary: fc.Arbitrary<T>,
  request: (value: T) => { method?: string; path?: string; headers: Record<string, string>; body?: string | Buffer },
  numRuns: number,
): Promise<Set<string>> {
  const codes = new Set<string>();
  let baseline = await snapshot();
  await fc.assert(
    fc.asyncProperty(arbitrary, async (value) => {
      const { method = methodOf(route), path = pathOf(route), headers, body } = request(value);
      const res = await send(route, method, path, headers, body);
      const shown = typeof body === 'string' ? body.slice(0, 300) : body ? `<${body.length} bytes>` : '';
      expectSafeAnswer(route, res, `${method} ${path} ${JSON.stringify(headers).slice(0, 300)} ${shown}`);
      if (res.status >= 400) codes.add(codeOf(route, res));
      else if (route.method !== 'GET') baseline = await snapshot();
    }),
    { numRuns, endOnFailure: true },
  );
  expect(await snapshot()).toEqual(baseline);
  return codes;
}

// ---------------------------------------------------------------- hostile values

/** The field names of a body schema (an object schema, possibly piped), so that wrong types reach them. */
function fieldsOf(route: RouteDef): string[] {
  const schema = route.body as { entries?: Record<string, unknown>; options?: { entries?: object }[] } | undefined;
  if (schema?.entries) return Object.keys(schema.entries);
  if (schema?.options) return [...new Set(schema.options.flatMap((o) => Object.keys(o.entries ?? {})))];
  return [];
}

const deep = (depth: number, open: string, close: string, inner = '1') =>
  `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

/** Strings no field should choke on. */
const hostileString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\u0000admin@shop.test',
    'a\r\nX-Injected: 1',
    '\u202e\u2028\u2029',
    '\ud800',
    '\udfff\ud800',
    '😀'.repeat(10),
    '<script>alert(1)</script>',
    "' OR '1'='1",
    // A Log4Shell-style lookup, as plain text.
    ['$', '{jndi:ldap://x}'].join(''),
    '../../../../etc/passwd',
    '%00%ff',
    'admin@shop.test\u0000',
    'A'.repeat(1024),
    'é'.repeat(MAX_BODY / 2 - 40),
  ),
);

/** JSON number texts beyond what a double holds exactly, or holds at all. */
const hostileNumberText = fc.constantFrom(
  '9007199254740993',
  '-9007199254740993',
  '1e400',
  '-1e400',
  '1e-400',
  '-0',
  '123456789012345678901234567890',
  '0.1e1',
  '1.0000000000000002',
);

/** A JSON value of the wrong shape for any field. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

/** A body for a route with these fields: its text or bytes, and what it is (for the failure message). */
function hostileBody(fields: string[]): fc.Arbitrary<string | Buffer> {
  const name = fields.length ? fc.constantFrom(...fields) : fc.constant('x');
  const json = (value: unknown) => JSON.stringify(value);
  return fc.oneof(
    // Anything JSON: primitives, arrays, objects with random keys.
    fc.jsonValue({ maxDepth: 3 }).map(json),
    // The route's fields with wrong types, and an unknown field now and then.
    fc
      .record({
        known: fc.dictionary(name, wrongValue, { minKeys: 1, maxKeys: Math.max(1, fields.length) }),
        extra: fc.option(fc.dictionary(fc.string({ maxLength: 12 }), wrongValue, { maxKeys: 2 })),
      })
      .map(({ known, extra }) => json({ ...known, ...(extra ?? {}) })),
    // An array (of the right object) instead of an object.
    name.map((field) => json([{ [field]: 'x' }])),
    // A number beyond 2^53, or beyond a double, in a field (as JSON text: JSON.stringify would round it).
    fc.tuple(name, hostileNumberText).map(([field, number]) => `{"${field}":${number}}`),
    // Prototype pollution: keys JSON.parse makes own properties.
    fc
      .tuple(name, fc.constantFrom('__proto__', 'constructor', 'prototype'))
      .map(
        ([field, key]) =>
          `{"${key}":{"${field}":"x","isAdmin":true,"prototype":{"polluted":1}},"${field}":{"__proto__":{"x":1}}}`,
      ),
    // Deep nesting, at the top and in a field.
    fc
      .tuple(name, fc.integer({ min: 100, max: 7000 }), fc.boolean())
      .map(([field, depth, top]) =>
        top ? deep(depth, '[', ']') : `{"${field}":${deep(Math.min(depth, 3000), '{"a":', '}')}}`,
      ),
    // Strings near and over the 16 KiB body limit.
    fc
      .tuple(name, fc.integer({ min: -64, max: 64 }))
      .map(([field, delta]) => json({ [field]: 'a'.repeat(MAX_BODY - field.length - 8 + delta) })),
    // Invalid UTF-8 inside a string of the body (sent as bytes with a JSON content type).
    fc
      .tuple(
        name,
        fc.constantFrom([0xff, 0xfe], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80], [0x80]),
      )
      .map(([field, bytes]) => Buffer.concat([Buffer.from(`{"${field}":"a`), Buffer.from(bytes), Buffer.from('b"}')])),
    // Control characters and lone surrogates, escaped and raw.
    fc
      .tuple(name, fc.constantFrom('\\u0000', '\\ud800', '\\udc00x', '\u0001\u001f', '\\u2028\\u2029', '\\b\\f'))
      .map(([field, text]) => `{"${field}":"${text}"}`),
    // Not JSON at all.
    fc.constantFrom('{', '{"a":}', "{'a':1}", 'NaN', '{"a":1,}', '\ufeff{}', '[1,2', 'null'),
  );
}

/** A form body (OAuth's token and revocation endpoints) for these fields: hostile values, repeats, bad encoding. */
function hostileForm(fields: string[]): fc.Arbitrary<string | Buffer> {
  const name = fields.length ? fc.constantFrom(...fields) : fc.constant('x');
  return fc.oneof(
    fc
      .dictionary(fc.oneof(name, fc.string({ maxLength: 12 })), hostileString, { minKeys: 1, maxKeys: 5 })
      .map((fields) => new URLSearchParams(fields).toString()),
    // A parameter sent twice, which OAuth forbids.
    fc.tuple(name, hostileString).map(([field, value]) => `${field}=a&${new URLSearchParams({ [field]: value })}`),
    // Values over any field's length.
    name.map((field) => `${field}=${'a'.repeat(MAX_BODY - field.length - 2)}`),
    // Bad percent-encoding and bytes that are not UTF-8.
    fc.constantFrom('%', 'grant_type=%zz', 'code=%c0%af', 'a=%ff%fe', '=&=&', '__proto__=1&constructor=2'),
    fc
      .tuple(name, fc.constantFrom([0xff, 0xfe], [0xc0, 0xaf], [0xed, 0xa0, 0x80]))
      .map(([field, bytes]) => Buffer.concat([Buffer.from(`${field}=a`), Buffer.from(bytes)])),
    // JSON text under a form content type.
    fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
  );
}

/** Header values that must not get past the tenant stage, and must not break it. */
const hostileHeaderValue = fc.oneof(
  fc.constantFrom(
    'app_#1',
    '#',
    '%00',
    ' ',
    'x'.repeat(4000),
    '../../etc',
    `app_${'é'.repeat(50)}`,
    '"quoted"',
    'a,b',
    'app_1; DROP TABLE',
  ),
  // Unicode, sent as its UTF-8 bytes (HTTP header values are bytes; fetch takes them as Latin-1).
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).map((s) => Buffer.from(s, 'utf8').toString('latin1')),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 200 }).map((s) => s.replace(/[\r\n]/g, '')),
);

// ---------------------------------------------------------------- the tests

const bodyRoutes = identityRouteList.filter((route) => route.body);
const isRead = (route: RouteDef) => route.method === 'GET';

describe('hostile bodies, to every route that takes one', () => {
  it('the route list has body routes to try (the matrix below is not empty)', () => {
    expect(bodyRoutes.length).toBeGreaterThan(10);
  });

  for (const route of bodyRoutes) {
    it(`${route.method} ${route.path} (${route.operationId}) never answers 5xx, answers catalogued problems only, and stores nothing`, async () => {
      const fields = fieldsOf(route);
      const form = route.bodyType === 'form';
      const codes = await checkRoute(
        route,
        form ? hostileForm(fields) : hostileBody(fields),
        (body) => ({
          headers: {
            ...validHeaders(route),
            'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
          },
          body,
        }),
        BODY_RUNS,
      );
      // The bodies got past the tenant and credential stages to the body's own checks.
      expect([...codes]).toContain(route.oauth ? 'oauth:invalid_request' : 'VALIDATION_FAILED');
      expect(codes).not.toContain('UNAUTHENTICATED');
    });
  }
});

describe('hostile query strings, to every route', () => {
  /** Query texts: random pairs, and raw texts with bad percent-encoding. */
  const hostileQuery = fc
    .oneof(
      fc
        .dictionary(
          fc.oneof(
            fc.constantFrom('limit', 'cursor', 'clientId', '__proto__', 'constructor'),
            fc.string({ maxLength: 8 }),
          ),
          fc.oneof(
            hostileString.map((s) => s.slice(0, 2000)),
            hostileNumberText,
            fc.constant('-1'),
          ),
          { maxKeys: 4 },
        )
        .map((params) => new URLSearchParams(params as Record<string, string>).toString()),
      fc.constantFrom('%', '%zz', '%c0%af', '%ed%a0%80', 'a=%ff%fe', 'limit=1&limit=2', 'cursor=%00', '&&&=', 'a[b]=1'),
    )
    // API Gateway refuses a request line and headers over 10,240 bytes before any function runs
    // (and Node's server, standing in for it, at 16 KiB with a bare 431): keep to what reaches a handler.
    // A cut may split an escape: that is one more bad percent-encoding.
    .map((query) => query.slice(0, 8000));

  for (const route of identityRouteList) {
    // Only reads carry a credential here: a random query must not make a write (a logout, a deletion) succeed.
    const credential = isRead(route) ? 'with a valid credential' : 'without a credential';
    it(`${route.method} ${route.path} (${route.operationId}), ${credential}, never answers 5xx and answers catalogued problems only`, async () => {
      await checkRoute(
        route,
        hostileQuery,
        (query) => ({
          path: `${pathOf(route)}?${query}`,
          headers: isRead(route) ? validHeaders(route) : { ...owner.tenant.headers },
        }),
        OTHER_RUNS,
      );
    });
  }
});

describe('hostile header values, to every route', () => {
  const which = fc.constantFrom('x-app-id', 'x-mid-key', 'authorization', 'x-api-key', 'origin', 'content-type');

  for (const route of identityRouteList) {
    it(`${route.method} ${route.path} (${route.operationId}) never answers 5xx to hostile X-App-ID, X-Mid-Key, Authorization, X-Api-Key, Origin or Content-Type values`, async () => {
      await checkRoute(
        route,
        fc.tuple(which, hostileHeaderValue, fc.boolean()),
        ([name, value, prefixed]) => {
          // A credential only with a hostile tenant header, on reads: a write must never be admitted here.
          const tenantHeader = name === 'x-app-id' || name === 'x-mid-key';
          const base = tenantHeader && isRead(route) ? validHeaders(route) : { ...owner.tenant.headers };
          const hostile = name === 'authorization' && prefixed ? `Bearer ${value}` : value;
          return {
            headers: { ...base, [name]: tenantHeader && prefixed ? `${base[name]}${hostile}` : hostile },
            ...(route.body ? { body: '{}' } : {}),
          };
        },
        OTHER_RUNS,
      );
    });
  }
});
