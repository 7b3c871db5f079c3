import { fail } from '../../errors.ts';
import { ADMIN_AUTHORITY } from '../../roles/authority.ts';
import { type HttpRequest, header } from '../request-state.ts';

const BEARER = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/;

/** The access token of an `Authorization: Bearer` header; undefined when there is none or it is malformed. */
export function bearerTokenOf(event: HttpRequest['event']): string | undefined {
  return BEARER.exec(header(event, 'authorization')?.trim() ?? '')?.[1];
}

/**
 * Authentication and the admin check. Bearer routes take an access token;
 * admin routes take an admin's access token or an API key (`X-Api-Key`), which
 * is never accepted on bearer-only routes such as /users/me. Routes whose
 * tenant comes from the token (a resource server's) take the token alone.
 */
export async function authenticate(request: HttpRequest): Promise<void> {
  const state = request.internal.state;
  const { route, tenant, deps, authenticators, verifyToken } = state;
  if (route.auth === 'none') return;
  const authorization = header(request.event, 'authorization');
  const unauthenticated = () => fail('UNAUTHENTICATED', { headers: { 'www-authenticate': 'Bearer' } });

  if (route.tenant === 'token') {
    // A resource server's bearer (the plant store): the access token alone, checked by the route's
    // verifier (signature, iss, exp); its app/mid claims are the tenant. No tenant headers, no API
    // keys, no session lookup.
    const token = BEARER.exec(authorization?.trim() ?? '')?.[1];
    state.token = (token && (await verifyToken?.(token))) || undefined;
    if (!state.token) throw unauthenticated();
    return;
  }
  if (!tenant || !authenticators) throw new Error(`route ${route.operationId} needs a tenant and authenticators`);

  const apiKey = header(request.event, 'x-api-key');

  if (authorization !== undefined) {
    const token = BEARER.exec(authorization.trim())?.[1];
    if (!token) throw unauthenticated();
    // The tenant stage may have read the session and user with the tenant already (one round trip).
    state.principal = state.prefetchedBearer
      ? state.prefetchedBearer.principal()
      : ((await authenticators.bearer(token, tenant, deps)) ?? undefined);
  } else if (apiKey !== undefined && route.auth === 'admin') {
    // httpHandler refuses an admin route without it at cold start.
    state.principal = (await authenticators.apiKey?.(apiKey, tenant, deps)) ?? undefined;
  }
  if (!state.principal) throw unauthenticated();
  if (route.auth === 'admin' && state.principal.authority > ADMIN_AUTHORITY) throw fail('FORBIDDEN');
}
