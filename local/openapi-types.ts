/**
 * TypeScript types from an OpenAPI 3.1 document's JSON Schemas, so that the client SDK declares the service's
 * bodies by reading the document rather than by copying them. `npm run openapi` writes the result next to the
 * SDK's sources; a unit test keeps the committed file current.
 *
 * It understands the part of JSON Schema the document uses: objects (required or optional properties,
 * `additionalProperties` as an index signature or a Record), arrays, `const` and `enum`, unions (`anyOf`,
 * `oneOf`, a list of `type`s), intersections (`allOf`), `nullable`, and `$ref` to the document's component
 * schemas. Validation keywords (lengths, patterns, formats, bounds) have no type and are left out; a schema it
 * does not understand becomes `unknown`, never a guess. The text comes out as Biome formats it, so that the
 * committed file passes `biome check` unchanged.
 */

/** A JSON Schema, as the document writes one. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  description?: string;
}

interface MediaType {
  schema?: JsonSchema;
}

interface Operation {
  operationId?: string;
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}

/** The parts of an OpenAPI document the types are made from. */
export interface OpenApiTypesSource {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** The name component schemas are reached by in the generated text: `Schemas['User']`. */
const SCHEMAS = 'Schemas';
const COMPONENT_REF = '#/components/schemas/';
const INDENT = '  ';
const LINE_WIDTH = 120;

/**
 * A type, as the lines Biome would print it at `indent`: one line when it fits, else an opening line, inner
 * lines, and a closing line. `inline` is the single-line form, when there is one.
 */
interface Printed {
  inline?: string;
  /** The multi-line form for a type at indentation `indent`, its first line starting where the caller puts it. */
  block: (indent: string) => string[];
  /** A union of several members: needs parentheses before `[]`. */
  union?: boolean;
}

const word = (text: string): Printed => ({ inline: text, block: () => [text] });

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const quote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
const keyOf = (name: string) => (identifier.test(name) || /^(0|[1-9][0-9]*)$/.test(name) ? name : quote(name));

function literal(value: unknown): Printed {
  if (typeof value === 'string') return word(quote(value));
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return word(String(value));
  return word('unknown');
}

function refName(ref: string): string {
  if (!ref.startsWith(COMPONENT_REF)) throw new Error(`Only component schema references are understood: ${ref}`);
  return ref.slice(COMPONENT_REF.length);
}

function union(members: Printed[]): Printed {
  const unique = members.filter(
    (m, i) => m.inline === undefined || members.findIndex((o) => o.inline === m.inline) === i,
  );
  if (unique.length === 1) return unique[0] as Printed;
  if (unique.some((m) => m.inline === 'unknown')) return word('unknown');
  const inline = unique.every((m) => m.inline !== undefined)
    ? unique.map((m) => (m.union ? `(${m.inline})` : m.inline)).join(' | ')
    : undefined;
  const broken = unique.filter((m) => m.inline === undefined);
  const onlyEmpty = unique.every((m) => m.inline === undefined || m.inline === 'null' || m.inline === 'undefined');
  if (broken.length === 1 && onlyEmpty && !broken[0]?.union) {
    // One object with null (or undefined) beside it: Biome keeps the object in place and the rest after it.
    const object = broken[0] as Printed;
    const index = unique.indexOf(object);
    const before = unique
      .slice(0, index)
      .map((m) => `${m.inline} | `)
      .join('');
    const after = unique
      .slice(index + 1)
      .map((m) => ` | ${m.inline}`)
      .join('');
    return {
      block: (indent) => {
        const lines = object.block(indent);
        return [`${before}${lines[0]}`, ...lines.slice(1, -1), `${lines.at(-1)}${after}`];
      },
    };
  }
  return {
    inline,
    union: true,
    // Biome's long union: each member on its own line after a leading `|`, objects indented past the bar.
    block: (indent) =>
      unique.flatMap((m) => {
        const [first, ...rest] = m.inline !== undefined ? [m.inline] : m.block(`${indent}${INDENT}`);
        return [`| ${first}`, ...rest.map((line) => `${INDENT}${line}`)];
      }),
  };
}

function intersection(members: Printed[]): Printed {
  if (members.length === 1) return members[0] as Printed;
  const inline = members.every((m) => m.inline !== undefined)
    ? members.map((m) => (m.union ? `(${m.inline})` : m.inline)).join(' & ')
    : undefined;
  return {
    inline,
    // Biome keeps each part in place, joined on the line where the one before it ends: `A & {`, `} & {`.
    block: (indent) =>
      members.reduce<string[]>((lines, m) => {
        const [first, ...rest] = blockOf(m.union ? word(`(${m.inline})`) : m, indent);
        if (lines.length === 0) return [first as string, ...rest];
        return [...lines.slice(0, -1), `${lines.at(-1)} & ${first}`, ...rest];
      }, []),
  };
}

function blockOf(printed: Printed, indent: string): string[] {
  return printed.inline !== undefined ? [printed.inline] : printed.block(indent);
}

function arrayOf(item: Printed): Printed {
  return {
    inline: item.inline === undefined ? undefined : item.union ? `(${item.inline})[]` : `${item.inline}[]`,
    // Too long for a line: an object's lines with `[]` after its brace, a union's members in parentheses.
    block: (indent) => {
      if (!item.union) {
        const lines = item.block(indent);
        return [...lines.slice(0, -1), `${lines.at(-1)}[]`];
      }
      return ['(', ...item.block(`${indent}${INDENT}`).map((line) => `${INDENT}${line}`), ')[]'];
    },
  };
}

function docLines(description: string | undefined): string[] {
  if (!description) return [];
  const text = description.replaceAll('*/', '*\\/');
  return [`/** ${text} */`];
}

interface Member {
  doc: string[];
  head: string;
  type: Printed;
}

/**
 * An object type: always one member a line (as written, Biome keeps an object broken once it is). A member whose
 * type is too long for its line is broken the way Biome breaks it: a union below its key, an object in place.
 */
function objectOf(members: Member[]): Printed {
  return {
    block: (indent) => {
      const inner = `${indent}${INDENT}`;
      const lines = members.flatMap((m) => {
        const doc = m.doc.map((line) => `${INDENT}${line}`);
        const one = m.type.inline !== undefined ? `${inner}${m.head}: ${m.type.inline};` : undefined;
        if (one !== undefined && one.length <= LINE_WIDTH) return [...doc, `${INDENT}${m.head}: ${m.type.inline};`];
        if (m.type.union) {
          const body = m.type.block(`${inner}${INDENT}`).map((line) => `${INDENT}${INDENT}${line}`);
          return [...doc, `${INDENT}${m.head}:`, ...body.slice(0, -1), `${body.at(-1)};`];
        }
        const [first, ...rest] = m.type.block(inner);
        if (rest.length === 0) return [...doc, `${INDENT}${m.head}: ${first};`];
        const body = rest.map((line) => `${INDENT}${line}`);
        return [...doc, `${INDENT}${m.head}: ${first}`, ...body.slice(0, -1), `${body.at(-1)};`];
      });
      return ['{', ...lines, '}'];
    },
  };
}

function recordOf(value: Printed): Printed {
  if (value.inline !== undefined) return word(`Record<string, ${value.inline}>`);
  return {
    block: (indent) => {
      const lines = value.block(indent);
      return [`Record<string, ${lines[0]}`, ...lines.slice(1, -1), `${lines.at(-1)}>`];
    },
  };
}

function printObject(schema: JsonSchema): Printed {
  const properties = Object.entries(schema.properties ?? {});
  const extra = schema.additionalProperties;
  const extraType = extra === true ? word('unknown') : typeof extra === 'object' ? print(extra) : undefined;
  if (properties.length === 0) {
    if (extraType) return recordOf(extraType);
    // `{ type: 'object' }` says nothing of its fields; with `additionalProperties: false` it has none.
    return word(extra === false ? 'Record<string, never>' : 'Record<string, unknown>');
  }
  const required = new Set(schema.required ?? []);
  const members: Member[] = properties.map(([name, property]) => ({
    doc: docLines(property.description),
    head: `${keyOf(name)}${required.has(name) ? '' : '?'}`,
    type: print(property),
  }));
  if (extraType) members.push({ doc: [], head: '[key: string]', type: extraType });
  return objectOf(members);
}

const PRIMITIVES: Record<string, string> = {
  string: 'string',
  number: 'number',
  integer: 'number',
  boolean: 'boolean',
  null: 'null',
};

function printOfType(type: string, schema: JsonSchema): Printed {
  if (type === 'object') return printObject(schema);
  if (type === 'array') return arrayOf(schema.items ? print(schema.items) : word('unknown'));
  return word(PRIMITIVES[type] ?? 'unknown');
}

/** The type of one schema. */
function print(schema: JsonSchema): Printed {
  const printed = printBare(schema);
  return schema.nullable ? union([printed, word('null')]) : printed;
}

function printBare(schema: JsonSchema): Printed {
  if (schema.$ref !== undefined) return word(`${SCHEMAS}[${quote(refName(schema.$ref))}]`);
  if ('const' in schema) return literal(schema.const);
  if (schema.enum) return union(schema.enum.map(literal));
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return union(alternatives.map(print));
  if (schema.allOf) return intersection(schema.allOf.map(print));
  if (Array.isArray(schema.type)) return union(schema.type.map((type) => printOfType(type, schema)));
  if (schema.type !== undefined) return printOfType(schema.type, schema);
  if (schema.properties) return printObject(schema);
  return word('unknown');
}

/** The TypeScript type of `schema`, as Biome prints it at the top level (for tests and small uses). */
export function typeOfSchema(schema: JsonSchema): string {
  return blockOf(print(schema), '').join('\n');
}

/** The JSON body of a request or answer: JSON first, else the one media type there is; none is `undefined`. */
function bodyOf(content: Record<string, MediaType> | undefined): Printed {
  const media = content?.['application/json'] ?? Object.values(content ?? {})[0];
  return media?.schema ? print(media.schema) : word('undefined');
}

function operationsOf(document: OpenApiTypesSource): Member[] {
  const operations = Object.values(document.paths ?? {}).flatMap((methods) => Object.values(methods));
  return operations.flatMap((operation) => {
    if (!operation.operationId) return [];
    const members: Member[] = [];
    if (operation.requestBody) members.push({ doc: [], head: 'body', type: bodyOf(operation.requestBody.content) });
    const responses = Object.entries(operation.responses ?? {}).map(([status, response]) => ({
      doc: [],
      head: keyOf(status),
      type: bodyOf(response.content),
    }));
    members.push({ doc: [], head: 'responses', type: responses.length ? objectOf(responses) : word('{}') });
    return [{ doc: [], head: keyOf(operation.operationId), type: objectOf(members) }];
  });
}

function declaration(doc: string, name: string, members: Member[]): string[] {
  const [, ...lines] = objectOf(members).block('');
  return [`/** ${doc} */`, `export interface ${name} {`, ...lines];
}

/**
 * The generated module: `Schemas`, the component schemas by name, and `Operations`, each documented operation by
 * its operationId with its request `body` (when it takes one) and its `responses` by status. `header` opens the
 * file (say there what made it).
 */
export function openApiTypes(document: OpenApiTypesSource, header: string): string {
  const schemas = Object.entries(document.components?.schemas ?? {}).map(([name, schema]) => ({
    doc: docLines(schema.description),
    head: keyOf(name),
    type: print(schema),
  }));
  return [
    header,
    '',
    ...declaration('The component schemas of the document, by name.', SCHEMAS, schemas),
    '',
    ...declaration(
      "Each operation by its operationId: the request body it takes (if any) and its answers' bodies by status (`undefined`: no body).",
      'Operations',
      operationsOf(document),
    ),
    '',
  ].join('\n');
}

/** Where `npm run openapi` writes the client SDK's wire types, from the repository's root. */
export const CLIENT_WIRE_TYPES = 'client/src/wire-types.ts';

/** The text of the client SDK's wire types, from the identity service's document as openapi.json holds it. */
export function clientWireTypes(document: OpenApiTypesSource): string {
  return openApiTypes(
    document,
    [
      '/**',
      ' * Generated by `npm run openapi` (local/write-openapi.ts) from openapi.json: do not edit. The bodies the',
      " * identity service takes and answers, as its document describes them; types.ts gives them the SDK's names.",
      ' */',
    ].join('\n'),
  );
}
