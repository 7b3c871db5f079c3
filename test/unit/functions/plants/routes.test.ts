import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { plantsOpenApi } from '#functions/plants/openapi.ts';
import { plantCorsRoutes, plantRouteList, plantRoutes } from '#functions/plants/routes.ts';
import { identityRouteList } from '#functions/routes.ts';
import { REPO_ROOT } from '#local/stack.ts';
import { routeKey } from '#shared/http/route.ts';

describe('the plant route list', () => {
  it.each(plantRouteList.map((r) => [r.operationId, r] as const))(
    '%s: its entry exists, is named after its operation and exports handler',
    async (_, route) => {
      const kebab = route.operationId.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      expect(route.entry).toBe(`functions/plants/${kebab}.ts`);
      const file = join(REPO_ROOT, route.entry);
      expect(existsSync(file)).toBe(true);
      const module = (await import(pathToFileURL(file).href)) as { handler?: unknown };
      expect(typeof module.handler).toBe('function');
    },
  );

  it('is exactly POST /plants, the CORS preflight, GET /openapi.json and the $default route, with unique operation ids across both services', () => {
    expect(plantRouteList.map((r) => routeKey(r, ''))).toEqual([
      'POST /plants',
      'OPTIONS /{proxy+}',
      'GET /openapi.json',
      '$default',
    ]);
    const ids = [...identityRouteList, ...plantRouteList].map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('takes no tenant headers: createPlant takes its tenant from the bearer token, the document needs nothing', () => {
    expect(plantRoutes.createPlant).toMatchObject({ tenant: 'token', auth: 'bearer', table: ['PutItem'] });
    expect(plantRoutes.getPlantsOpenapi).toMatchObject({ tenant: 'none', auth: 'none', table: [] });
    expect(plantRoutes.plantsNotFound).toMatchObject({ tenant: 'none', auth: 'none', table: [], undocumented: true });
    expect(plantRoutes.plantsPreflight).toMatchObject({ tenant: 'none', auth: 'none', table: [], undocumented: true });
    expect(plantRoutes.createPlant.body.type).toBe('strict_object');
  });
});

describe('the plant CORS routes', () => {
  it('are the preflight and POST /plants: the routes a browser app calls', () => {
    expect([...plantCorsRoutes].sort()).toEqual(['createPlant', 'plantsPreflight']);
    for (const id of plantCorsRoutes) expect(plantRouteList.map((r) => r.operationId)).toContain(id);
  });
});

describe('the plant store OpenAPI document', () => {
  const document = plantsOpenApi('https://plants.example');

  it('lists exactly the plant routes, from the same list and schemas as the handlers', () => {
    const documented = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    const expected = plantRouteList.filter((r) => !r.undocumented).map((r) => `${r.method} ${r.path} ${r.operationId}`);
    expect(documented.sort()).toEqual(expected.sort());
    expect(document.servers).toEqual([{ url: 'https://plants.example' }]);
  });
});
