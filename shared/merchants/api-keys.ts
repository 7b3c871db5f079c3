import { isApiKeyId, newApiKey } from '../auth/api-keys.ts';
import type { Principal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { actorIdOf } from '../roles/authority.ts';
import { requireRecentAuthentication } from '../sessions/recent-authentication.ts';
import { apiKeyRepo } from '../store/api-key-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import type { ApiKeyResponse, GenerateApiKeyResponse } from './schemas.ts';
import { ownMerchant } from './service.ts';

/**
 * Admin API keys of the caller's merchant. Any admin (user of ADMIN or
 * SUPER_ADMIN, or an API key) may list and revoke any key of the tenant; only
 * a user makes keys. A key acts with its creator's standing (the lesser of
 * ADMIN and the creator's current authority, shared/auth/api-keys.ts). A key
 * may revoke itself (it is refused from the next request on).
 */

/** GET /merchants/{id}/api-keys: never the key, its secret or its hash. */
export async function listApiKeys(deps: Deps, tenant: Merchant, id: string): Promise<ApiKeyResponse[]> {
  ownMerchant(tenant, id);
  const stored = await apiKeyRepo(deps.store).list(tenant);
  return stored.map((key) => ({
    keyId: key.keyId,
    keyPrefix: key.keyPrefix,
    label: key.label,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    // Whose standing the key rides on: an owner can see whose keys to revoke.
    createdBy: key.createdBy,
  }));
}

/** POST /merchants/{id}/api-keys: the whole key is in this answer only; the store keeps a hash of its secret. */
export async function createApiKey(
  deps: Deps,
  tenant: Merchant,
  principal: Principal,
  id: string,
  body: { label: string },
): Promise<GenerateApiKeyResponse> {
  ownMerchant(tenant, id);
  // Keys cannot make keys: a leaked key must not be able to plant others that outlive its revocation.
  if (principal.kind !== 'user') throw fail('FORBIDDEN', 'API keys cannot create API keys');
  // A key outlives the session that made it: a stolen admin access token must not mint a lasting credential.
  requireRecentAuthentication(deps, principal);
  const { keyId, key, secretHash, keyPrefix } = newApiKey(deps.random);
  const createdAt = deps.clock.now().toISOString();
  await apiKeyRepo(deps.store).create(tenant, {
    keyId,
    keyPrefix,
    label: body.label,
    secretHash,
    createdAt,
    lastUsedAt: null,
    revokedAt: null,
    createdBy: actorIdOf(principal),
  });
  return { keyId, apiKey: key, keyPrefix, label: body.label, createdAt };
}

/** DELETE /merchants/{id}/api-keys/{keyId}: deleted, so the next request with it is 401; unknown → 404. */
export async function revokeApiKey(deps: Deps, tenant: Merchant, id: string, keyId: string): Promise<void> {
  ownMerchant(tenant, id);
  if (!isApiKeyId(keyId) || !(await apiKeyRepo(deps.store).delete(tenant, keyId))) throw fail('NOT_FOUND');
}
