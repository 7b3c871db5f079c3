import type { Deps } from '../deps.ts';
import { merchantRepo } from '../store/merchant-repo.ts';
import { CORS_ALLOW_HEADERS, CORS_ALLOW_METHODS, CORS_MAX_AGE_SECONDS } from './middleware/cors.ts';
import { Reply } from './reply.ts';

/** The OAuth protocol endpoints (route rows with `oauth: true`), as the preflight's `{proxy+}` sees them. */
const OAUTH_CORS_PATHS = new Set([
  'oidc/token',
  'oidc/userinfo',
  'oidc/revoke',
  'oidc/openid-configuration',
  '.well-known/jwks.json',
]);

/**
 * CORS preflight carries no tenant headers, so it echoes the Origin when any
 * tenant allows it; the real request is then checked against its own tenant.
 */
export async function preflightHeaders(
  deps: Deps,
  origin: string | undefined,
  path: string | undefined,
): Promise<Reply> {
  // OAuth's protocol endpoints answer any origin (./middleware/cors.ts says why): a SPA's userinfo
  // call carries Authorization, which needs this preflight.
  if (origin !== undefined && path !== undefined && OAUTH_CORS_PATHS.has(path)) {
    return new Reply(undefined, {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': 'authorization, content-type',
      'access-control-max-age': CORS_MAX_AGE_SECONDS,
    });
  }
  if (origin === undefined || !(await merchantRepo(deps.store).anyTenantAllowsOrigin(origin)))
    return new Reply(undefined);
  return new Reply(undefined, {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': CORS_ALLOW_METHODS,
    'access-control-allow-headers': CORS_ALLOW_HEADERS,
    'access-control-max-age': CORS_MAX_AGE_SECONDS,
  });
}
