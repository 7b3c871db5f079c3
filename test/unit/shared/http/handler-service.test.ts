import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { fail } from '#shared/errors.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { type RouteDef, tableActionsOf } from '#shared/http/route.ts';
import type { RequestLog } from '#shared/log.ts';
import { plantErrorBody } from '#shared/plants/http.ts';
import type { TokenPrincipal } from '#shared/tokens/resource-server.ts';
import { aContext, anEvent } from '#test/support/events.ts';

/** httpHandler for a service with deps of its own (the plant store's shape): tenant from the token, its error body. */

const Body = v.strictObject({ name: v.pipe(v.string(), v.minLength(1, 'is required')) }, 'is required');

function route(overrides: Partial<RouteDef> = {}): RouteDef & { tenant: 'token' | 'none' } {
  return {
    operationId: 'testRoute',
    method: 'POST',
    path: '/things',
    entry: 'functions/test.ts',
    summary: 'test',
    tag: 'test',
    tenant: 'token',
    auth: 'bearer',
    status: 200,
    body: Body,
    table: ['PutItem'],
    ...overrides,
  } as RouteDef & { tenant: 'token' | 'none' };
}

const caller: TokenPrincipal = {
  kind: 'token',
  sub: 'usr_1',
  sid: 'ses_1',
  app: 'app_1',
  mid: 'mid_1',
  roles: ['DEFAULT'],
  exp: 2_000_000_000,
};

interface TestDeps {
  log: { info: () => void; error: (message: string, fields?: object) => void };
  requestLog: RequestLog;
  seen: string[];
}

/** No request lines: the unit tests of the request line are test/unit/shared/http/request-metrics.test.ts. */
const quiet: RequestLog = { service: 'test', on: false };

function deps(): TestDeps {
  const seen: string[] = [];
  return { seen, requestLog: quiet, log: { info: () => undefined, error: (message) => seen.push(message) } };
}

const verifyToken = vi.fn(async (token: string) => (token === 'good' ? caller : null));
const json = { 'content-type': 'application/json' };

async function call(
  r: RouteDef & { tenant: 'token' | 'none' },
  impl: (input: any, deps: TestDeps) => unknown,
  event = anEvent({ method: 'POST', headers: { ...json, authorization: 'Bearer good' }, body: '{"name":"Fern"}' }),
  d = deps(),
) {
  const handler = httpHandler(r, impl, { deps: () => d, verifyToken, errorBody: plantErrorBody });
  const result = (await handler(event, aContext())) as {
    statusCode: number;
    headers: Record<string, string>;
    body?: string;
  };
  return { ...result, json: result.body ? JSON.parse(result.body) : undefined };
}

