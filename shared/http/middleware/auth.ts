import { ADMIN_AUTHORITY } from '../../auth/principal.ts';
import { fail } from '../errors.ts';
import { type HttpRequest, header } from '../request-state.ts';

const BEARER = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/;

/**
 * Authentication and the admin check. Bearer routes take an access token;
 * admin routes take an admin's access token or an API key (`X-Api-Key`), which
 * is never accepted on bearer-only routes such as /users/me.
 */
export async function authenticate(request: HttpRequest): Promise<void> {
  const state = request.internal.state;
  const { route, tenant, deps, authenticators } = state;
  if (route.auth === 'none') return;
  if (!tenant || !authenticators) throw new Error(`route ${route.operationId} needs a tenant and authenticators`);

  const authorization = header(request.event, 'authorization');
  const apiKey = header(request.event, 'x-api-key');
  const unauthenticated = () => fail('UNAUTHENTICATED', { headers: { 'www-authenticate': 'Bearer' } });

  if (authorization !== undefined) {
    const token = BEARER.exec(authorization.trim())?.[1];
    if (!token) throw unauthenticated();
    state.principal = (await authenticators.bearer(token, tenant, deps)) ?? undefined;
  } else if (apiKey !== undefined && route.auth === 'admin') {
    state.principal = (await authenticators.apiKey(apiKey, tenant, deps)) ?? undefined;
  }
  if (!state.principal) throw unauthenticated();
  if (route.auth === 'admin' && state.principal.authority > ADMIN_AUTHORITY) throw fail('FORBIDDEN');
}
