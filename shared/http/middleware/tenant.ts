import * as v from 'valibot';
import { fail, failField } from '../../errors.ts';
import type { TenantRef } from '../../store/keys.ts';
import { merchantRepo } from '../../store/merchant-repo.ts';
import { tenantCache } from '../../store/tenant-cache.ts';
import { hostedSubdomainOf } from '../../tenancy/hosted-pages.ts';
import type { Merchant } from '../../tenancy/types.ts';
import { type HttpRequest, header } from '../request-state.ts';
import { bearerTokenOf } from './auth.ts';

/** app, mid and client keys are generated from this alphabet; anything else cannot name a tenant. */
const TENANT_VALUE = /^[A-Za-z0-9_-]{1,128}$/;

/** Subdomains are lower-case DNS labels (shared/tenancy/create-tenant.ts). */
const SUBDOMAIN = /^[a-z0-9-]{1,63}$/;

/**
 * True when a browser sent the request from the hosted pages of `slug`: a cross-origin request carries that
 * tenant's hosted origin; a same-origin GET carries no Origin at all (Fetch standard), and then only the
 * browser-set `Sec-Fetch-Site: same-origin` says it came from a page of the API's own origin, where only the
 * hosted pages live. A non-browser can claim either, and learns what the hosted page shows anyone.
 */
function fromHostedPageOf(request: HttpRequest, slug: string): boolean {
  const { origin, deps } = request.internal.state;
  if (!deps.config.hostedPagesOrigin) return false;
  if (origin !== undefined) return hostedSubdomainOf(deps.config, origin) === slug;
  return header(request.event, 'sec-fetch-site') === 'same-origin';
}

/** The route's keys to read with the tenant, when its body is valid (validation proper comes later and says why not). */
function keysToPrefetch(request: HttpRequest, tenant: TenantRef) {
  const { route, prefetch, json, deps } = request.internal.state;
  if (!prefetch || !route.body) return [];
  const parsed = v.safeParse(route.body, json);
  return parsed.success ? prefetch(parsed.output, tenant, deps.store) : [];
}

/** The header that names a tenant's app (with `x-mid-key`): the WAF counts requests per tenant by it too. */
export const APP_ID_HEADER = 'x-app-id';

/**
 * Resolves the tenant: from X-App-ID + X-Mid-Key (400 TENANT_REQUIRED when
 * either is missing, 404 TENANT_NOT_FOUND for an unknown pair), or for
 * discovery from the public client key in `clientId` (or, from a tenant's
 * own hosted pages, its subdomain in `slug`). On a protected route
 * with a good access token of the named tenant, the tenant is read together
 * with the token's session and user (one round trip); the auth stage gives
 * that check's verdict after the Origin check, so the answers keep their order.
 */
export async function resolveTenant(request: HttpRequest): Promise<void> {
  const state = request.internal.state;
  const { route, deps } = state;
  if (route.tenant === 'headers') {
    const app = header(request.event, APP_ID_HEADER)?.trim();
    const mid = header(request.event, 'x-mid-key')?.trim();
    if (!app || !mid) throw fail('TENANT_REQUIRED', 'send the X-App-ID and X-Mid-Key headers');
    if (!TENANT_VALUE.test(app) || !TENANT_VALUE.test(mid)) throw fail('TENANT_NOT_FOUND');
    const ref = { app, mid };
    // Admins read their tenant fresh: they show and change its settings.
    const cache =
      route.auth === 'admin'
        ? undefined
        : tenantCache(deps.store, route.operationId, deps.config.tenantCacheSeconds, () => deps.clock.now().getTime());
    const token = route.auth === 'none' ? undefined : bearerTokenOf(request.event);
    const pending = token ? await state.authenticators?.prefetchBearer?.(token, ref, deps, cache) : undefined;
    const prefetchKeys = pending ? [] : keysToPrefetch(request, ref);
    let tenant: Merchant | null;
    if (pending) {
      tenant = pending.tenant;
    } else if (prefetchKeys.length > 0) {
      const read = await merchantRepo(deps.store).getWith(ref, prefetchKeys, cache);
      tenant = read.merchant;
      state.prefetched = read.prefetched;
    } else {
      tenant = await merchantRepo(deps.store).get(ref, cache);
    }
    if (!tenant) throw fail('TENANT_NOT_FOUND');
    state.tenant = tenant;
    state.prefetchedBearer = pending ?? undefined;
  } else if (route.tenant === 'clientId') {
    const query = request.event.queryStringParameters;
    const clientId = query?.clientId?.trim();
    const slug = query?.slug?.trim();
    if (!clientId && !slug) {
      throw failField('clientId', 'is required');
    }
    let tenant: Merchant | null;
    if (clientId) {
      // Discovery is for browsers of allowed origins only; answer that before any lookup.
      if (!state.origin) throw fail('ORIGIN_NOT_ALLOWED', 'discovery needs an Origin header');
      tenant = TENANT_VALUE.test(clientId) ? await merchantRepo(deps.store).findByClientKey(clientId) : null;
    } else {
      // A hosted page knows its subdomain, not its client key: it may name its own tenant by slug, and nobody else.
      if (!fromHostedPageOf(request, slug as string)) {
        throw fail('ORIGIN_NOT_ALLOWED', "discovery by slug is for the tenant's hosted pages");
      }
      tenant = SUBDOMAIN.test(slug as string) ? await merchantRepo(deps.store).findBySubdomain(slug as string) : null;
    }
    if (!tenant) throw fail('TENANT_NOT_FOUND');
    state.tenant = tenant;
  } else if (route.tenant === 'issuer') {
    // An OpenID Connect endpoint: the tenant is the issuer, the hosted origin the viewer used (httpHandler's
    // `issuer` option: shared/oidc/issuer.ts). Any other host (the bare API URL) names no issuer.
    const tenant = (await state.issuerTenant?.(request.event, deps, state.edge)) ?? null;
    if (!tenant) throw fail('TENANT_NOT_FOUND', 'no OpenID Provider at this address');
    state.tenant = tenant;
  }
}
