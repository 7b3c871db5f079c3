import type { Language } from '../i18n/languages.ts';
import { de } from './catalogues/de.ts';
import { en, type MailTextKey } from './catalogues/en.ts';

export type { MailTextKey };

/** The words of the mails in one language. */
export interface MailCatalogue {
  /** Sunday first, as `Date.getUTCDay` counts. */
  weekdays: readonly [string, string, string, string, string, string, string];
  /** January first. */
  months: readonly [string, string, string, string, string, string, string, string, string, string, string, string];
  /** Each text by its key; `{placeholder}`s are filled when a mail is rendered (fillText). */
  texts: Record<MailTextKey, string>;
}

/** One catalogue per language, each with every key of the English one (test/unit/shared/mail/catalogue.test.ts). */
export const MAIL_CATALOGUES: Record<Language, MailCatalogue> = { en, de };

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

/** The placeholders a text uses, each once, sorted. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1] as string))].sort();
}

/**
 * `text` with each `{placeholder}` replaced by its value, in one pass: a value that itself holds braces (a
 * tenant named `{code}`) stays as it is. A placeholder without a value is a programming error, and throws.
 */
export function fillText(text: string, values: Record<string, string | number>): string {
  return text.replace(PLACEHOLDER, (_, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value === undefined) throw new Error(`mail text: no value for {${name}}`);
    return String(value);
  });
}
