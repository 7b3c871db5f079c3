import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import * as v from 'valibot';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { handler as servePlantsOpenapi } from '#functions/plants/get-plants-openapi.ts';
import { plantRouteList } from '#functions/plants/routes.ts';
import { identityRouteList } from '#functions/routes.ts';
import { REPO_ROOT } from '#local/stack.ts';
import { ERRORS } from '#shared/errors.ts';
import type { RouteDef } from '#shared/http/route.ts';
import { ActivityQuery } from '#shared/users/admin-schemas.ts';
import { aContext, anEvent } from '#test/support/events.ts';

/**
 * The documents as clients get them (the committed openapi.json, the plant
 * store's as its handler serves it) checked by a third-party OpenAPI 3.1
 * validator, and held to what the wire does: 429 and 503 with Retry-After,
 * numeric query values as numbers, the Origin discovery needs.
 */

const identity = JSON.parse(readFileSync(join(REPO_ROOT, 'openapi.json'), 'utf8')) as Record<string, any>;

async function servedPlantsDocument(): Promise<Record<string, any>> {
  vi.stubEnv('PLANTS_TABLE_NAME', 'plants-unit');
  vi.stubEnv('ISSUER_URL', 'https://id.example/api/v1');
  vi.stubEnv('PLANTS_URL', 'https://plants.example');
  const result = (await servePlantsOpenapi(anEvent({ path: '/openapi.json' }), aContext())) as {
    statusCode: number;
    body: string;
  };
  expect(result.statusCode).toBe(200);
  return JSON.parse(result.body);
}
afterAll(() => {
  vi.unstubAllEnvs();
});

const operationOf = (document: Record<string, any>, route: RouteDef) =>
  document.paths[route.path][route.method.toLowerCase()] as Record<string, any>;

describe('the OpenAPI documents as served', () => {
  it.each([
    ['openapi.json (identity)', async () => identity],
    ['the plant store', servedPlantsDocument],
  ])('%s validates as OpenAPI 3.1', async (_name, documentOf) => {
    const validator = new Validator();
    const result = await validator.validate(await documentOf());
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is checked by a validator that refuses what OpenAPI 3.1 forbids (a license with both identifier and url)', async () => {
    const broken = { ...identity, info: { ...identity.info, license: { name: 'MIT', identifier: 'MIT', url: 'x' } } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it.each([
    ['openapi.json (identity)', async () => identity, { name: 'Proprietary' }],
    ['the plant store', servedPlantsDocument, { name: 'MIT', identifier: 'MIT' }],
  ])('%s has a license and lists every tag its operations use, each described', async (_name, documentOf, license) => {
    const document = await documentOf();
    expect(document.info.license).toEqual(license);
    const used = new Set(
      Object.values(document.paths).flatMap((item: any) => Object.values(item).flatMap((op: any) => op.tags)),
    );
    expect(document.tags.map((tag: { name: string }) => tag.name).sort()).toEqual([...used].sort());
    for (const tag of document.tags) expect(tag.description, tag.name).toMatch(/\w/);
  });
});

describe('Retry-After in the documents', () => {
  const tooMany = (route: RouteDef) => (route.errors ?? []).some((code) => ERRORS[code] === 429);

  it('gives every identity operation that can answer 429 a 429 response: Problem body, Retry-After header', () => {
    const routes = identityRouteList.filter((route) => !route.undocumented && tooMany(route));
    expect(routes.map((route) => route.operationId)).toEqual(
      expect.arrayContaining(['login', 'loginVerify', 'signup', 'forgotPassword', 'changePassword']),
    );
    for (const route of routes) {
      expect(operationOf(identity, route).responses['429'], route.operationId).toEqual({
        description: expect.stringMatching(/TOO_MANY_ATTEMPTS|RATE_LIMITED/),
        headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      });
    }
    expect(identity.components.headers.RetryAfter).toEqual({
      description: expect.any(String),
      required: true,
      schema: { type: 'integer', minimum: 0 },
    });
  });

  it('gives every identity operation that reaches DynamoDB, SES or KMS a 503 with Retry-After, keeping 4XX', () => {
    // These three answer from the configuration alone: nothing of theirs can be throttled.
    // (The OpenID Provider's metadata is not among them: it finds its tenant by the issuer's subdomain.)
    const selfContained = ['health', 'getOpenapi', 'getOpenidConfiguration'];
    const documented = identityRouteList.filter((route) => !route.undocumented);
    for (const route of documented.filter((r) => selfContained.includes(r.operationId))) {
      expect(route).toMatchObject({ tenant: 'none', auth: 'none', table: [] });
      expect(operationOf(identity, route).responses['503'], route.operationId).toBeUndefined();
    }
    const reaching = documented.filter((route) => !selfContained.includes(route.operationId));
    expect(reaching.length).toBeGreaterThan(30);
    for (const route of reaching) {
      const { responses } = operationOf(identity, route);
      if (route.oauth) {
        // OAuth's protocol endpoints: OAuth's error body, one response per status.
        expect(responses['503'], route.operationId).toEqual({
          description: expect.stringContaining('temporarily_unavailable'),
          headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } },
        });
        continue;
      }
      expect(responses['503'], route.operationId).toEqual({
        description: expect.stringContaining('UNAVAILABLE'),
        headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      });
      if (route.errors?.length) expect(responses['4XX'], route.operationId).toBeDefined();
      expect(responses['4XX']?.description ?? '', route.operationId).not.toMatch(/RATE_LIMITED|TOO_MANY|UNAVAILABLE/);
    }
  });

  it("gives the plant store's POST /plants a 503 with Retry-After and its own error body", async () => {
    const document = await servedPlantsDocument();
    const createPlant = plantRouteList.find((route) => route.operationId === 'createPlant') as RouteDef;
    expect(operationOf(document, createPlant).responses['503']).toEqual({
      description: expect.any(String),
      headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
    expect(document.components.headers.RetryAfter.schema).toEqual({ type: 'integer', minimum: 0 });
  });
});

describe('parameters in the identity document', () => {
  it('documents the activity limit as the integer it is parsed to (1-100, default 50), though sent as a string', () => {
    const activity = identity.paths['/users/{id}/activity'].get;
    const limit = activity.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit).toEqual({
      name: 'limit',
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
    });
    // The handler still reads the query string.
    expect(v.parse(ActivityQuery, { limit: '20' })).toEqual({ limit: 20 });
    expect(v.parse(ActivityQuery, {})).toEqual({ limit: 50 });
    for (const limit of ['0', '101', '1e2', '2.5', 'ten', '']) {
      expect(v.safeParse(ActivityQuery, { limit }).success, limit).toBe(false);
    }
  });

  it('documents the Origin header that discovery requires', () => {
    const discovery = identity.paths['/auth/discovery'].get;
    expect(discovery.parameters).toContainEqual({ $ref: '#/components/parameters/Origin' });
    expect(identity.components.parameters.Origin).toMatchObject({ name: 'Origin', in: 'header', required: true });
    const requiring = identityRouteList.filter((route) => route.requiresOrigin).map((route) => route.operationId);
    // The tenant stage refuses a clientId request without Origin: those routes must say so.
    const byClientId = identityRouteList.filter((route) => route.tenant === 'clientId').map((r) => r.operationId);
    expect(requiring).toEqual(byClientId);
  });
});
