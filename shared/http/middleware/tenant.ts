import { fail } from '../errors.ts';
import { type HttpRequest, header } from '../request-state.ts';

/** app, mid and client keys are generated from this alphabet; anything else cannot name a tenant. */
const TENANT_VALUE = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Resolves the tenant: from X-App-ID + X-Mid-Key (400 TENANT_REQUIRED when
 * either is missing, 404 TENANT_NOT_FOUND for an unknown pair), or for
 * discovery from the public client key in `clientId`.
 */
export async function resolveTenant(request: HttpRequest): Promise<void> {
  const state = request.internal.state;
  const { route, deps } = state;
  if (route.tenant === 'headers') {
    const app = header(request.event, 'x-app-id')?.trim();
    const mid = header(request.event, 'x-mid-key')?.trim();
    if (!app || !mid) throw fail('TENANT_REQUIRED', 'send the X-App-ID and X-Mid-Key headers');
    const tenant = TENANT_VALUE.test(app) && TENANT_VALUE.test(mid) ? await deps.merchants.get({ app, mid }) : null;
    if (!tenant) throw fail('TENANT_NOT_FOUND');
    state.tenant = tenant;
  } else if (route.tenant === 'clientId') {
    const clientId = request.event.queryStringParameters?.clientId?.trim();
    if (!clientId) {
      throw fail('VALIDATION_FAILED', {
        detail: 'clientId: is required',
        errors: [{ path: 'clientId', message: 'is required' }],
      });
    }
    // Discovery is for browsers of allowed origins only; answer that before any lookup.
    if (!state.origin) throw fail('ORIGIN_NOT_ALLOWED', 'discovery needs an Origin header');
    const tenant = TENANT_VALUE.test(clientId) ? await deps.merchants.findByClientKey(clientId) : null;
    if (!tenant) throw fail('TENANT_NOT_FOUND');
    state.tenant = tenant;
  }
}
