import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseLanguage, LANGUAGES, type Language } from '#shared/i18n/languages.ts';

const byHeader = (acceptLanguage: string | undefined, fallback: Language = 'en') =>
  chooseLanguage({ acceptLanguage, fallback });

describe('chooseLanguage: Accept-Language', () => {
  it.each([
    ['de-DE,de;q=0.9', 'de'],
    ['de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7', 'de'],
    ['en', 'en'],
    ['en-GB,en;q=0.9,de;q=0.8', 'en'],
    ['de-AT', 'de'],
    ['de-CH-1996', 'de'],
    ['DE-at', 'de'],
    ['fr-FR,fr;q=0.9,de;q=0.5,en;q=0.4', 'de'],
    ['en;q=0.5, de;q=0.8', 'de'],
    ['de ; q=0.6 , en ; Q=0.7', 'en'],
  ])('%s → %s', (header, expected) => {
    expect(byHeader(header)).toBe(expected);
  });

  it('takes the fallback when the header is missing, empty, or names none of ours', () => {
    for (const header of [undefined, '', 'fr', 'fr-FR,es;q=0.9', 'gsw', 'x-private', 'i-klingon']) {
      expect(byHeader(header, 'en'), String(header)).toBe('en');
      expect(byHeader(header, 'de'), String(header)).toBe('de');
    }
  });

  it('of equal weights, takes the one named first', () => {
    expect(byHeader('en, de')).toBe('en');
    expect(byHeader('de, en')).toBe('de');
    expect(byHeader('de;q=0.5, en;q=0.5')).toBe('de');
  });

  it('takes the highest weight any range of a language gives it', () => {
    expect(byHeader('de-AT;q=0.9, en;q=0.8, de;q=0.1')).toBe('de');
  });

  it('reads * as any other language: the fallback first, a named language over it, none refused by q=0', () => {
    expect(byHeader('*', 'en')).toBe('en');
    expect(byHeader('*', 'de')).toBe('de');
    expect(byHeader('fr, *;q=0.5', 'de')).toBe('de');
    expect(byHeader('*, de')).toBe('de');
    expect(byHeader('de;q=0, *')).toBe('en');
    expect(byHeader('en;q=0, *', 'en')).toBe('de');
    expect(byHeader('de;q=0.3, *;q=0.5')).toBe('en');
  });

  it('q=0 refuses a language; refusing every one of ours leaves the fallback', () => {
    expect(byHeader('en;q=0, de;q=0.1')).toBe('de');
    expect(byHeader('de;q=0', 'de')).toBe('de');
    expect(byHeader('de;q=0.000, en;q=0', 'en')).toBe('en');
  });

  it('leaves out malformed entries and reads the rest', () => {
    for (const bad of [
      'de;q=1.5',
      'de;q=2',
      'de;q=-1',
      'de;q=0.0001',
      'de;q=abc',
      'de;q=',
      'de;level=1',
      'de;q=0.9;q=0.8',
      'de_DE',
      'de-',
      '-de',
      'de--AT',
      'deutschland1',
      'de-abcdefghi',
      'd e',
      ';q=1',
      '',
      'de\u0000',
      'dé',
      '*-de',
    ]) {
      expect(byHeader(`${bad}, en;q=0.1`, 'de'), bad).toBe('en');
    }
  });

  it('reads no more than the first 16 entries', () => {
    expect(byHeader(`${'fr,'.repeat(15)}de`)).toBe('de');
    expect(byHeader(`${'fr,'.repeat(16)}de`)).toBe('en');
  });

  it('reads no more than the first 512 characters, and leaves out an entry that bound splits', () => {
    const padding = `fr;q=0.1,${' '.repeat(480)}`;
    expect(byHeader(`${padding},de`)).toBe('de');
    // "de-AT" cut to "de" would still read as German: a cut entry is not read at all.
    expect(byHeader(`${'x'.repeat(509)},de-AT`)).toBe('en');
    expect(byHeader(`de,${'x'.repeat(1_000_000)}`)).toBe('de');
    expect(byHeader(`${','.repeat(1_000_000)}de`)).toBe('en');
  });

  it('never throws, and always answers one of ours, whatever the header holds', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 2000 }),
          fc.string({ unit: 'binary', maxLength: 600 }),
          fc
            .array(
              fc.tuple(
                fc.constantFrom('de', 'de-AT', 'en', 'EN-us', 'fr', '*', 'x', '', 'de-', '-'),
                fc.option(fc.constantFrom(';q=0', ';q=0.5', ';q=1', ';q=1.000', ';q=9', ';Q=0.3', ';x=1', ';')),
              ),
              { maxLength: 40 },
            )
            .map((ranges) => ranges.map(([range, weight]) => `${range}${weight ?? ''}`).join(',')),
        ),
        fc.constantFrom(...LANGUAGES),
        (header, fallback) => {
          expect(LANGUAGES).toContain(byHeader(header, fallback));
        },
      ),
      { numRuns: 300 },
    );
    // 300 headers of up to 2,000 characters: about a second alone, many more on a machine busy with browsers.
  }, 30_000);
});

describe('chooseLanguage: ui_locales first', () => {
  it('takes the first tag of ours in ui_locales, over Accept-Language', () => {
    expect(chooseLanguage({ uiLocales: 'de', acceptLanguage: 'en', fallback: 'en' })).toBe('de');
    expect(chooseLanguage({ uiLocales: 'fr-CA de-DE en', acceptLanguage: 'en', fallback: 'en' })).toBe('de');
    expect(chooseLanguage({ uiLocales: 'en de', acceptLanguage: 'de', fallback: 'de' })).toBe('en');
    expect(chooseLanguage({ uiLocales: '  de  ', fallback: 'en' })).toBe('de');
  });

  it('falls through to Accept-Language, then to the fallback, when ui_locales names none of ours', () => {
    for (const uiLocales of ['fr', 'fr-CA es', 'de_DE', '', 'de,en', `${'fr '.repeat(16)}de`]) {
      expect(chooseLanguage({ uiLocales, acceptLanguage: 'de-DE,de;q=0.9', fallback: 'en' }), uiLocales).toBe('de');
      expect(chooseLanguage({ uiLocales, fallback: 'en' }), uiLocales).toBe('en');
    }
  });

  it('never throws, whatever ui_locales holds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 2000 }), (uiLocales) => {
        expect(LANGUAGES).toContain(chooseLanguage({ uiLocales, acceptLanguage: 'en', fallback: 'en' }));
      }),
      { numRuns: 300 },
    );
  });
});
