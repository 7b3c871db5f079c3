import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The repository stands alone: its code, comments and documents point at nothing outside it. A rule a comment leans
 * on is stated in the comment or in docs/, never in a document a newcomer does not have, and a reason is said in
 * words, not as an issue number.
 */

const ROOT = join(import.meta.dirname, '../../..');

/** The folders whose every file is read, and the documents at the root and beside the code. */
const FOLDERS = ['shared', 'functions', 'infra', 'local', 'client/src', 'web/src', 'docs', 'test', 'bench'];
const DOCUMENTS = ['README.md', 'CONTRIBUTING.md', 'client/README.md'];

/** A committed benchmark report, written by `npm run bench` (with bench/NOTES.md as it was then): the next run redoes it. */
const GENERATED = ['bench/RESULTS.md'];

const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'cdk.out']);
const TEXT_FILE = /\.(ts|tsx|mjs|js|css|md|sh|json|html)$/;

/** What points outside: the contract document that is not in the tree, and issue numbers. */
const OUTSIDE = [
  { what: 'the contract document', pattern: /CONTRACT\.md/ },
  { what: 'an issue number', pattern: /\bissues? #?\d+/i },
  { what: 'a path outside the repository', pattern: /\.\.\/shared\/(?:CONTRACT|security-review|style-review)/ },
  { what: 'a review finding', pattern: /\b(?:security|style) review\b/i },
];

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return SKIPPED_DIRECTORIES.has(entry.name) ? [] : filesUnder(join(dir, entry.name));
    return TEXT_FILE.test(entry.name) ? [join(dir, entry.name)] : [];
  });
}

/** This file names what it looks for. */
const SELF = relative(ROOT, import.meta.filename);

const files = [
  ...FOLDERS.flatMap((folder) => filesUnder(join(ROOT, folder))),
  ...DOCUMENTS.map((document) => join(ROOT, document)),
]
  .map((path) => relative(ROOT, path))
  .filter((path) => path !== SELF && !GENERATED.includes(path));

/** Each line of `path` that points outside, as `path:line: what`. */
function outsideReferences(path: string): string[] {
  const lines = readFileSync(join(ROOT, path), 'utf8').split('\n');
  return lines.flatMap((line, index) =>
    OUTSIDE.filter(({ pattern }) => pattern.test(line)).map(({ what }) => `${path}:${index + 1}: ${what}`),
  );
}

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(document: string): Set<string> {
  const text = readFileSync(join(ROOT, document), 'utf8');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map(([, heading]) => anchorOf(heading ?? '')));
}

describe('the repository stands alone', () => {
  it('reads the folders and documents it guards', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('README.md');
    expect(files).toContain('docs/http.md');
  });

  it('mentions no CONTRACT.md, issue number or review finding in code, comments or documents', () => {
    const found = files.flatMap(outsideReferences);
    expect(found).toEqual([]);
  });

  it('points only at sections of docs/ that exist', () => {
    const anchors = new Map<string, Set<string>>();
    const broken: string[] = [];
    for (const path of files) {
      const text = readFileSync(join(ROOT, path), 'utf8');
      for (const [reference, page, anchor] of text.matchAll(/docs\/([\w-]+\.md)(?:#([\w-]+))?/g)) {
        const document = `docs/${page}`;
        if (!existsSync(join(ROOT, document))) {
          broken.push(`${path}: ${reference}`);
          continue;
        }
        if (anchor === undefined) continue;
        if (!anchors.has(document)) anchors.set(document, anchorsOf(document));
        if (!anchors.get(document)?.has(anchor)) broken.push(`${path}: ${reference}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
