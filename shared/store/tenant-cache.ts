import type { Merchant } from '../tenancy/types.ts';
import { rootOf, type StoreClient } from './client.ts';
import type { TenantRef } from './keys.ts';

/**
 * A function's copy of the tenants its users' requests named, for a few seconds (TENANT_CACHE_SECONDS, 5 unless
 * set). Every tenant-scoped request needs its tenant, and one DynamoDB item serves at most 3,000 strongly consistent
 * reads a second: read each time, a busy tenant would top out there, and pay a read unit per request. The price is
 * written in the README (Limits): a settings change reaches users' requests up to that many seconds late. Admin
 * routes never use it (they show and change the settings), and neither do discovery and the OpenID endpoints
 * (they find the tenant by another key).
 *
 * Only tenants that exist are kept, so an unknown app and mid cost a read each time, and memory stays bounded by the
 * tenants a function serves. Each copy is frozen: a request that changed it would change the next one's.
 */
export interface TenantCache {
  /** The copy, while it is fresh. */
  read(tenant: TenantRef): Merchant | undefined;
  /** Keeps a tenant just read from the table. */
  keep(merchant: Merchant): void;
}

/** More tenants than one function serves at once in the time a copy lasts: past it, the oldest copy goes. */
const MAX_TENANTS = 1000;

interface Copy {
  merchant: Merchant;
  until: number;
}

/** Per process and table client, then per scope (a route: on AWS each function serves one; locally all share a process). */
const copies = new WeakMap<StoreClient, Map<string, Map<string, Copy>>>();

function scopeOf(store: StoreClient, scope: string): Map<string, Copy> {
  const root = rootOf(store);
  let scopes = copies.get(root);
  if (!scopes) {
    scopes = new Map();
    copies.set(root, scopes);
  }
  let tenants = scopes.get(scope);
  if (!tenants) {
    tenants = new Map();
    scopes.set(scope, tenants);
  }
  return tenants;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

const idOf = (tenant: TenantRef) => `${tenant.app}\u0000${tenant.mid}`;

/**
 * The cache of one route's function, or undefined when copies last 0 seconds. `scope` keeps the routes of the local
 * stack, which share one process, apart as their functions are on AWS: a copy one route made is not another's.
 */
export function tenantCache(
  store: StoreClient,
  scope: string,
  seconds: number,
  now: () => number,
): TenantCache | undefined {
  if (seconds <= 0) return undefined;
  const tenants = scopeOf(store, scope);
  return {
    read(tenant) {
      const id = idOf(tenant);
      const copy = tenants.get(id);
      if (!copy) return undefined;
      if (copy.until > now()) return copy.merchant;
      tenants.delete(id);
      return undefined;
    },
    keep(merchant) {
      const id = idOf(merchant);
      tenants.delete(id);
      if (tenants.size >= MAX_TENANTS) {
        const oldest = tenants.keys().next().value;
        if (oldest !== undefined) tenants.delete(oldest);
      }
      tenants.set(id, { merchant: deepFreeze(merchant), until: now() + seconds * 1000 });
    },
  };
}
