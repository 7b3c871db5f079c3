import { STATUS_CODES } from 'node:http';
import { type JsonSchema, type OverrideActionContext, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { AppError, ERRORS, type ErrorCode } from '../errors.ts';
import { oauthErrorOf } from './oauth-error.ts';
import { PROBLEM_CONTENT_TYPE } from './problem.ts';
import { type RouteDef, tableActionsOf } from './route.ts';
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
  /** A description of each tag the routes use; the document lists them at the top level. */
  tags: Record<string, string>;
  /** The requests the service sends (OpenAPI 3.1 `webhooks`), by event type: what it is, and its body. */
  webhooks?: Record<string, { summary: string; body: v.GenericSchema }>;
}

/** The Standard Webhooks headers every webhook request carries. */
const WEBHOOK_HEADERS = [
  ['webhook-id', 'The event id: the same on every attempt, to drop what was seen'],
  ['webhook-timestamp', 'When this attempt was signed, in seconds since the epoch'],
  ['webhook-signature', 'Space-separated `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, one per live secret'],
].map(([name, description]) => ({ name, in: 'header', required: true, schema: { type: 'string' }, description }));

/** The document's `webhooks`: one POST per event type, its body converted from the schema the service builds it by. */
function webhooksOf(webhooks: NonNullable<OpenApiInfo['webhooks']>, convert: (schema: v.GenericSchema) => Json) {
  return Object.fromEntries(
    Object.entries(webhooks).map(([type, { summary, body }]) => [
      type,
      {
        post: {
          operationId: `webhook:${type}`,
          summary,
          parameters: WEBHOOK_HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: convert(body) } } },
          responses: {
            '2XX': { description: 'Received; any other answer (or none within 10 s) is retried for 24 hours' },
          },
        },
      },
    ]),
  );
}

