import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { type JsonSchema, type OpenApiTypesSource, openApiTypes, typeOfSchema } from '#local/openapi-types.ts';
import { REPO_ROOT } from '#local/stack.ts';

const lines = (...text: string[]) => text.join('\n');

/** The text as Biome formats it in this repository (what `biome check` holds the committed file to). */
function biomeFormatted(text: string): string {
  return execFileSync(join(REPO_ROOT, 'node_modules/.bin/biome'), ['format', '--stdin-file-path=generated.ts'], {
    cwd: REPO_ROOT,
    input: text,
    encoding: 'utf8',
  });
}

describe('typeOfSchema', () => {
  it.each<[string, JsonSchema, string]>([
    ['a string', { type: 'string', minLength: 1 } as JsonSchema, 'string'],
    ['an integer as a number', { type: 'integer' }, 'number'],
    ['a boolean', { type: 'boolean' }, 'boolean'],
    ['null', { type: 'null' }, 'null'],
    ['a string const', { const: 'ok' }, "'ok'"],
    ['a boolean const', { const: true }, 'true'],
    ['an enum as a union of literals', { enum: ['A', "it's"], type: 'string' }, "'A' | 'it\\'s'"],
    ['anyOf as a union', { anyOf: [{ type: 'string' }, { type: 'null' }] }, 'string | null'],
    ['oneOf as a union', { oneOf: [{ type: 'string' }, { type: 'integer' }] }, 'string | number'],
    ['a list of types as a union', { type: ['string', 'null'] }, 'string | null'],
    ['nullable', { type: 'string', nullable: true }, 'string | null'],
    [
      'allOf as an intersection',
      { allOf: [{ $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/B' }] },
      "Schemas['A'] & Schemas['B']",
    ],
    ['a $ref to a component', { $ref: '#/components/schemas/User' }, "Schemas['User']"],
    ['an array', { type: 'array', items: { type: 'string' } }, 'string[]'],
    ['an array of a union', { type: 'array', items: { enum: ['a', 'b'] } }, "('a' | 'b')[]"],
    ['an array without items', { type: 'array' }, 'unknown[]'],
    ['a map', { type: 'object', additionalProperties: { type: 'integer' } }, 'Record<string, number>'],
    ['an open object without fields', { type: 'object' }, 'Record<string, unknown>'],
    [
      'a closed object without fields',
      { type: 'object', properties: {}, additionalProperties: false },
      'Record<string, never>',
    ],
    ['a schema it does not understand', { not: { type: 'string' } } as JsonSchema, 'unknown'],
    ['a union with an unknown member', { anyOf: [{ type: 'string' }, {}] }, 'unknown'],
  ])('%s', (_, schema, expected) => {
    expect(typeOfSchema(schema)).toBe(expected);
  });

  it('writes an object one member a line, optional unless required, with descriptions as doc comments', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        id: { type: 'string' },
        'content-type': { type: 'string', description: 'A key that is not an identifier' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['id'],
      additionalProperties: false,
    };
    expect(typeOfSchema(schema)).toBe(
      lines(
        '{',
        '  id: string;',
        '  /** A key that is not an identifier */',
        "  'content-type'?: string;",
        '  tags?: string[];',
        '}',
      ),
    );
  });

  it('gives an object with fields and additionalProperties an index signature', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: true,
    };
    expect(typeOfSchema(schema)).toBe(lines('{', '  a: string;', '  [key: string]: unknown;', '}'));
  });

  it('nests objects, and keeps an object beside null in place', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        data: {
          anyOf: [{ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }, { type: 'null' }],
        },
      },
      required: ['data'],
    };
    expect(typeOfSchema(schema)).toBe(lines('{', '  data: {', '    id: string;', '  } | null;', '}'));
  });
});

