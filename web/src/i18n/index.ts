import { DEFAULT_LANGUAGE, LANGUAGES, type Language, matchLanguage } from '../../../shared/i18n/languages.ts';
import type accountTexts from './en/account.ts';
import type bootTexts from './en/boot.ts';
import type consoleTexts from './en/console.ts';

export { DEFAULT_LANGUAGE, LANGUAGES, type Language };

/**
 * The pages' texts come in three parts, each loaded with the code that shows it and only in the language in use:
 * `boot` (every sign-in page and what all pages share), `account` and `console` (with their lazy chunks).
 */
export type Area = 'boot' | 'account' | 'console';

/** Every key of the pages' catalogues; the English texts are the reference every language matches. */
export type TextKey = keyof typeof bootTexts | keyof typeof accountTexts | keyof typeof consoleTexts;

/** A key with `.one` and `.other` forms (and any other plural category a language needs): said with a count. */
export type PluralKey = TextKey extends infer K ? (K extends `${infer Base}.other` ? Base : never) : never;

type Texts = Record<string, string>;
type Loader = () => Promise<{ default: Texts }>;

// One import() per file: Vite makes each a chunk of its own, fetched only when that language and part are used.
const LOADERS: Record<Language, Record<Area, Loader>> = {
  en: {
    boot: () => import('./en/boot.ts'),
    account: () => import('./en/account.ts'),
    console: () => import('./en/console.ts'),
  },
  de: {
    boot: () => import('./de/boot.ts'),
    account: () => import('./de/account.ts'),
    console: () => import('./de/console.ts'),
  },
};

/** The name of each language in itself, as the language menu lists it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch' };

let language: Language = DEFAULT_LANGUAGE;
let texts: Texts = {};
const loaded = new Set<Area>();

/** The language the pages are in now. */
export function currentLanguage(): Language {
  return language;
}

/** Loads a part of the catalogue in the language in use (once); the lazy pages wait for theirs before they show. */
export async function loadTexts(area: Area): Promise<void> {
  if (loaded.has(area)) return;
  const { default: part } = await LOADERS[language][area]();
  texts = { ...texts, ...part };
  loaded.add(area);
}

/** Switches the pages to `next`: every part loaded so far, in that language, before anything shows it. */
export async function switchLanguage(next: Language): Promise<void> {
  if (next === language && loaded.size > 0) return;
  const areas = loaded.size > 0 ? [...loaded] : (['boot'] as Area[]);
  const parts = await Promise.all(areas.map((area) => LOADERS[next][area]()));
  texts = Object.assign({}, ...parts.map((part) => part.default));
  language = next;
  loaded.clear();
  for (const area of areas) loaded.add(area);
  // The page says its language (screen readers, hyphenation, translation offers); a test in Node has no page.
  const page = (globalThis as { document?: { documentElement: { lang: string } } }).document;
  if (page) page.documentElement.lang = next;
}

/** Whether the catalogue in use has `key` (a key made at run time, such as a problem code's). */
export function hasText(key: string): key is TextKey {
  return Object.hasOwn(texts, key);
}

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

/**
 * The text of `key` in the language in use, each `{placeholder}` filled from `values` in one pass (a value holding
 * braces stays as it is). A key its part has not loaded shows as the key, which a journey would see.
 */
export function t(key: TextKey, values: Record<string, string | number> = {}): string {
  const text = texts[key] ?? key;
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

/** `{count}` said in the plural form its language uses for it (`key.one`, `key.other`). */
export function tn(key: PluralKey, count: number, values: Record<string, string | number> = {}): string {
  const category = new Intl.PluralRules(language).select(count);
  const form = `${key}.${category}`;
  return t((form in texts ? form : `${key}.other`) as TextKey, { count, ...values });
}

/**
 * A text with parts that are not text (a link, a bold name): each `{placeholder}` becomes its node, the rest stays
 * text. "Read the {terms}" with `{ terms: <a …>terms</a> }`. (Generic, so that this module needs no JSX types.)
 */
export function tx<Part>(key: TextKey, parts: Record<string, Part>): (string | Part)[] {
  const text = texts[key] ?? key;
  return text.split(/(\{[A-Za-z]+\})/).map((part) => {
    const name = /^\{([A-Za-z]+)\}$/.exec(part)?.[1];
    return name !== undefined && Object.hasOwn(parts, name) ? (parts[name] as Part) : part;
  });
}

/** Where the pages learn which language their reader wants (pageLanguage). */
export interface PageLanguageSources {
  /** The reader's own pick in the language menu, kept in this browser. */
  chosen: string | null;
  /** OpenID Connect `ui_locales`, from the app that sent the reader here. */
  uiLocales: string | null;
  /** The browser's languages (`navigator.languages`), the preferred first: what its `Accept-Language` says. */
  browser: readonly string[];
}

/**
 * The language the reader asked for, or null when nothing names one of ours (then the tenant's default applies):
 * their pick in the menu first (it is theirs, on this device), then the app's `ui_locales`, then the browser's.
 */
export function askedLanguage(sources: PageLanguageSources): Language | null {
  const named = [sources.chosen, sources.uiLocales].filter(Boolean).join(' ');
  return matchLanguage({ uiLocales: named || undefined, acceptLanguage: sources.browser.join(',') || undefined });
}

export function isLanguage(value: unknown): value is Language {
  return (LANGUAGES as readonly unknown[]).includes(value);
}
