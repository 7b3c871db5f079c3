/**
 * The tenant's brand as the pages work it out, with nothing of the page in it: colours and their contrast, the
 * dark scheme's pair, the favicon, the document title.
 */

const channels = (hex: string) => [0, 1, 2].map((i) => Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16));

/** WCAG relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const [r = 0, g = 0, b = 0] = channels(hex).map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Black or white, whichever reads better on `hex` (WCAG relative luminance): always 4.5:1 or more. */
export function textOn(hex: string): '#000000' | '#ffffff' {
  return luminance(hex) > 0.179 ? '#000000' : '#ffffff';
}

/** `amount` (0 to 1) of `other` mixed into `hex`, channel by channel. */
function mix(hex: string, other: string, amount: number): string {
  const theirs = channels(other);
  return `#${channels(hex)
    .map((value, i) => Math.round(value + ((theirs[i] ?? 0) - value) * amount))
    .map((value) => value.toString(16).padStart(2, '0'))
    .join('')}`;
}

export const DEFAULT_PRIMARY = '#1f6f5c';
export const DEFAULT_SECONDARY = '#f3f6f4';

/** The dark scheme's cards and panels (styles.css `--surface`), where the buttons sit. */
export const DARK_SURFACE = '#1d2125';
/** The near-black a dark page background is tinted from. */
const DARK_BASE = '#111315';
/** How much of the light primary tints the derived dark background. */
const DARK_TINT = 0.12;
/** What a control needs against what surrounds it (WCAG 1.4.11, non-text contrast). */
const CONTROL_CONTRAST = 3;

/**
 * The dark scheme's pair when the tenant chose none, derived from the light pair:
 *
 * - secondary (the page background): the near-black tinted with 12 % of the light primary, so the page keeps the
 *   brand's hue (a light secondary is nearly white and would only darken to grey);
 * - primary (buttons, the top bar): the light primary itself when it stands out 3:1 on the dark cards, as WCAG asks
 *   of a control; otherwise the light primary lightened, 5 % of white at a time, until it does. Text on it is black
 *   or white, whichever reads better (`textOn`).
 *
 * A colour the tenant chose for dark is kept as it is; only a missing one is derived.
 */
export function darkPair(brand: Pick<Brand, 'primaryColor' | 'darkPrimaryColor' | 'darkSecondaryColor'>): {
  primary: string;
  secondary: string;
} {
  const light = (brand.primaryColor ?? DEFAULT_PRIMARY).toLowerCase();
  const secondary = brand.darkSecondaryColor?.toLowerCase() ?? mix(DARK_BASE, light, DARK_TINT);
  if (brand.darkPrimaryColor) return { primary: brand.darkPrimaryColor.toLowerCase(), secondary };
  let primary = light;
  for (let step = 1; contrast(primary, DARK_SURFACE) < CONTROL_CONTRAST && step <= 20; step++) {
    primary = mix(light, '#ffffff', step * 0.05);
  }
  return { primary, secondary };
}

export interface Brand {
  name: string;
  logoUrl: string | null;
  primaryColor: string | null;
  secondaryColor: string | null;
  darkPrimaryColor: string | null;
  darkSecondaryColor: string | null;
}

/** The tenant's initial, shown where it has no logo: the first letter of its name, as written. */
export function initialOf(name: string): string {
  return Array.from(name.trim())[0] ?? '?';
}

/** Whether `value` is an absolute https URL, the only remote address the pages load or link to. */
export function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * The tenant's favicon: its logo when it has an https one (the Content-Security-Policy's `img-src` allows https and
 * `data:` images), otherwise its initial on its primary colour, an SVG built here as a `data:` URL.
 */
export function faviconOf(brand: Pick<Brand, 'name' | 'logoUrl' | 'primaryColor'>): string {
  if (brand.logoUrl && isHttpsUrl(brand.logoUrl)) return brand.logoUrl;
  const fill = brand.primaryColor ?? DEFAULT_PRIMARY;
  const letter = initialOf(brand.name).replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">` +
    `<rect width="64" height="64" rx="14" fill="${fill}"/>` +
    `<text x="32" y="45" text-anchor="middle" font-family="system-ui,sans-serif" font-size="38" font-weight="600"` +
    ` fill="${textOn(fill)}">${letter}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/**
 * The document title: the page's title, then the tenant's name, said once ("Sign in · Fernhouse Plants"). A page
 * whose heading names the tenant ("Sign in to Fernhouse Plants", "Bei Fernhouse Plants anmelden") gives a title
 * without it (AuthLayout's `pageTitle`), so that no language's wording has to be taken apart here.
 */
export function documentTitle(title: string, tenantName: string): string {
  const name = tenantName.trim();
  const page = title.trim();
  if (!name || !page || page === name) return name || page;
  return `${page} · ${name}`;
}