/** How a service's errors are described: its error body, and how a route's error codes become responses. */
export interface OpenApiErrors {
  /** The component name of the error body. */
  name: string;
  schema: v.GenericSchema;
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
 * A query or path value is a string on the wire. One that its schema turns
 * into a number (`v.toNumber()`) is documented as that number, with the checks
 * that follow the conversion and the default as parsed, so that a generated
 * client sends it from a number (`?limit=20`). Undefined for any other value.
 */
function numericStringParameter(entry: v.GenericSchema): Json | undefined {
  const { wrapped } = entry as { wrapped?: v.GenericSchema };
  const pipe = flatPipe(wrapped ?? entry);
  const toNumber = pipe.findIndex((item) => item.type === 'to_number');
  if (pipe[0]?.type !== 'string' || toNumber === -1) return undefined;
  const numeric = pipeOf(v.number(), ...pipe.slice(toNumber + 1));
  const json = componentRefs(toJsonSchema(numeric, { ...CONVERSION, typeMode: 'output' }));
  // A default is the string a client would send: documented as the number it parses to.
  if ((entry as { default?: unknown }).default === undefined) return json;
  const parsedDefault = v.safeParse(entry, undefined);
  return parsedDefault.success ? { ...json, default: parsedDefault.output } : json;
}

/** `v.pipe` over items known only at run time (its types want them literally). */
const pipeOf = v.pipe as unknown as (...items: unknown[]) => v.GenericSchema;

/** A schema's pipe with nested pipes spread out (the schema itself first), or just the schema. */
function flatPipe(schema: v.GenericSchema): { type: string }[] {
  const { pipe } = schema as { pipe?: (v.GenericSchema | { type: string })[] };
  if (!pipe) return [schema];
  return pipe.flatMap((item, index) => (index > 0 && 'pipe' in item ? flatPipe(item as v.GenericSchema) : [item]));
}

/** 429 (lockout, rate limit) and 503 (a dependency overloaded) tell the client when to try again. */
const RETRY_AFTER_HEADER = {
  description: 'Seconds to wait before trying again',
  required: true,
  schema: { type: 'integer', minimum: 0 },
};

/**
 * Whether a route reaches a dependency that can be overloaded (DynamoDB, SES,
 * KMS, the issuer's key set), and so can answer 503 UNAVAILABLE.
 */
function reachesDependency(route: RouteDef): boolean {
  return tableActionsOf(route).length > 0 || Boolean(route.ses || route.kms) || route.tenant === 'token';
}

/**
 * The OpenAPI 3.1 document of a route list. Every schema is converted from the
 * valibot schema the handler validates with, so the two cannot disagree; named
 * schemas become components and are referenced by `$ref`. Header parameters
 * and security schemes are listed only when some route uses them.
 */
export function buildOpenApi(
  routes: readonly RouteDef[],
  named: Record<string, v.GenericSchema>,
  info: OpenApiInfo,
  errors: OpenApiErrors = PROBLEM_ERRORS,
) {
  // OAuth's protocol endpoints (`oauth: true`) answer OAuth's error body, whatever the service's own is.
  const oauthUsed = routes.some((route) => route.oauth && !route.undocumented);
  const definitions = { ...named, [errors.name]: errors.schema, ...(oauthUsed ? { OAuthError } : {}) };
  const convert = (schema: v.GenericSchema) =>
    componentRefs(toJsonSchema(schema, { ...CONVERSION, definitions, typeMode: 'output' }));
  const parametersOf = (schema: v.GenericSchema | undefined, where: 'query' | 'path') => {
    if (!schema) return [];
    const json = componentRefs(toJsonSchema(schema, { ...CONVERSION, typeMode: 'input' }));
    const properties = (json.properties ?? {}) as Record<string, Json>;
    const required = new Set((json.required ?? []) as string[]);
    const entries = (schema as { entries?: Record<string, v.GenericSchema> }).entries ?? {};
    return Object.entries(properties).map(([name, propertySchema]) => {
      const entry = entries[name];
      return {
        name,
        in: where,
        required: where === 'path' || required.has(name),
        schema: (entry && numericStringParameter(entry)) ?? propertySchema,
      };
    });
  };
  const problem = (description: string) => ({
    description,
    content: { [errors.contentType]: { schema: { $ref: `#/components/schemas/${errors.name}` } } },
  });
  let retryAfterUsed = false;
  const retryable = (description: string) => {
    retryAfterUsed = true;
    return { ...problem(description), headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } };
  };
  // Problem bodies carry their code, so the description names the codes; other bodies get the status's name.
  const describeCodes = (codes: readonly ErrorCode[]) =>
    errors.responses === 'range' ? codes.join(', ') : (STATUS_CODES[ERRORS[codes[0] as ErrorCode]] ?? 'Error');
  const oauthProblem = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } },
  });
  const errorResponses = (route: RouteDef): Record<string, Json> => {
    const codes = route.errors ?? [];
    if (route.oauth) {
      // One response per status: OAuth's body names its error, not our code (RFC 6749 5.2, RFC 6750 3.1).
      const statuses = [...new Set(codes.map((code) => ERRORS[code]))].sort((a, b) => a - b);
      const responses: Record<string, Json> = Object.fromEntries(
        statuses.map((status) => {
          const names = [...new Set(codes.filter((c) => ERRORS[c] === status).map(oauthErrorName))];
          return [String(status), oauthProblem(`${STATUS_CODES[status] ?? 'Error'}: ${names.join(', ')}`)];
        }),
      );
      retryAfterUsed = true;
      responses['503'] = {
        ...oauthProblem('temporarily_unavailable: overloaded, try again after Retry-After'),
        headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
      };
      return responses;
    }
    const withStatus = (wanted: (status: number) => boolean) => codes.filter((code) => wanted(ERRORS[code]));
    const clientErrors = withStatus((status) => status < 500 && status !== 429);
    const tooMany = withStatus((status) => status === 429);
    const responses: Record<string, Json> = {};
    if (errors.responses === 'range') {
      if (codes.length > 0) {
        responses['4XX'] = problem(
          clientErrors.length > 0 ? `Client error: ${clientErrors.join(', ')} among others` : 'Client error',
        );
      }
    } else {
      const statuses = [...new Set(clientErrors.map((code) => ERRORS[code]))].sort((a, b) => a - b);
      for (const status of statuses) responses[String(status)] = problem(STATUS_CODES[status] ?? 'Error');
    }
    if (tooMany.length > 0) responses['429'] = retryable(`${describeCodes(tooMany)}: try again after Retry-After`);
    if (reachesDependency(route) || codes.some((code) => ERRORS[code] === 503)) {
      responses['503'] = retryable(`${describeCodes(['UNAVAILABLE'])}: overloaded, try again after Retry-After`);
    }
    return responses;
  };

  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    if (route.undocumented) continue;
    const parameters: Json[] = [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')];
    if (route.requiresOrigin) parameters.unshift({ $ref: '#/components/parameters/Origin' });
    if (route.tenant === 'headers') {
      parameters.unshift({ $ref: '#/components/parameters/AppId' }, { $ref: '#/components/parameters/MidKey' });
    }
    const success: Json =
      route.status === 204 || (route.oauth && !route.response)
        ? { description: route.status === 204 ? 'No content' : 'OK, no body' }
        : route.status === 302
          ? { description: 'Found: go where Location says', headers: { Location: LOCATION_HEADER } }
          : {
              description: 'OK',
              content: {
                'application/json': { schema: route.response ? convert(route.response) : { type: 'object' } },
              },
            };
    const bodyType = route.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
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
        ? { requestBody: { required: true, content: { [bodyType]: { schema: convert(route.body) } } } }
        : {}),
      responses: {
        [String(route.status)]: success,
        ...(route.alsoNoContent ? { '204': { description: 'No content' } } : {}),
        ...errorResponses(route),
        default: route.oauth ? oauthProblem('Error (OAuth 2.0)') : problem(errors.description),
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
  const origin = documented.some((route) => route.requiresOrigin);
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
    tags: tagsOf(documented, info.tags),
    paths,
    ...(info.webhooks ? { webhooks: webhooksOf(info.webhooks, convert) } : {}),
    components: {
      schemas: components,
      ...(tenantHeaders || origin
        ? {
            parameters: {
              ...(tenantHeaders ? TENANT_HEADER_PARAMETERS : {}),
              ...(origin ? { Origin: ORIGIN_PARAMETER } : {}),
            },
          }
        : {}),
      ...(retryAfterUsed ? { headers: { RetryAfter: RETRY_AFTER_HEADER } } : {}),
      securitySchemes: {
        ...(bearer ? { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } : {}),
        ...(apiKey ? { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } : {}),
      },
    },
  };
}

