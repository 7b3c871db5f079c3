import { type JsonSchema, type OverrideActionContext, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import type { GenericSchema } from 'valibot';
import type { RouteDef } from './route.ts';
import { Problem } from './schemas.ts';

type Json = Record<string, unknown>;

/** Normalising actions (trim, lower-case) and custom checks have no JSON Schema form; the rest converts. */
const IGNORED_ACTIONS = ['trim', 'to_lower_case', 'check'];

/**
 * Actions the converter refuses but JSON Schema can say: string lengths count
 * code points in JSON Schema, so valibot's code-point limits map exactly; and
 * JSON Schema patterns are Unicode-aware, so a regex whose only flag is `u` keeps its source.
 */
function convertibleActions(context: OverrideActionContext): JsonSchema | undefined {
  const action = context.valibotAction as { type: string; requirement?: unknown };
  if (action.type === 'min_code_points') return { ...context.jsonSchema, minLength: action.requirement as number };
  if (action.type === 'max_code_points') return { ...context.jsonSchema, maxLength: action.requirement as number };
  if (action.type === 'regex' && action.requirement instanceof RegExp && action.requirement.flags === 'u') {
    return { ...context.jsonSchema, pattern: action.requirement.source };
  }
  return undefined;
}
const CONVERSION = {
  target: 'draft-2020-12',
  ignoreActions: IGNORED_ACTIONS,
  overrideAction: convertibleActions,
} as const;

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
    componentRefs(toJsonSchema(schema, { ...CONVERSION, definitions, typeMode: 'output' }));
  const parametersOf = (schema: GenericSchema | undefined, where: 'query' | 'path') => {
    if (!schema) return [];
    const json = componentRefs(toJsonSchema(schema, { ...CONVERSION, typeMode: 'input' }));
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
    Object.entries(toJsonSchemaDefs(definitions, { ...CONVERSION, typeMode: 'output' })).map(([name, s]) => [
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
