import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '#shared/i18n/languages.ts';
import { fillText, MAIL_CATALOGUES, placeholdersOf } from '#shared/mail/catalogue.ts';

const english = MAIL_CATALOGUES.en;
const others = LANGUAGES.filter((language) => language !== 'en');

describe('the mail catalogues', () => {
  it.each(others)('%s has every key of the English catalogue, and no other', (language) => {
    const keys = Object.keys(MAIL_CATALOGUES[language].texts);
    const expected = Object.keys(english.texts);
    expect(
      expected.filter((key) => !keys.includes(key)),
      'missing',
    ).toEqual([]);
    expect(
      keys.filter((key) => !expected.includes(key)),
      'not in English',
    ).toEqual([]);
  });

  it.each(others)('%s: each text uses the placeholders its English text uses, no more, no fewer', (language) => {
    const texts = MAIL_CATALOGUES[language].texts as Record<string, string>;
    const mismatched = Object.entries(english.texts).flatMap(([key, text]) => {
      const expected = placeholdersOf(text);
      const found = placeholdersOf(texts[key] ?? '');
      return expected.join() === found.join() ? [] : [{ key, expected, found }];
    });
    expect(mismatched).toEqual([]);
  });

  it.each(LANGUAGES)('%s: no empty text, seven weekdays and twelve months', (language) => {
    const catalogue = MAIL_CATALOGUES[language];
    expect(Object.entries(catalogue.texts).filter(([, text]) => text.trim() === '')).toEqual([]);
    expect(new Set(catalogue.weekdays.filter(Boolean)).size).toBe(7);
    expect(new Set(catalogue.months.filter(Boolean)).size).toBe(12);
  });

  it('every key is rendered by the templates (a key no mail uses is left over)', () => {
    const templates = readFileSync(join(import.meta.dirname, '../../../../shared/mail/templates.ts'), 'utf8');
    expect(
      Object.keys(english.texts).filter((key) => !templates.includes(`'${key}'`) && !templates.includes(`.${key}`)),
    ).toEqual([]);
  });
});

describe('fillText', () => {
  it('fills each placeholder once, and leaves braces inside a value as they are', () => {
    expect(fillText('{name} and {name}: {code}', { name: 'Shop {code}', code: 7 })).toBe(
      'Shop {code} and Shop {code}: 7',
    );
  });

  it('throws on a placeholder without a value, even one named like an Object property', () => {
    expect(() => fillText('Hello {name}', {})).toThrow('{name}');
    expect(() => fillText('Hello {constructor}', {})).toThrow('{constructor}');
  });
});