/** Every tag the documented routes use, in order of first use, with its description (one missing is an error). */
function tagsOf(routes: readonly RouteDef[], descriptions: Record<string, string>) {
  return [...new Set(routes.map((route) => route.tag))].map((name) => {
    const description = descriptions[name];
    if (!description) throw new Error(`OpenAPI tag "${name}" has no description: add it to the document's tags`);
    return { name, description };
  });
}

/** Where a redirect (authorize, end-session) sends the browser. */
const LOCATION_HEADER = { required: true, schema: { type: 'string' }, description: 'The URL to go to' };

/** OAuth 2.0's error body (RFC 6749 5.2), answered by the OpenID Provider's protocol endpoints. */
const OAuthError = v.object({
  error: v.pipe(v.string(), v.description('invalid_request, invalid_client, invalid_grant, invalid_token, …')),
  error_description: v.optional(v.string()),
});

/** The OAuth error name the service answers for one of its codes (shared/http/oauth-error.ts). */
const oauthErrorName = (code: ErrorCode) => oauthErrorOf(new AppError(code));

/** The Origin a browser sends, on routes that refuse a request without one. */
const ORIGIN_PARAMETER = {
  name: 'Origin',
  in: 'header',
  required: true,
  schema: { type: 'string' },
  description: "The page's origin; one of the tenant's allowed origins, else 403 ORIGIN_NOT_ALLOWED",
};

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
