import { originAllowed } from '../../tenancy/hosted-pages.ts';
import { fail } from '../errors.ts';
import type { HttpRequest } from '../request-state.ts';

export const CORS_ALLOW_HEADERS = 'authorization, content-type, x-app-id, x-mid-key, x-api-key';
export const CORS_ALLOW_METHODS = 'GET, POST, PATCH, PUT, DELETE, OPTIONS';
export const CORS_MAX_AGE_SECONDS = '600';

/**
 * A browser request (Origin present) from outside the tenant's allowlist (and
 * its own hosted origin) is refused: the CSRF defence of CONTRACT.md, Tenancy. Non-browser clients send
 * no Origin and pass.
 */
export function checkOrigin(request: HttpRequest): void {
  const { tenant, origin, deps } = request.internal.state;
  if (tenant && origin !== undefined && !originAllowed(deps.config, tenant, origin)) {
    throw fail('ORIGIN_NOT_ALLOWED');
  }
}

/** CORS headers for an answer: the Origin is echoed only when the request's tenant allows it. */
export function corsHeaders(request: HttpRequest): Record<string, string> {
  const { tenant, origin, deps } = request.internal.state ?? {};
  const headers: Record<string, string> = { vary: 'Origin' };
  if (tenant && deps && origin !== undefined && originAllowed(deps.config, tenant, origin)) {
    headers['access-control-allow-origin'] = origin;
    headers['access-control-expose-headers'] = 'Retry-After';
  }
  return headers;
}
