import { describe, expect, it } from 'vitest';
import { askedLanguage } from '../../web/src/i18n/index.ts';

describe('the language a reader asks the pages for', () => {
  const none = { chosen: null, uiLocales: null, browser: [] };

  it('is their pick in the language menu first, then the app’s ui_locales, then the browser’s languages', () => {
    expect(askedLanguage({ chosen: 'en', uiLocales: 'de', browser: ['de-DE'] })).toBe('en');
    expect(askedLanguage({ chosen: null, uiLocales: 'fr-CA de', browser: ['en-US'] })).toBe('de');
    expect(askedLanguage({ chosen: null, uiLocales: 'fr', browser: ['fr-FR', 'de-AT', 'en'] })).toBe('de');
  });

  it('is none when nothing names one of ours (the tenant’s default decides), or a stored pick is garbage', () => {
    expect(askedLanguage(none)).toBeNull();
    expect(askedLanguage({ ...none, browser: ['fr-FR', 'ja'] })).toBeNull();
    expect(askedLanguage({ ...none, chosen: '<script>', browser: ['de'] })).toBe('de');
  });
});