describe('httpHandler for a tenant: token route', () => {
  it('hands the implementation its own deps, the verified caller, the tenant of its claims and the raw body', async () => {
    const d = deps();
    const res = await call(
      route(),
      (input, got) => ({
        // Its own deps, with a log that names the request (the service's own log underneath).
        same: got.seen === d.seen && got.log !== d.log,
        auth: input.auth,
        tenant: input.tenant,
        body: input.body,
        raw: input.request.rawBody,
      }),
      undefined,
      d,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json).toEqual({
      same: true,
      auth: caller,
      tenant: { app: 'app_1', mid: 'mid_1' },
      body: { name: 'Fern' },
      raw: '{"name":"Fern"}',
    });
  });

  it('gives the implementation a log that adds the request id to every line', async () => {
    const lines: Record<string, unknown>[] = [];
    const d: TestDeps = {
      seen: [],
      requestLog: quiet,
      log: { info: () => undefined, error: (message, fields?: object) => lines.push({ message, ...fields }) },
    };
    const event = anEvent({
      method: 'POST',
      headers: { ...json, authorization: 'Bearer good' },
      body: '{"name":"Fern"}',
    });
    await call(
      route(),
      (_input, got) => {
        got.log.error('something to say');
        return {};
      },
      event,
      d,
    );
    expect(lines).toEqual([{ message: 'something to say', requestId: event.requestContext.requestId }]);
  });

  it('needs no tenant headers, and gives a base64 body to the implementation as text', async () => {
    const body = Buffer.from('{"name":"Fern"}').toString('base64');
    const event = anEvent({
      method: 'POST',
      headers: { ...json, authorization: 'Bearer good' },
      body,
      isBase64Encoded: true,
    });
    const res = await call(route(), (input) => input.request.rawBody, event);
    expect(res.json).toBe('{"name":"Fern"}');
  });

  it('answers 401 { error, message } with WWW-Authenticate: Bearer for no, a malformed or a refused bearer', async () => {
    for (const authorization of [undefined, 'Basic abc', 'Bearer', 'Bearer bad']) {
      const headers: Record<string, string> = authorization === undefined ? json : { ...json, authorization };
      const res = await call(route(), () => 'never', anEvent({ method: 'POST', headers, body: '{"name":"x"}' }));
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json).toEqual({ error: 401, message: expect.stringContaining('access token') });
    }
  });

  it('never calls the verifier with an API key, and never accepts one', async () => {
    verifyToken.mockClear();
    const headers = { ...json, 'x-api-key': 'good' };
    const res = await call(route(), () => 'never', anEvent({ method: 'POST', headers, body: '{"name":"x"}' }));
    expect(res.statusCode).toBe(401);
    expect(verifyToken).not.toHaveBeenCalled();
  });

  it('answers each earlier stage in the { error, message } body: 413, 415, 400 malformed, 400 validation', async () => {
    const auth = { authorization: 'Bearer good' };
    const cases: [Record<string, string>, string, number, RegExp][] = [
      [{ ...json, ...auth }, JSON.stringify({ name: 'x'.repeat(17 * 1024) }), 413, /16384 bytes/],
      [{ 'content-type': 'text/plain', ...auth }, 'name=x', 415, /application\/json/],
      [{ ...json, ...auth }, '{"name":', 400, /not valid JSON/],
      [{ ...json, ...auth }, '{"colour":"green"}', 400, /^name: is required; colour: is not a known field$/],
    ];
    for (const [headers, body, status, message] of cases) {
      const res = await call(route(), () => 'never', anEvent({ method: 'POST', headers, body }));
      expect(res.statusCode).toBe(status);
      expect(res.headers['content-type']).toBe('application/json');
      expect(Object.keys(res.json).sort()).toEqual(['error', 'message']);
      expect(res.json.error).toBe(status);
      expect(res.json.message).toMatch(message);
    }
  });

  it('answers an AppError of the implementation with its status and detail', async () => {
    const res = await call(route(), () => {
      throw fail('VALIDATION_FAILED', { detail: 'id: is taken', errors: [{ path: 'id', message: 'is taken' }] });
    });
    expect(res.statusCode).toBe(400);
    expect(res.json).toEqual({ error: 400, message: 'id: is taken' });
  });

  it('answers anything else with a bare 500 { error, message }, logged through its own deps', async () => {
    const d = deps();
    const res = await call(
      route(),
      () => {
        throw new Error('table plants-prod: secret internals');
      },
      undefined,
      d,
    );
    expect(res.statusCode).toBe(500);
    expect(res.json).toEqual({ error: 500, message: 'Internal Server Error' });
    expect(res.body).not.toContain('secret');
    expect(d.seen).toEqual(['request failed']);
  });

  it('answers 503 with Retry-After when a dependency is unavailable (the issuer key set, DynamoDB)', async () => {
    const res = await call(route(), () => {
      throw Object.assign(new Error('key set unreachable'), { name: 'ServiceUnavailable' });
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json).toEqual({ error: 503, message: 'Service Unavailable' });
  });

  it('refuses to build a token route that is not a bearer route, or has no verifier', () => {
    expect(() => httpHandler(route({ auth: 'none' }), () => ({}), { deps, verifyToken })).toThrow(/bearer/);
    expect(() => httpHandler(route(), () => ({}), { deps })).toThrow(/verifyToken/);
  });
});

describe('tableActionsOf a tenant: token route', () => {
  it('adds nothing for the bearer check: it reads no table (the JWT is checked against the JWKS)', () => {
    expect(tableActionsOf(route())).toEqual(['PutItem']);
    expect(tableActionsOf(route({ table: [] }))).toEqual([]);
  });

  it('still adds the identity bearer check to a tenant: headers bearer route', () => {
    expect(tableActionsOf({ ...route(), tenant: 'headers' })).toEqual(['BatchGetItem', 'GetItem', 'PutItem', 'Query']);
  });
});
