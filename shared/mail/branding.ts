import type { Merchant } from '../tenancy/types.ts';

export type Brand = Pick<Merchant, 'name' | 'logoUrl' | 'primaryColor' | 'secondaryColor'>;

/** A tenant's branding, checked: safe to put in a subject, a header, text and HTML. */
export interface Branding {
  name: string;
  /** `#rrggbb`. */
  primaryColor: string;
  /** `#rrggbb`. */
  secondaryColor: string;
  /** Readable on `primaryColor`. */
  onPrimaryColor: string;
  /** An absolute http(s) URL, or null. */
  logoUrl: string | null;
}

const NEUTRAL_PRIMARY = '#27272a';
const NEUTRAL_SECONDARY = '#d4d4d8';
const HEX_COLOUR = /^#[0-9a-f]{6}$/i;
const MAX_NAME_LENGTH = 128;
const MAX_URL_LENGTH = 2048;

/**
 * Characters that must never reach a header or a rendered line: control
 * characters (CR/LF would inject headers), line and paragraph separators, and
 * bidi overrides and isolates (which make a name display as something else).
 */
const UNSAFE_CHARACTERS = /[\p{Cc}\p{Zl}\p{Zp}\u202a-\u202e\u2066-\u2069]/gu;

/** A display string from untrusted input: unsafe characters removed, whitespace collapsed, length capped. */
export function cleanDisplayText(value: string, maxLength = MAX_NAME_LENGTH): string {
  const cleaned = value.replace(UNSAFE_CHARACTERS, ' ').replace(/\s+/g, ' ').trim();
  return [...cleaned].slice(0, maxLength).join('');
}

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function colourOr(value: string | null, fallback: string): string {
  // Only a validated `#rrggbb` reaches CSS: anything else could close the style attribute or inject rules.
  return value && HEX_COLOUR.test(value) ? value.toLowerCase() : fallback;
}

/** White or near-black, whichever contrasts more with `background` (WCAG relative luminance). */
function readableOn(background: string): string {
  const channel = (offset: number) => {
    const c = Number.parseInt(background.slice(offset, offset + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  // Contrast with white is 1.05 / (L + 0.05), with #18181b about (L + 0.05) / 0.06; equal near L = 0.2.
  return luminance > 0.2 ? '#18181b' : '#ffffff';
}

function logoOf(value: string | null): string | null {
  if (!value || value.length > MAX_URL_LENGTH) return null;
  try {
    const url = new URL(value);
    // No javascript:, data: or cid: images, and no credentials in a URL shown to users.
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    if (url.username || url.password) return null;
    return url.href;
  } catch {
    return null;
  }
}

/** The tenant's branding; `unnamed` stands for its name when it has none that can be shown. */
export function brandingOf(tenant: Brand, unnamed: string): Branding {
  const primaryColor = colourOr(tenant.primaryColor, NEUTRAL_PRIMARY);
  return {
    name: cleanDisplayText(tenant.name) || unnamed,
    primaryColor,
    secondaryColor: colourOr(tenant.secondaryColor, NEUTRAL_SECONDARY),
    onPrimaryColor: readableOn(primaryColor),
    logoUrl: logoOf(tenant.logoUrl),
  };
}
