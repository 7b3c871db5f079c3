import { expect } from 'vitest';
import { placeholdersOf } from '#shared/mail/catalogue.ts';

/**
 * A translation holds every key of the English texts and no other, and each text the placeholders of its English
 * one, no more, no fewer (the mails' catalogues and the pages' alike).
 */
export function expectTranslationOf(english: Record<string, string>, texts: Record<string, string>): void {
  const expected = Object.keys(english);
  const keys = Object.keys(texts);
  expect(
    expected.filter((key) => !keys.includes(key)),
    'missing',
  ).toEqual([]);
  expect(
    keys.filter((key) => !expected.includes(key)),
    'not in English',
  ).toEqual([]);
  const mismatched = Object.entries(english).flatMap(([key, text]) => {
    const wanted = placeholdersOf(text);
    const found = placeholdersOf(texts[key] ?? '');
    return wanted.join() === found.join() ? [] : [{ key, expected: wanted, found }];
  });
  expect(mismatched, 'placeholders').toEqual([]);
}
