import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { merchantRepo } from '../store/merchant-repo.ts';
import { type MerchantChanges, merchantSettingsRepo } from '../store/merchant-settings-repo.ts';
import { nextUpdatedAt } from '../store/versions.ts';
import type { Merchant } from '../tenancy/types.ts';
import type { MerchantResponse, UpdateMerchantRequest } from './schemas.ts';

/** The switches whose null restores their default, on. */
const DEFAULT_ON_SWITCHES = new Set(['totpAllowed', 'allowUserDisableTotp', 'passkeysAllowed']);

/** How often a change lost to a concurrent one is tried again (on a fresh read) before 409 CONFLICT. */
const UPDATE_ATTEMPTS = 5;

/** MerchantResponse: the merchant's own fields, named one by one (nothing else of the item leaks). */
export function toMerchantResponse(merchant: Merchant & { adminUserId: string }): MerchantResponse {
  return {
    id: merchant.id,
    name: merchant.name,
    app: merchant.app,
    mid: merchant.mid,
    publicApiKey: merchant.publicApiKey,
    subdomain: merchant.subdomain,
    logoUrl: merchant.logoUrl,
    primaryColor: merchant.primaryColor,
    secondaryColor: merchant.secondaryColor,
    darkPrimaryColor: merchant.darkPrimaryColor,
    darkSecondaryColor: merchant.darkSecondaryColor,
    privacyPolicyUrl: merchant.privacyPolicyUrl,
    termsUrl: merchant.termsUrl,
    defaultLanguage: merchant.defaultLanguage,
    loginMode: merchant.loginMode,
    signupMode: merchant.signupMode,
    totpAllowed: merchant.totpAllowed,
    allowUserDisableTotp: merchant.allowUserDisableTotp,
    passkeysAllowed: merchant.passkeysAllowed,
    signInProviders: merchant.signInProviders,
    adminUserId: merchant.adminUserId,
    allowedOrigins: merchant.allowedOrigins ?? [],
    createdAt: merchant.createdAt,
    updatedAt: merchant.updatedAt,
  };
}

/**
 * The caller's own merchant, or 404 NOT_FOUND for any other id: whether
 * another tenant's merchant exists is never told.
 */
export function ownMerchant(tenant: Merchant, id: string): Merchant {
  if (id !== tenant.id) throw fail('NOT_FOUND');
  return tenant;
}

/**
 * The merchant as answered: a tenant stored before `adminUserId` was kept
 * gets it found and recorded now, once (every field of an answer is present).
 */
async function answered(deps: Deps, merchant: Merchant): Promise<MerchantResponse> {
  const adminUserId = merchant.adminUserId ?? (await merchantRepo(deps.store).recordFirstAdmin(merchant));
  // A tenant always has a SUPER_ADMIN (the last one cannot be removed), so this is found.
  if (adminUserId === null) throw new Error('tenant without an admin');
  return toMerchantResponse({ ...merchant, adminUserId });
}

/** GET /merchants/me: the tenant as the tenant stage read it (strongly consistent, this request). */
export function getMyMerchant(deps: Deps, tenant: Merchant): Promise<MerchantResponse> {
  return answered(deps, tenant);
}

/**
 * PATCH /merchants/{id}: the fields given, and the ORIGIN index with
 * `allowedOrigins`, in one transaction. Admins' requests read the merchant
 * afresh (consistent read in the tenant stage); users' requests within
 * TENANT_CACHE_SECONDS (store/tenant-cache.ts). An empty body changes nothing
 * and answers the merchant.
 */
export async function updateMerchant(
  deps: Deps,
  tenant: Merchant,
  id: string,
  body: UpdateMerchantRequest,
): Promise<MerchantResponse> {
  let seen = ownMerchant(tenant, id);
  const changes: MerchantChanges = Object.fromEntries(
    Object.entries(body)
      .filter(([, value]) => value !== undefined)
      // The switches' null is their default, allowed: stored and answered as true.
      .map(([field, value]) => [field, value === null && DEFAULT_ON_SWITCHES.has(field) ? true : value]),
  ) as MerchantChanges;
  if (changes.allowedOrigins) changes.allowedOrigins = [...new Set(changes.allowedOrigins)];
  if (Object.keys(changes).length === 0) return answered(deps, seen);

  const repo = merchantSettingsRepo(deps.store);
  for (let attempt = 1; ; attempt++) {
    const updatedAt = nextUpdatedAt(deps.clock.now(), seen.updatedAt);
    if ((await repo.update(seen, changes, updatedAt)) === 'UPDATED') {
      return answered(deps, { ...seen, ...changes, updatedAt });
    }
    // Another change landed since `seen` was read: apply ours over the fresh state.
    const fresh = await merchantRepo(deps.store).get(seen);
    if (!fresh) throw fail('NOT_FOUND');
    if (attempt >= UPDATE_ATTEMPTS) throw fail('CONFLICT', 'the merchant is being changed concurrently; try again');
    seen = fresh;
  }
}
