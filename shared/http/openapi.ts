import { toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import type { GenericSchema } from 'valibot';
import type { RouteDef } from './route.ts';
import { Problem } from './schemas.ts';

type Json = Record<string, unknown>;

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
  /** The base URL the paths hang off, e.g. `http://localhost:3000/api/v1`. */
  serverUrl: string;
}

/** Rewrites valibot's `#/$defs/X` references to OpenAPI's components. */
function componentRefs(schema: unknown): Json {
  const text = JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/');
  const { $schema: _schema, $defs: _defs, ...rest } = JSON.parse(text) as Json;
  return rest;
}

/**
 * The OpenAPI 3.1 document of a route list. Every schema is converted from the
 * valibot schema the handler validates with, so the two cannot disagree; named
 * schemas become components and are referenced by `$ref`.
 */
export function buildOpenApi(routes: readonly RouteDef[], named: Record<string, GenericSchema>, info: OpenApiInfo) {
  const definitions = { ...named, Problem };
  const convert = (schema: GenericSchema) =>
    componentRefs(toJsonSchema(schema, { target: 'draft-2020-12', definitions, typeMode: 'output' }));
  const parametersOf = (schema: GenericSchema | undefined, where: 'query' | 'path') => {
    if (!schema) return [];
    const json = componentRefs(toJsonSchema(schema, { target: 'draft-2020-12', typeMode: 'input' }));
    const properties = (json.properties ?? {}) as Record<string, Json>;
    const required = new Set((json.required ?? []) as string[]);
    return Object.entries(properties).map(([name, propertySchema]) => ({
      name,
      in: where,
      required: where === 'path' || required.has(name),
      schema: propertySchema,
    }));
  };
  const problem = (description: string) => ({
    description,
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  });

  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    if (route.undocumented) continue;
    const parameters: Json[] = [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')];
    if (route.tenant === 'headers') {
      parameters.unshift({ $ref: '#/components/parameters/AppId' }, { $ref: '#/components/parameters/MidKey' });
    }
    const success: Json =
      route.status === 204
        ? { description: 'No content' }
        : {
            description: 'OK',
            content: { 'application/json': { schema: route.response ? convert(route.response) : { type: 'object' } } },
          };
    const operation: Json = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      security:
        route.auth === 'none'
          ? []
          : route.auth === 'bearer'
            ? [{ bearerAuth: [] }]
            : [{ bearerAuth: [] }, { apiKey: [] }],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: convert(route.body) } } } }
        : {}),
      responses: {
        [String(route.status)]: success,
        ...(route.errors?.length ? { '4XX': problem(`Client error: ${route.errors.join(', ')} among others`) } : {}),
        default: problem('Error (RFC 9457 problem details)'),
      },
    };
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, Json>)[route.method.toLowerCase()] = operation;
  }

  const components = Object.fromEntries(
    Object.entries(toJsonSchemaDefs(definitions, { target: 'draft-2020-12', typeMode: 'output' })).map(([name, s]) => [
      name,
      componentRefs(s),
    ]),
  );

  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      schemas: components,
      parameters: {
        AppId: {
          name: 'X-App-ID',
          in: 'header',
          required: true,
          schema: { type: 'string' },
          description: "The tenant's app",
        },
        MidKey: {
          name: 'X-Mid-Key',
          in: 'header',
          required: true,
          schema: { type: 'string' },
          description: "The tenant's mid",
        },
      },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      },
    },
  };
}
