import type { Config, Deps } from '../deps.ts';
import type { EdgeTrust } from '../http/client-ip.ts';
import { oauthErrorAnswer } from '../http/oauth-error.ts';
import type { HttpEvent } from '../http/request-state.ts';
import { BASE_PATH } from '../http/route.ts';
import { viewerOrigin } from '../http/viewer-origin.ts';
import { merchantRepo } from '../store/merchant-repo.ts';
import { hostedOrigin, hostedSubdomainOf } from '../tenancy/hosted-pages.ts';
import type { Merchant } from '../tenancy/types.ts';

/**
 * A tenant's OpenID Provider: its issuer is its hosted origin (README.md, Issuer model), and its endpoints
 * are the API's, under the same origin.
 */
export interface Issuer {
  /** `iss`: `https://<subdomain>.<webDomain>`. */
  url: string;
  endpoint(path: `/${string}`): string;
}

export function issuerOf(config: Pick<Config, 'hostedPagesOrigin'>, tenant: Pick<Merchant, 'subdomain'>): Issuer {
  const url = hostedOrigin(config, tenant.subdomain);
  // The tenant stage found this tenant by its hosted origin: without hosted pages there is no issuer to be.
  if (!url) throw new Error('no hosted pages origin: OpenID Connect needs HOSTED_PAGES_ORIGIN');
  return { url, endpoint: (path) => `${url}${BASE_PATH}${path}` };
}

/** `uri` with `params` added to its query (kept as registered: RFC 6749 3.1.2 allows a query of its own). */
export function withQuery(uri: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) {
    if (value !== null && value !== undefined) url.searchParams.append(name, value);
  }
  return url.toString();
}

/**
 * The tenant whose issuer a request was sent to: the hosted origin the viewer used (locally the Host header,
 * behind CloudFront the viewer's host it vouches for: shared/http/viewer-origin.ts), by its subdomain. Null
 * for any other host, such as the API's own URL.
 */
export async function tenantOfIssuer(event: HttpEvent, deps: Deps, trust: EdgeTrust): Promise<Merchant | null> {
  const origin = viewerOrigin(event, trust);
  const subdomain = origin === undefined ? undefined : hostedSubdomainOf(deps.config, origin);
  return subdomain ? merchantRepo(deps.store).findBySubdomain(subdomain) : null;
}

/**
 * What an OpenID Provider route's handler passes to httpHandler: how its tenant is found, and for OAuth's
 * protocol endpoints (`oauth: true`), OAuth's error body. Only these bundles carry either.
 */
export const PROVIDER_ROUTE = { issuer: tenantOfIssuer };
export const OAUTH_ROUTE = { issuer: tenantOfIssuer, errorBody: oauthErrorAnswer };
