import { type Brand, DEFAULT_PRIMARY, DEFAULT_SECONDARY, darkPair, faviconOf, textOn } from './brand.ts';
import type { TenantConfig } from './sdk.ts';

/**
 * The tenant whose pages these are: the first label of the host. Pages are
 * host-based (`<subdomain>.<hosted domain>`, locally `<subdomain>.localhost`),
 * so each tenant's origin keeps its own `svc_rt` cookie (README, Hosted pages).
 */
export function subdomainOfHost(hostname: string): string | undefined {
  const labels = hostname.toLowerCase().split('.');
  return labels.length >= 2 && /^[a-z0-9-]{1,63}$/.test(labels[0] ?? '') ? labels[0] : undefined;
}

/**
 * The tenant's colours, light and dark, as CSS custom properties on `element` (set through the CSSOM, which the
 * Content-Security-Policy allows, unlike inline style text): `--brand-light-primary`, `--brand-dark-primary` and
 * so on, each with its `-on-` text colour. styles.css picks the pair of the colour scheme in use as
 * `--brand-primary`, `--brand-secondary` (and their `--brand-on-…`).
 */
export function applyBrand(element: HTMLElement, brand: Brand): void {
  const dark = darkPair(brand);
  const schemes = {
    light: { primary: brand.primaryColor ?? DEFAULT_PRIMARY, secondary: brand.secondaryColor ?? DEFAULT_SECONDARY },
    dark,
  };
  for (const [scheme, pair] of Object.entries(schemes)) {
    element.style.setProperty(`--brand-${scheme}-primary`, pair.primary);
    element.style.setProperty(`--brand-${scheme}-on-primary`, textOn(pair.primary));
    element.style.setProperty(`--brand-${scheme}-secondary`, pair.secondary);
    element.style.setProperty(`--brand-${scheme}-on-secondary`, textOn(pair.secondary));
  }
}

/** Points the page's icon at the tenant's favicon (`faviconOf`); the built page's own icon stands until then. */
export function applyFavicon(document: Document, brand: Brand): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.append(link);
  }
  const href = faviconOf(brand);
  link.href = href;
  // A logo may be any image type: the browser tells it by its content.
  if (href.startsWith('data:image/svg+xml')) link.type = 'image/svg+xml';
  else link.removeAttribute('type');
}

export function brandOf(tenant: TenantConfig): Brand {
  return {
    name: tenant.name,
    logoUrl: tenant.logoUrl,
    primaryColor: tenant.primaryColor,
    secondaryColor: tenant.secondaryColor,
    darkPrimaryColor: tenant.darkPrimaryColor,
    darkSecondaryColor: tenant.darkSecondaryColor,
  };
}
