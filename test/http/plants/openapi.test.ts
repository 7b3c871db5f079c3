import { describe, expect, it } from 'vitest';
import { useLocalStack } from '#test/support/server.ts';

const api = useLocalStack();

async function document() {
  const res = await fetch(`${api.plantsUrl}/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return (await res.json()) as Record<string, any>;
}

describe('GET /openapi.json (plant store)', () => {
  it('is an OpenAPI 3.1.0 document, version 1.0.0, MIT licensed, naming the plant store as its server', async () => {
    const doc = await document();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({
      title: 'Plant store',
      version: '1.0.0',
      license: { name: 'MIT', identifier: 'MIT' },
    });
    expect(doc.servers).toEqual([{ url: api.plantsUrl }]);
  });

  it('has exactly the routes of the plant route list, and needs no token itself', async () => {
    const doc = await document();
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops as Record<string, { operationId: string }>).map(
        ([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`,
      ),
    );
    expect(operations.sort()).toEqual(['GET /openapi.json getPlantsOpenapi', 'POST /plants createPlant']);
    expect(doc.paths['/openapi.json'].get.security).toEqual([]);
  });

  it('lists Plant, NewPlant and Error, and the bearer scheme, and nothing of the identity service', async () => {
    const doc = await document();
    expect(Object.keys(doc.components.schemas).sort()).toEqual(['Error', 'NewPlant', 'Plant']);
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    });
    expect(doc.components.parameters).toBeUndefined();
    expect(JSON.stringify(doc)).not.toMatch(/X-App-ID|problem\+json|Problem/);
  });

  it('describes POST /plants: bearer, NewPlant in, Plant out, 400 and 401 as Error', async () => {
    const doc = await document();
    const op = doc.paths['/plants'].post;
    expect(op.security).toEqual([{ bearerAuth: [] }]);
    expect(op.parameters).toBeUndefined();
    expect(op.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPlant' } } },
    });
    expect(op.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Plant' });
    for (const status of ['400', '401', 'default']) {
      expect(op.responses[status].content).toEqual({
        'application/json': { schema: { $ref: '#/components/schemas/Error' } },
      });
    }
  });

  it('gives the schemas as the handler checks them: int64 ids within ±(2^53 - 1), strict NewPlant, int32 error', async () => {
    const { Plant, NewPlant, Error: ErrorBody } = (await document()).components.schemas;
    const id = {
      type: 'integer',
      format: 'int64',
      description: expect.stringContaining('2^53'),
      minimum: Number.MIN_SAFE_INTEGER,
      maximum: Number.MAX_SAFE_INTEGER,
    };
    expect(NewPlant).toEqual({
      type: 'object',
      properties: {
        id,
        name: { type: 'string', minLength: 1, maxLength: 256 },
        tag: { type: 'string', maxLength: 256 },
      },
      required: ['id', 'name'],
      additionalProperties: false,
    });
    expect(Plant).toMatchObject({
      type: 'object',
      properties: { id, name: { type: 'string' } },
      required: ['id', 'name'],
    });
    expect(Plant.properties.tag).toEqual({ type: 'string' });
    expect(ErrorBody).toEqual({
      type: 'object',
      properties: { error: { type: 'integer', format: 'int32' }, message: { type: 'string' } },
      required: ['error', 'message'],
    });
  });
});
