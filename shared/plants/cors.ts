import { Reply } from '../http/reply.ts';
import type { PlantDeps } from './deps.ts';

/**
 * CORS of the plant store, for the origins the identity's tenants allow (their `allowedOrigins`,
 * read from the identity's ORIGIN index), so that a tenant's browser app can call POST /plants.
 * A preflight carries no token, so no tenant: like the identity's preflight it echoes an origin
 * that some tenant allows. The answers echo the same origins: the bearer is never ambient (no
 * cookies, no Access-Control-Allow-Credentials), so an echo lets a page read only the answer to
 * a request it made with a token it already holds.
 */
export const PLANT_CORS_ALLOW_METHODS = 'POST';
export const PLANT_CORS_ALLOW_HEADERS = 'authorization, content-type';
export const PLANT_CORS_MAX_AGE_SECONDS = '600';
/** What a browser app may read of an answer besides the safelisted headers: why a 401 was refused. */
export const PLANT_CORS_EXPOSE_HEADERS = 'WWW-Authenticate';

/** OPTIONS on any path: 204, with the CORS headers only for an origin some tenant allows. */
export async function plantPreflight(deps: PlantDeps, origin: string | undefined): Promise<Reply> {
  if (origin === undefined || !(await deps.origins.anyTenantAllows(origin))) return new Reply(undefined);
  return new Reply(undefined, {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': PLANT_CORS_ALLOW_METHODS,
    'access-control-allow-headers': PLANT_CORS_ALLOW_HEADERS,
    'access-control-max-age': PLANT_CORS_MAX_AGE_SECONDS,
  });
}

/** The CORS headers of an answer to this Origin: none unless some tenant allows it. */
export async function plantCorsHeaders(deps: PlantDeps, origin: string | undefined): Promise<Record<string, string>> {
  if (origin === undefined || !(await deps.origins.anyTenantAllows(origin))) return {};
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': PLANT_CORS_EXPOSE_HEADERS };
}
