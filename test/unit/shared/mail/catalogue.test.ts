import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '#shared/i18n/languages.ts';
import { fillText, MAIL_CATALOGUES } from '#shared/mail/catalogue.ts';
import { expectTranslationOf } from '#test/support/catalogue-parity.ts';

const english = MAIL_CATALOGUES.en;
const others = LANGUAGES.filter((language) => language !== 'en');

describe('the mail catalogues', () => {
  it.each(others)('%s has every key of the English catalogue and no other, each with its placeholders', (language) => {
    expectTranslationOf(english.texts, MAIL_CATALOGUES[language].texts);
  });

  it.each(LANGUAGES)('%s: no empty text, seven weekdays and twelve months', (language) => {
    const catalogue = MAIL_CATALOGUES[language];
    expect(Object.entries(catalogue.texts).filter(([, text]) => text.trim() === '')).toEqual([]);
    expect(new Set(catalogue.weekdays.filter(Boolean)).size).toBe(7);
    expect(new Set(catalogue.months.filter(Boolean)).size).toBe(12);
  });

  it('every key is rendered by the templates (a key no mail uses is left over)', () => {
    const templates = readFileSync(fileURLToPath(import.meta.resolve('#shared/mail/templates.ts')), 'utf8');
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
