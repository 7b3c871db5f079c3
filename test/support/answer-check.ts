import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/**
 * Checks HTTP answers against an OpenAPI 3.1 document: the operation by
 * method and path template, the response by exact status, else its `4XX` /
 * `5XX` range, else `default`; then the media type, the JSON body (JSON
 * Schema 2020-12, with the document's components) and the required headers.
 */

/** One answer as recorded: the path is relative to the service's base URL, without the query. */
export interface RecordedAnswer {
  method: string;
  path: string;
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

type Json = Record<string, any>;

export interface AnswerChecker {
  /** What is wrong with the answer, one line each; empty when it is as documented. */
  check(answer: RecordedAnswer): string[];
  /** The documented path the answer's path matches (`/users/{id}`), if any. */
  templateOf(answer: RecordedAnswer): string | undefined;
}

// ajv-formats is CommonJS: its function is the default export's default under NodeNext.
const addFormats = (addFormatsModule as unknown as { default: typeof addFormatsModule.default }).default;

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  /** Literal segments first, so that `/users/me` wins over `/users/{id}`. */
  literals: number;
  responses: Json;
}

/**
 * @param document an OpenAPI 3.1 document (its paths relative to the service's base URL)
 * @param genericProblem the component that answers to paths the document does not list are checked
 *   against when they are `application/problem+json` (CORS preflight, an unmatched path); none: unchecked
 */
export function answerChecker(document: Json, genericProblem?: string): AnswerChecker {
  const schemaId = `urn:openapi:${encodeURIComponent(document.info?.title ?? 'api')}`;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  // The components become one schema's $defs, which every body schema references.
  const toDefs = (schema: unknown, prefix: string) =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${prefix}#/$defs/`));
  ajv.addSchema({ $id: schemaId, $defs: toDefs(document.components?.schemas ?? {}, '') });
  const compiled = new Map<unknown, ValidateFunction>();
  const validatorOf = (schema: unknown) => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(toDefs(schema, schemaId));
      compiled.set(schema, validate);
    }
    return validate;
  };
  const resolve = (value: Json): Json => {
    if (typeof value?.$ref !== 'string') return value;
    const pointer = (value.$ref as string).replace(/^#\//, '').split('/');
    return resolve(
      pointer.reduce<Json>((node, key) => node?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], document),
    );
  };

  const operations: Operation[] = Object.entries(document.paths ?? {})
    .flatMap(([template, item]) =>
      Object.entries(item as Json).map(([method, operation]) => {
        const segments = template.split('/');
        const source = segments.map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&')));
        return {
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${source.join('/')}$`),
          literals: segments.filter((s) => !s.startsWith('{')).length,
          responses: (operation as Json).responses ?? {},
        };
      }),
    )
    .sort((a, b) => b.literals - a.literals);

  const bodyErrors = (schema: unknown, answer: RecordedAnswer): string[] => {
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return [`body is not JSON: ${answer.body.slice(0, 80)}`];
    }
    const validate = validatorOf(schema);
    return validate(body) ? [] : (validate.errors ?? []).map(describeSchemaError);
  };

  const operationOf = (answer: RecordedAnswer) =>
    operations.find((op) => op.method === answer.method && op.pattern.test(answer.path));

  return {
    templateOf: (answer) => operationOf(answer)?.template,
    check(answer) {
      const mediaType = (answer.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      const operation = operationOf(answer);
      if (!operation) {
        if (mediaType !== 'application/problem+json' || !genericProblem) return [];
        return bodyErrors({ $ref: `#/components/schemas/${genericProblem}` }, answer);
      }
      const { responses } = operation;
      const found =
        responses[String(answer.status)] ?? responses[`${Math.floor(answer.status / 100)}XX`] ?? responses.default;
      if (!found) return [`status ${answer.status} is not documented`];
      const response = resolve(found);
      const problems: string[] = [];
      for (const [name, reference] of Object.entries((response.headers ?? {}) as Json)) {
        const header = resolve(reference);
        const value = answer.headers[name.toLowerCase()];
        if (value === undefined) {
          if (header.required) problems.push(`header ${name} is missing`);
          continue;
        }
        const type = header.schema?.type;
        const typed =
          type === 'integer' || type === 'number' ? (/^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value) : value;
        if (header.schema && !validatorOf(header.schema)(typed)) {
          problems.push(`header ${name}: ${JSON.stringify(value)} is not ${JSON.stringify(header.schema)}`);
        }
      }
      const content = (response.content ?? {}) as Json;
      if (Object.keys(content).length === 0) {
        if (answer.body !== '') problems.push('a body where the document has none');
        return problems;
      }
      const media = content[mediaType];
      if (!media) {
        problems.push(
          `content-type ${answer.headers['content-type'] ?? '(none)'}, documented: ${Object.keys(content)}`,
        );
        return problems;
      }
      if (media.schema && /[/+]json$/.test(mediaType)) problems.push(...bodyErrors(media.schema, answer));
      return problems;
    },
  };
}

/** `/data/user/emailStatus must be equal to one of the allowed values (VALIDATED, …)` */
function describeSchemaError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const detail =
    params.allowedValues !== undefined
      ? ` (${(params.allowedValues as unknown[]).join(', ')})`
      : params.additionalProperty !== undefined
        ? ` (${params.additionalProperty})`
        : params.allowedValue !== undefined
          ? ` (${JSON.stringify(params.allowedValue)})`
          : '';
  return `body${error.instancePath} ${error.message}${detail}`;
}
