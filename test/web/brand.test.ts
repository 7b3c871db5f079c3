import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  contrast,
  DARK_SURFACE,
  DEFAULT_PRIMARY,
  DEFAULT_SECONDARY,
  darkPair,
  documentTitle,
  faviconOf,
  textOn,
} from '../../web/src/brand.ts';

const none = { primaryColor: null, darkPrimaryColor: null, darkSecondaryColor: null };

describe("a tenant's dark colours", () => {
  it('keep what the tenant chose for dark, whatever the light pair', () => {
    expect(darkPair({ primaryColor: '#000000', darkPrimaryColor: '#FFCC00', darkSecondaryColor: '#101010' })).toEqual({
      primary: '#ffcc00',
      secondary: '#101010',
    });
  });

  it('derive the background from the light primary: near-black with its hue', () => {
    const { secondary } = darkPair({ ...none, primaryColor: '#7a1fa2' });
    expect(secondary).toBe('#1e1426');
    expect(textOn(secondary)).toBe('#ffffff');
    // Chosen or derived, a dark primary does not move the background.
    expect(darkPair({ ...none, primaryColor: '#7a1fa2', darkPrimaryColor: '#ffffff' }).secondary).toBe(secondary);
  });

  it('keep a light primary that stands out 3:1 on the dark cards', () => {
    expect(contrast('#ffcc00', DARK_SURFACE)).toBeGreaterThan(3);
    expect(darkPair({ ...none, primaryColor: '#ffcc00' }).primary).toBe('#ffcc00');
  });

  it.each(['#1f6f5c', '#000000', '#7a1fa2', '#0b57a4', '#2f5d3a'])(
    'lighten %s, too dark for the dark cards, until it stands out 3:1',
    (light) => {
      const { primary } = darkPair({ ...none, primaryColor: light });
      expect(contrast(light, DARK_SURFACE)).toBeLessThan(3);
      expect(contrast(primary, DARK_SURFACE)).toBeGreaterThanOrEqual(3);
      expect(primary).not.toBe(light);
    },
  );

  it('lighten in steps of 5 % white, and no further than needed: the default green takes two', () => {
    // 5 % (#2a7664) reaches 2.99:1, just short; 10 % is the first step past 3:1.
    expect(contrast('#2a7664', DARK_SURFACE)).toBeLessThan(3);
    expect(darkPair(none).primary).toBe('#357d6c');
  });

  it('leave a readable text colour on every derived primary', () => {
    for (const light of ['#1f6f5c', '#000000', '#ffcc00', '#7a1fa2', '#ffffff', '#808080']) {
      const { primary } = darkPair({ ...none, primaryColor: light });
      expect(contrast(primary, textOn(primary)), light).toBeGreaterThanOrEqual(4.5);
    }
  });
});

/** The declarations of the first rule of `css` whose selector text is `selector`, in order. */
function block(css: string, selector: RegExp): string {
  const found = css.match(new RegExp(`${selector.source}\\s*\\{([^{}]*)\\}`));
  if (!found?.[1]) throw new Error(`no rule ${selector}`);
  return found[1].replace(/\s+/g, ' ').trim();
}

describe('styles.css', () => {
  const css = readFileSync(resolve(import.meta.dirname, '../../web/src/styles.css'), 'utf8');
  const media = css.slice(css.indexOf('@media (prefers-color-scheme: dark)'));

  it("gives the console preview's dark half the dark scheme's very palette", () => {
    expect(block(css, /\n\.scheme-dark/)).toBe(block(media, /:root/));
  });

  it('falls back to the default brand, light and dark, before the tenant is known', () => {
    const fallbacks = (rule: string) =>
      Object.fromEntries(
        [...rule.matchAll(/--(brand-[a-z-]+): var\(--[a-z-]+, (#[0-9a-f]{6})\)/g)].map((m) => m.slice(1)),
      );
    const dark = darkPair(none);
    expect(fallbacks(block(css, /:root,\s*\.scheme-light/))).toEqual({
      'brand-primary': DEFAULT_PRIMARY,
      'brand-on-primary': textOn(DEFAULT_PRIMARY),
      'brand-secondary': DEFAULT_SECONDARY,
      'brand-on-secondary': textOn(DEFAULT_SECONDARY),
    });
    expect(fallbacks(block(media, /:root/))).toEqual({
      'brand-primary': dark.primary,
      'brand-on-primary': textOn(dark.primary),
      'brand-secondary': dark.secondary,
      'brand-on-secondary': textOn(dark.secondary),
    });
  });
});

describe('the document title', () => {
  it.each([
    ['Sign in', 'Sign in · Fernhouse Plants'],
    ['Anmelden', 'Anmelden · Fernhouse Plants'],
    ['Allow Shopfront to use your account?', 'Allow Shopfront to use your account? · Fernhouse Plants'],
    ['Forgot your password?', 'Forgot your password? · Fernhouse Plants'],
    ['  Users ', 'Users · Fernhouse Plants'],
    ['Fernhouse Plants', 'Fernhouse Plants'],
    ['', 'Fernhouse Plants'],
  ])('%s → %s', (title, expected) => {
    expect(documentTitle(title, 'Fernhouse Plants')).toBe(expected);
  });

  it('is the page title alone while the tenant has no name', () => {
    expect(documentTitle('Sign in', ' ')).toBe('Sign in');
  });
});

describe('the favicon', () => {
  it('is an https logo itself', () => {
    expect(faviconOf({ name: 'Fern', logoUrl: 'https://cdn.example/fern.png', primaryColor: null })).toBe(
      'https://cdn.example/fern.png',
    );
  });

  it('is otherwise the initial on the primary colour, readable, escaped, as an SVG data: URL', () => {
    for (const logoUrl of [null, 'http://cdn.example/fern.png']) {
      const href = faviconOf({ name: 'fern', logoUrl, primaryColor: '#ffcc00' });
      expect(href.startsWith('data:image/svg+xml,')).toBe(true);
      const svg = decodeURIComponent(href.slice('data:image/svg+xml,'.length));
      expect(svg).toContain('<rect width="64" height="64" rx="14" fill="#ffcc00"/>');
      expect(svg).toMatch(/fill="#000000">f<\/text><\/svg>$/);
    }
    const svg = decodeURIComponent(faviconOf({ name: '<b>', logoUrl: null, primaryColor: null }));
    expect(svg).toContain(`fill="${DEFAULT_PRIMARY}"`);
    expect(svg).toContain('>&lt;</text>');
  });
});
