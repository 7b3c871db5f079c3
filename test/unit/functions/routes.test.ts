import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMITTED_SERVER_URL, identityOpenApi } from '#functions/openapi.ts';
import { BASE_PATH, identityRouteList, identityRoutes } from '#functions/routes.ts';
import { CLIENT_WIRE_TYPES, clientWireTypes } from '#local/openapi-types.ts';
import { routeIndexMarkdown } from '#local/route-index.ts';
import { REPO_ROOT } from '#local/stack.ts';
import { isDefaultRoute, routeKey, tableActionsOf } from '#shared/http/route.ts';

describe('the identity route list', () => {
  it.each(identityRouteList.map((r) => [r.operationId, r] as const))(
    '%s: its entry exists and exports handler',
    async (_, route) => {
      const file = join(REPO_ROOT, route.entry);
      expect(existsSync(file)).toBe(true);
      const module = (await import(pathToFileURL(file).href)) as { handler?: unknown };
      expect(typeof module.handler).toBe('function');
    },
  );

  it('names each handler file after its operation (kebab-case of operationId)', () => {
    for (const route of identityRouteList) {
      const kebab = route.operationId.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      expect(route.entry.endsWith(`/${kebab}.ts`), `${route.operationId} → ${route.entry}`).toBe(true);
    }
  });

  it('has unique operation ids and unique method + path pairs', () => {
    const keys = identityRouteList.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(Object.keys(identityRoutes)).toEqual(identityRouteList.map((r) => r.operationId));
  });

  it('has one $default route, notFound: it takes no tenant, no credential and no permission, and is not documented', () => {
    const defaults = identityRouteList.filter(isDefaultRoute);
    expect(defaults.map((r) => r.operationId)).toEqual(['notFound']);
    expect(identityRoutes.notFound).toMatchObject({ method: 'ANY', tenant: 'none', auth: 'none', undocumented: true });
    expect(tableActionsOf(identityRoutes.notFound)).toEqual([]);
    expect(routeKey(identityRoutes.notFound, BASE_PATH)).toBe('$default');
  });

  it('declares every request body as a strict object, so unknown fields are refused', () => {
    for (const route of identityRouteList) {
      // OAuth's form bodies are the exception: RFC 6749 3.2 says to ignore unrecognised parameters.
      if (route.body && route.bodyType !== 'form') expect(route.body.type, route.operationId).toBe('strict_object');
    }
  });

  it('takes form bodies only where OAuth sends forms: its protocol endpoints, and the callback a provider posts to', () => {
    const forms = identityRouteList.filter((route) => route.bodyType === 'form');
    expect(forms.map((route) => route.operationId).sort()).toEqual(['oidcRevoke', 'oidcToken', 'providerCallbackPost']);
    // Unknown parameters are ignored: OAuth's endpoints answer OAuth's errors, the callback only redirects.
    for (const route of forms) expect(route.oauth === true || route.status === 302, route.operationId).toBe(true);
  });
});

describe('the OpenAPI document', () => {
  const document = identityOpenApi('https://id.example/api/v1');

  it('is OpenAPI 3.1 with the base URL in servers and paths without the base path', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: 'https://id.example/api/v1' }]);
    expect(Object.keys(document.paths).every((p) => !p.startsWith('/api/v1'))).toBe(true);
  });

  it('lists exactly the documented routes of the list, by method and path', () => {
    const documented = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(
        ([method, op]) => `${method.toUpperCase()} ${path} ${(op as { operationId: string }).operationId}`,
      ),
    );
    const expected = identityRouteList
      .filter((r) => !r.undocumented)
      .map((r) => `${r.method} ${r.path} ${r.operationId}`);
    expect(documented.sort()).toEqual(expected.sort());
  });

  it('converts the valibot schemas (discovery query parameters and response) rather than restating them', () => {
    const discovery = document.paths['/auth/discovery']?.get as Record<string, any>;
    expect(discovery.parameters).toEqual([
      { $ref: '#/components/parameters/Origin' },
      { name: 'clientId', in: 'query', required: false, schema: { type: 'string', minLength: 1, maxLength: 256 } },
      { name: 'slug', in: 'query', required: false, schema: { type: 'string', maxLength: 256 } },
    ]);
    expect(discovery.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/DiscoveryResponse',
    });
    const schema = document.components.schemas.DiscoveryResponse as Record<string, any>;
    expect(schema.required).toContain('allowUserDisableTotp');
    expect(schema.properties.loginMode.enum).toEqual(['PASSWORD', 'OTP_EMAIL', 'PASSWORD_OR_OTP_EMAIL']);
    expect(schema.properties.primaryColor.anyOf).toContainEqual({ type: 'string', pattern: '^#[0-9a-fA-F]{6}$' });
  });

  it('describes errors as problem+json', () => {
    const health = document.paths['/health']?.get as Record<string, any>;
    expect(health.responses.default.content['application/problem+json'].schema).toEqual({
      $ref: '#/components/schemas/Problem',
    });
  });

  it('is committed up to date in openapi.json (run `npm run openapi` after changing routes or schemas)', () => {
    const committed = JSON.parse(readFileSync(join(REPO_ROOT, 'openapi.json'), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(identityOpenApi(COMMITTED_SERVER_URL))));
  });
});

describe('the route index', () => {
  it('is committed up to date in ROUTES.md (run `npm run openapi` after changing routes)', () => {
    expect(readFileSync(join(REPO_ROOT, 'ROUTES.md'), 'utf8')).toBe(routeIndexMarkdown());
  });
});

describe("the client SDK's wire types", () => {
  it('are committed up to date in client/src/wire-types.ts (run `npm run openapi` after changing routes or schemas)', () => {
    const document = JSON.parse(JSON.stringify(identityOpenApi(COMMITTED_SERVER_URL)));
    expect(readFileSync(join(REPO_ROOT, CLIENT_WIRE_TYPES), 'utf8')).toBe(clientWireTypes(document));
  });
});
