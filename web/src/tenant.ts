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

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
export function textOn(hex: string): '#000000' | '#ffffff' {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  return luminance > 0.179 ? '#000000' : '#ffffff';
}

export const DEFAULT_PRIMARY = '#1f6f5c';
export const DEFAULT_SECONDARY = '#f3f6f4';

export interface Brand {
  name: string;
  logoUrl: string | null;
  primaryColor: string | null;
  secondaryColor: string | null;
}

/**
 * The tenant's colours as CSS custom properties on `element` (set through the
 * CSSOM, which the Content-Security-Policy allows, unlike inline style text).
 */
export function applyBrand(element: HTMLElement, brand: Brand): void {
  const primary = brand.primaryColor ?? DEFAULT_PRIMARY;
  const secondary = brand.secondaryColor ?? DEFAULT_SECONDARY;
  element.style.setProperty('--brand-primary', primary);
  element.style.setProperty('--brand-on-primary', textOn(primary));
  element.style.setProperty('--brand-secondary', secondary);
  element.style.setProperty('--brand-on-secondary', textOn(secondary));
}

export function brandOf(tenant: TenantConfig): Brand {
  return {
    name: tenant.name,
    logoUrl: tenant.logoUrl,
    primaryColor: tenant.primaryColor,
    secondaryColor: tenant.secondaryColor,
  };
}
