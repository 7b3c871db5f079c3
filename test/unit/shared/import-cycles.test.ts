import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layering of shared/: its folders (and each file at its root) import one another's values without a cycle, so
 * that a leaf (the store, the errors, the lifetimes) never needs the domain above it. Type-only imports do not count:
 * they leave nothing at run time.
 */

const SHARED = join(import.meta.dirname, '../../../shared');

/** Folders still in one cycle, to be taken apart: none may join them, and no other cycle may form. */
const KNOWN_CYCLE = ['auth', 'roles', 'sessions', 'users'];

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

/** The units' import graph, and its strongly connected components of more than one unit (Tarjan). */
function cycles(): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const file of sourceFiles(SHARED)) {
    const from = unitOf(file);
    for (const target of valueImports(file)) {
      if (relative(SHARED, target).startsWith('..')) continue;
      const to = unitOf(target);
      if (to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
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

describe("shared/'s import layering", () => {
  it('has no value-import cycle between its folders but the one being taken apart, and that one grows no wider', () => {
    const found = cycles();
    expect(found.length, JSON.stringify(found)).toBeLessThanOrEqual(1);
    for (const component of found) expect(KNOWN_CYCLE).toEqual(expect.arrayContaining(component));
  });

  it('sees a cycle where there is one: the store, the errors and deps.ts are no part of any', () => {
    const inCycles = cycles().flat();
    expect(inCycles).toEqual(expect.arrayContaining(['auth', 'users']));
    for (const leaf of ['store', 'errors.ts', 'lifetimes.ts', 'deps.ts', 'http', 'tenancy', 'activity']) {
      expect(inCycles).not.toContain(leaf);
    }
  });
});
