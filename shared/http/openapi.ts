import { STATUS_CODES } from 'node:http';
import { type JsonSchema, type OverrideActionContext, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import type { GenericSchema } from 'valibot';
import { ERRORS } from './errors.ts';
import { PROBLEM_CONTENT_TYPE } from './problem.ts';
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
  /** The API's licence; OpenAPI 3.1 takes an SPDX `identifier`, e.g. `{ name: 'MIT', identifier: 'MIT' }`. */
  license?: { name: string; identifier?: string; url?: string };
}

/** How a service's errors are described: its error body, and how a route's error codes become responses. */
export interface OpenApiErrors {
  /** The component name of the error body. */
  name: string;
  schema: GenericSchema;
  contentType: string;
  /** The description of the `default` response. */
  description: string;
  /**
   * `range`: one `4XX` response naming the route's error codes (codes are part of the body);
   * `status`: one response per status among the route's error codes (the body has no code).
   */
  responses: 'range' | 'status';
}

/** The identity service's errors: RFC 9457 problem details with a stable `code`. */
export const PROBLEM_ERRORS: OpenApiErrors = {
  name: 'Problem',
  schema: Problem,
  contentType: PROBLEM_CONTENT_TYPE,
  description: 'Error (RFC 9457 problem details)',
  responses: 'range',
};

/** Rewrites valibot's `#/$defs/X` references to OpenAPI's components. */
function componentRefs(schema: unknown): Json {
  const text = JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/');
  const { $schema: _schema, $defs: _defs, ...rest } = JSON.parse(text) as Json;
  return rest;
}

/**
 * The OpenAPI 3.1 document of a route list. Every schema is converted from the
 * valibot schema the handler validates with, so the two cannot disagree; named
 * schemas become components and are referenced by `$ref`. Header parameters
 * and security schemes are listed only when some route uses them.
 */
export function buildOpenApi(
  routes: readonly RouteDef[],
  named: Record<string, GenericSchema>,
  info: OpenApiInfo,
  errors: OpenApiErrors = PROBLEM_ERRORS,
) {
  const definitions = { ...named, [errors.name]: errors.schema };
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
    content: { [errors.contentType]: { schema: { $ref: `#/components/schemas/${errors.name}` } } },
  });
  const errorResponses = (route: RouteDef): Record<string, Json> => {
    if (!route.errors?.length) return {};
    if (errors.responses === 'range') {
      return { '4XX': problem(`Client error: ${route.errors.join(', ')} among others`) };
    }
    const statuses = [...new Set(route.errors.map((code) => ERRORS[code]))].sort((a, b) => a - b);
    return Object.fromEntries(statuses.map((status) => [String(status), problem(STATUS_CODES[status] ?? 'Error')]));
  };

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
        ...errorResponses(route),
        default: problem(errors.description),
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

  const documented = routes.filter((route) => !route.undocumented);
  const tenantHeaders = documented.some((route) => route.tenant === 'headers');
  const bearer = documented.some((route) => route.auth !== 'none');
  const apiKey = documented.some((route) => route.auth === 'admin');

  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description: info.description,
      ...(info.license ? { license: info.license } : {}),
    },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      schemas: components,
      ...(tenantHeaders ? { parameters: TENANT_HEADER_PARAMETERS } : {}),
      securitySchemes: {
        ...(bearer ? { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } : {}),
        ...(apiKey ? { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } : {}),
      },
    },
  };
}

/** X-App-ID and X-Mid-Key, referenced by every route that takes its tenant from headers. */
const TENANT_HEADER_PARAMETERS = {
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
};
