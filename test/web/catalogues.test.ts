import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '#shared/i18n/languages.ts';
import { expectTranslationOf } from '#test/support/catalogue-parity.ts';

/** The pages' catalogue parts (web/src/i18n/<language>/), each a file; boot.ts and console.ts only join parts. */
const I18N = join(import.meta.dirname, '../../web/src/i18n');
const JOINS = new Set(['boot.ts', 'console.ts']);
const PARTS = readdirSync(join(I18N, 'en')).filter((file) => file.endsWith('.ts') && !JOINS.has(file));
const OTHERS = LANGUAGES.filter((language) => language !== 'en');

async function part(language: string, file: string): Promise<Record<string, string>> {
  return (await import(join(I18N, language, file))).default;
}

describe.each(OTHERS)('the pages in %s', (language) => {
  it.each(PARTS)('%s has every key of the English part and no other, each with its placeholders', async (file) => {
    expectTranslationOf(await part('en', file), await part(language, file));
  });
});

describe('every language', () => {
  it.each(LANGUAGES)('%s: no empty text, and every counted text has its `.one` and `.other`', async (language) => {
    for (const file of PARTS) {
      const texts = await part(language, file);
      expect(Object.entries(texts).filter(([, text]) => text.trim() === '')).toEqual([]);
      for (const key of Object.keys(texts).filter((k) => k.endsWith('.one'))) {
        expect(texts, key).toHaveProperty([key.replace(/\.one$/, '.other')]);
      }
    }
  });

  it('no key is in two parts (joined, the later would hide the earlier)', async () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const file of PARTS) {
      for (const key of Object.keys(await part('en', file))) {
        if (seen.has(key)) twice.push(`${key} in ${seen.get(key)} and ${file}`);
        seen.set(key, file);
      }
    }
    expect(twice).toEqual([]);
  });

  it('every part is loaded: by the loader (i18n/index.ts) or by one of the joins it loads', () => {
    const loader = readFileSync(join(I18N, 'index.ts'), 'utf8');
    for (const language of LANGUAGES) {
      const joins = [...JOINS].map((file) => readFileSync(join(I18N, language, file), 'utf8')).join();
      for (const file of PARTS) {
        const loaded = loader.includes(`'./${language}/${file}'`) || joins.includes(`'./${file}'`);
        expect(loaded, `${language}/${file} is loaded`).toBe(true);
      }
    }
  });
});

/** Keys made at run time (a problem code's sentence, a wait, a field message, a password rule, a count). */
const MADE_AT_RUN_TIME = /^(problem|wait|predicate)\.|\.(one|other)$/;

describe('the English texts', () => {
  it('every key is used by the pages (a key no page uses is left over)', async () => {
    const sources = readSources(join(I18N, '..'));
    const unused: string[] = [];
    for (const file of PARTS) {
      for (const key of Object.keys(await part('en', file))) {
        if (MADE_AT_RUN_TIME.test(key)) continue;
        if (!sources.includes(`'${key}'`)) unused.push(key);
      }
    }
    expect(unused).toEqual([]);
  });
});

/** Every page's source, but the catalogues'. */
function readSources(dir: string): string {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.parentPath.includes('i18n'))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}
