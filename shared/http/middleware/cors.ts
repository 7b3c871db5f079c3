import { fail } from '../../errors.ts';
import { originAllowed } from '../../tenancy/hosted-pages.ts';
import type { HttpRequest } from '../request-state.ts';

export const CORS_ALLOW_HEADERS = 'authorization, content-type, x-app-id, x-mid-key, x-api-key';
export const CORS_ALLOW_METHODS = 'GET, POST, PATCH, PUT, DELETE, OPTIONS';
export const CORS_MAX_AGE_SECONDS = '600';

/**
 * A browser request (Origin present) from outside the tenant's allowlist (and
 * its own hosted origin) is refused: the CSRF defence (docs/http.md#cors-and-origin). Non-browser clients send
 * no Origin and pass.
 */
export function checkOrigin(request: HttpRequest): void {
  const { tenant, origin, deps, route } = request.internal.state;
  // OAuth's protocol endpoints read no cookie: a code needs its verifier or the client's secret, userinfo a bearer.
  if (route.oauth || route.anyOrigin) return;
  if (tenant && origin !== undefined && !originAllowed(deps.config, tenant, origin)) {
    throw fail('ORIGIN_NOT_ALLOWED');
  }
}

/** CORS headers for an answer: the Origin is echoed only when the request's tenant allows it. */
export function corsHeaders(request: HttpRequest): Record<string, string> {
  const { tenant, origin, deps, route } = request.internal.state ?? {};
  // Any origin: a SPA client of any tenant calls token, userinfo and revocation from its own origin, without
  // credentials (no cookie is sent or read), so `*` grants nothing a non-browser could not do.
  if (route?.oauth) {
    return { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'WWW-Authenticate, Retry-After' };
  }
  const headers: Record<string, string> = { vary: 'Origin' };
  if (tenant && deps && origin !== undefined && originAllowed(deps.config, tenant, origin)) {
    headers['access-control-allow-origin'] = origin;
    headers['access-control-expose-headers'] = 'Retry-After';
  }
  return headers;
}