describe('openApiTypes', () => {
  const object = (properties: Record<string, JsonSchema>): JsonSchema => ({
    type: 'object',
    properties,
    required: Object.keys(properties),
  });
  const longEnum = Array.from({ length: 12 }, (_, i) => `VALUE_NUMBER_${i}`);
  const document: OpenApiTypesSource = {
    components: {
      schemas: {
        Item: object({ id: { type: 'string' }, kind: { enum: longEnum, type: 'string' } }),
        Page: object({
          items: { type: 'array', items: { $ref: '#/components/schemas/Item' } },
          next: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          shapes: {
            type: 'array',
            items: { oneOf: [object({ kind: { const: 'circle' } }), object({ kind: { const: 'square' } })] },
          },
          either: { anyOf: [object({ a: { type: 'string' } }), object({ b: { type: 'string' } })] },
          counts: { type: 'object', additionalProperties: { type: 'integer' } },
          both: { allOf: [{ $ref: '#/components/schemas/Item' }, object({ extra: { type: 'boolean' } })] },
          merged: { allOf: [object({ a: { type: 'string' } }), object({ b: { type: 'string' } })] },
        }),
      },
    },
    paths: {
      '/items': {
        get: {
          operationId: 'listItems',
          responses: {
            200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Page' } } } },
            '4XX': { content: { 'application/problem+json': { schema: object({ code: { type: 'string' } }) } } },
          },
        },
        post: {
          operationId: 'createItem',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } },
          responses: { 204: {} },
        },
      },
    },
  };
  const text = openApiTypes(document, '/** Generated for a test. */');

  it('declares the component schemas by name and each operation by its operationId', () => {
    expect(text).toContain("  Page: {\n    items: Schemas['Item'][];\n    next: string | null;");
    expect(text).toContain(
      lines(
        '  listItems: {',
        '    responses: {',
        "      200: Schemas['Page'];",
        "      '4XX': {",
        '        code: string;',
        '      };',
        '    };',
        '  };',
        '  createItem: {',
        "    body: Schemas['Item'];",
        '    responses: {',
        '      204: undefined;',
        '    };',
        '  };',
      ),
    );
    expect(text.startsWith('/** Generated for a test. */\n')).toBe(true);
  });

  it('comes out as Biome formats it, long unions and unions of objects included', () => {
    expect(text).toContain("    kind:\n      | 'VALUE_NUMBER_0'\n");
    expect(text).toContain('    shapes: (\n      | {\n');
    expect(biomeFormatted(text)).toBe(text);
  });

  it('is TypeScript whose types mean what the schemas say', () => {
    const checked = `${text}
const page: Schemas['Page'] = {
  items: [{ id: 'a', kind: 'VALUE_NUMBER_3' }],
  next: null,
  shapes: [{ kind: 'circle' }, { kind: 'square' }],
  either: { b: 'b' },
  counts: { a: 1 },
  both: { id: 'b', kind: 'VALUE_NUMBER_0', extra: true },
  merged: { a: 'a', b: 'b' },
};
// @ts-expect-error a kind the enum does not list
const wrong: Schemas['Item'] = { id: 'a', kind: 'OTHER' };
const created: Operations['createItem']['responses'][204] = undefined;
export { created, page, wrong };
`;
    // The few global types the compiler needs, rather than its whole library (seconds to load).
    const lib = `interface Array<T> { length: number; [n: number]: T }
interface Boolean {}
interface CallableFunction {}
interface Function {}
interface IArguments {}
interface NewableFunction {}
interface Number {}
interface Object {}
interface RegExp {}
interface String {}
type Record<K extends keyof any, T> = { [P in K]: T };
`;
    const options: ts.CompilerOptions = { strict: true, noEmit: true, noLib: true, types: [] };
    const host = ts.createCompilerHost(options);
    const files: Record<string, string> = { 'generated.ts': checked, 'lib.ts': lib };
    host.getSourceFile = (name, version) => {
      const source = files[name];
      return source === undefined ? undefined : ts.createSourceFile(name, source, version);
    };
    const program = ts.createProgram(['lib.ts', 'generated.ts'], options, host);
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  });
});
