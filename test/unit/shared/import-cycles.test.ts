import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layering of shared/: its folders (and each file at its root) import one another's values without a cycle, so
 * that a leaf (the store, the errors, the lifetimes) never needs the domain above it. Type-only imports do not count:
 * they leave nothing at run time.
 */

const SHARED = join(import.meta.dirname, '../../../shared');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The folder of shared/ a file is in, or the file's own name at shared/'s root. */
const unitOf = (path: string) => relative(SHARED, path).split(sep)[0] as string;

/** `import … from '…'` and `export … from '…'` that bring values, not only types. */
const IMPORT = /^(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+'([^']+)';/gms;

function valueImports(path: string): string[] {
  const targets: string[] = [];
  for (const [, typeOnly, names, specifier] of readFileSync(path, 'utf8').matchAll(IMPORT)) {
    if (typeOnly || !specifier?.startsWith('.')) continue;
    const named = /^\{([^}]*)\}$/.exec(names?.trim() ?? '')?.[1];
    const items = named
      ?.split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    if (items?.every((item) => item.startsWith('type '))) continue;
    targets.push(normalize(join(dirname(path), specifier)));
  }
  return targets;
}

type Graph = Map<string, Set<string>>;

/** The units' value-import graph. */
function importGraph(): Graph {
  const edges: Graph = new Map();
  for (const file of sourceFiles(SHARED)) {
    const from = unitOf(file);
    for (const target of valueImports(file)) {
      if (relative(SHARED, target).startsWith('..')) continue;
      const to = unitOf(target);
      if (to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  return edges;
}

/** A graph's strongly connected components of more than one unit (Tarjan). */
function cycles(edges: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (unit: string) => {
    index.set(unit, index.size);
    low.set(unit, index.get(unit) as number);
    stack.push(unit);
    for (const next of edges.get(unit) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(unit, Math.min(low.get(unit) as number, low.get(next) as number));
      } else if (stack.includes(next)) {
        low.set(unit, Math.min(low.get(unit) as number, index.get(next) as number));
      }
    }
    if (low.get(unit) === index.get(unit)) {
      const component: string[] = [];
      for (let top = stack.pop(); top !== undefined; top = top === unit ? undefined : stack.pop()) component.push(top);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const unit of edges.keys()) if (!index.has(unit)) visit(unit);
  return found;
}

const graphOf = (edges: Record<string, string[]>): Graph =>
  new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]));

describe("shared/'s import layering", () => {
  it('has no value-import cycle between its folders', () => {
    expect(cycles(importGraph())).toEqual([]);
  });

  it('keeps the user record below sign-in, and self-service and administration above it', () => {
    const edges = importGraph();
    for (const low of ['store', 'errors.ts', 'lifetimes.ts', 'roles', 'users', 'sessions']) {
      for (const high of ['auth', 'account', 'admin', 'oidc']) expect(edges.get(low) ?? new Set()).not.toContain(high);
    }
    expect(edges.get('account')).toContain('auth');
  });

  it('finds a cycle where there is one, through any number of folders, and not in a chain', () => {
    expect(cycles(graphOf({ auth: ['users'], users: ['auth'] }))).toEqual([['auth', 'users']]);
    expect(cycles(graphOf({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] }))).toEqual([['a', 'b', 'c']]);
    expect(cycles(graphOf({ a: ['b'], b: ['c'], d: ['a', 'c'] }))).toEqual([]);
  });
});
