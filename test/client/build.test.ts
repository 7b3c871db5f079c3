import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLIENT_BUNDLE, CLIENT_DIR, CLIENT_DIST } from './support/paths.ts';

/** Module specifiers of `import … from`, `export … from` and `import(…)`. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:^|[\s;])(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g)) {
    if (match[1]) found.push(match[1]);
  }
  for (const match of source.matchAll(/(?:^|[\s;])import\s*(?:\(\s*)?['"]([^'"]+)['"]/g)) {
    if (match[1]) found.push(match[1]);
  }
  return found;
}

describe('the client build (npm run build:client)', () => {
  it('writes one ESM file with valibot bundled in and no imports at all', () => {
    const bundle = readFileSync(CLIENT_BUNDLE, 'utf8');
    expect(specifiers(bundle)).toEqual([]);
    expect(bundle).not.toMatch(/\brequire\(/);
    expect(bundle).toMatch(/^export \{/m);
    // valibot's code is inside, not imported
    expect(bundle).toContain('function safeParse(');
    expect(bundle).toContain('function strictObject(');
  });

  it('Node imports the same file and finds the whole surface', async () => {
    const sdk = await import(pathToFileURL(CLIENT_BUNDLE).href);
    for (const name of ['IdentityClient', 'ApiError', 'hasRoles', 'pageUsers', 'formSchemas']) {
      expect(sdk[name], name).toBeDefined();
    }
    expect(Object.keys(sdk.formSchemas)).toEqual(
      expect.arrayContaining(['profile', 'changePassword', 'totpCode', 'merchantColours']),
    );
    const client = new sdk.IdentityClient({
      baseUrl: 'http://localhost:3000/api/v1',
      fetch: async () => new Response('{}'),
    });
    expect(client.tenant).toBeNull();
  });

  it('writes declarations that refer to nothing outside client/ but valibot', () => {
    const declarations = readdirSync(CLIENT_DIST).filter((file) => file.endsWith('.d.ts'));
    expect(declarations).toContain('index.d.ts');
    for (const file of declarations) {
      for (const specifier of specifiers(readFileSync(resolve(CLIENT_DIST, file), 'utf8'))) {
        expect(specifier === 'valibot' || /^\.\/[a-z-]+\.js$/.test(specifier), `${file}: ${specifier}`).toBe(true);
      }
    }
    const index = readFileSync(resolve(CLIENT_DIST, 'index.d.ts'), 'utf8');
    for (const name of ['IdentityClient', 'ApiError', 'hasRoles', 'pageUsers', 'formSchemas', 'CookieStore']) {
      expect(index).toContain(name);
    }
  });

  it('is a publishable package: ESM, exports and types in dist, valibot and the WebAuthn helper its dependencies, Node 20+', () => {
    const pkg = JSON.parse(readFileSync(resolve(CLIENT_DIR, 'package.json'), 'utf8'));
    expect(pkg.type).toBe('module');
    expect(pkg.exports['.']).toMatchObject({ types: './dist/index.d.ts', import: './dist/index.js' });
    // Both bundled into dist, and named for what a consumer's bundler resolves from the types.
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['@simplewebauthn/browser', 'valibot']);
    expect(pkg.devDependencies).toBeUndefined();
    expect(pkg.engines.node).toBe('>=20');
    const readme = readFileSync(resolve(CLIENT_DIR, 'README.md'), 'utf8');
    expect(readme).toContain('client.login(');
    expect(readme).toContain('client.signInWithPasskey(');
  });
});
