import type { Config } from '../deps.ts';
import type { Merchant } from './types.ts';

/**
 * A tenant's hosted pages (web/) live at its own origin, `<subdomain>.<hosted domain>`:
 * host-based, so that each tenant's `svc_rt` cookie is its own (a host-only cookie
 * never reaches another tenant's host) and CloudFront serves every tenant from one
 * distribution with a wildcard certificate.
 */
export function hostedOrigin(config: Pick<Config, 'hostedPagesOrigin'>, subdomain: string): string | undefined {
  return config.hostedPagesOrigin?.replace('{subdomain}', subdomain);
}

/**
 * Whether the tenant's users may use passkeys: its setting, in a deployment with hosted pages (their host is the
 * passkeys' RP ID: shared/passkeys/relying-party.ts).
 */
export function passkeysOffered(config: Pick<Config, 'hostedPagesOrigin'>, tenant: Merchant): boolean {
  return tenant.passkeysAllowed && hostedOrigin(config, tenant.subdomain) !== undefined;
}

/**
 * The Origin check (docs/http.md#cors-and-origin): a tenant's allowlist, and its own
 * hosted origin. Another tenant's hosted origin is foreign like any site.
 */
export function originAllowed(config: Pick<Config, 'hostedPagesOrigin'>, tenant: Merchant, origin: string): boolean {
  return tenant.allowedOrigins.includes(origin) || origin === hostedOrigin(config, tenant.subdomain);
}

/**
 * The subdomain a request was sent from, when it is a hosted page of this deployment: its Origin's host
 * under the hosted domain. Undefined for any other origin.
 */
export function hostedSubdomainOf(config: Pick<Config, 'hostedPagesOrigin'>, origin: string): string | undefined {
  const template = config.hostedPagesOrigin;
  if (!template) return undefined;
  const [before, after] = template.split('{subdomain}') as [string, string];
  if (!origin.startsWith(before) || !origin.endsWith(after)) return undefined;
  const subdomain = origin.slice(before.length, origin.length - after.length);
  return /^[a-z0-9-]{1,63}$/.test(subdomain) ? subdomain : undefined;
}
