import { activityItem } from '../activity/record.ts';
import type { Principal, UserPrincipal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { ClientInfo } from '../http/request-state.ts';
import { actorIdOf, assertMayActOnUser } from '../roles/authority.ts';
import { requireRecentAuthentication, requireRecentSession } from '../sessions/recent-authentication.ts';
import { type Passkey, passkeyRepo } from '../store/passkey-repo.ts';
import { transact } from '../store/transact.ts';
import type { Merchant } from '../tenancy/types.ts';
import { targetUser } from '../users/lookup.ts';
import type { PasskeyResponse } from './schemas.ts';

/** A passkey as the API shows it: never its key or credential id. */
export function toPasskeyResponse(passkey: Passkey): PasskeyResponse {
  return {
    id: passkey.id,
    name: passkey.name,
    createdAt: passkey.createdAt,
    lastUsedAt: passkey.lastUsedAt,
    deviceType: passkey.deviceType,
    backedUp: passkey.backedUp,
  };
}

/** GET /users/me/passkeys: the caller's passkeys, oldest first (listed even while the tenant has them off). */
export async function listMyPasskeys(deps: Deps, tenant: Merchant, principal: UserPrincipal) {
  return (await passkeyRepo(deps.store).list(tenant, principal.userId)).map(toPasskeyResponse);
}

/** PATCH /users/me/passkeys/{passkeyId}: a new name (a change to a passkey: recent authentication). */
export async function renameMyPasskey(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  passkeyId: string,
  name: string,
): Promise<PasskeyResponse> {
  requireRecentAuthentication(deps, principal);
  const repo = passkeyRepo(deps.store);
  if (!(await repo.rename(tenant, principal.userId, passkeyId, name))) throw fail('NOT_FOUND');
  const passkey = await repo.get(tenant, principal.userId, passkeyId);
  if (!passkey) throw fail('NOT_FOUND');
  return toPasskeyResponse(passkey);
}

/**
 * DELETE /users/me/passkeys/{passkeyId}: the passkey stops signing in at once (its item goes; sign-in reads it).
 * Recent authentication: a stolen session must not remove the owner's way back in. Removing the last passkey is
 * allowed: every account keeps the tenant's other ways to sign in (password or e-mail code).
 */
export async function removeMyPasskey(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  passkeyId: string,
  client: ClientInfo,
): Promise<void> {
  requireRecentAuthentication(deps, principal);
  await removePasskey(deps, tenant, principal.userId, passkeyId, { ...client, actorId: principal.userId });
}

/** GET /users/{id}/passkeys: an admin's view of a user's passkeys. */
export async function listUserPasskeys(deps: Deps, tenant: Merchant, userId: string) {
  const user = await targetUser(deps, tenant, userId);
  return (await passkeyRepo(deps.store).list(tenant, user.id)).map(toPasskeyResponse);
}

/** DELETE /users/{id}/passkeys/{passkeyId}: an admin removes a user's passkey (a lost phone), recorded as the admin's. */
export async function removeUserPasskey(
  deps: Deps,
  tenant: Merchant,
  principal: Principal,
  userId: string,
  passkeyId: string,
  client: ClientInfo,
): Promise<void> {
  const user = await targetUser(deps, tenant, userId);
  // As with a user's TOTP: only a user of lower authority, and never oneself through the admin route.
  assertMayActOnUser(principal, user, deps.clock.now());
  requireRecentSession(deps, principal);
  await removePasskey(deps, tenant, user.id, passkeyId, { ...client, actorId: actorIdOf(principal) });
}

async function removePasskey(
  deps: Deps,
  tenant: Merchant,
  userId: string,
  passkeyId: string,
  context: Pick<ClientInfo, 'ip' | 'userAgent'> & { actorId: string },
): Promise<void> {
  const items = passkeyRepo(deps.store).removeItems(tenant, userId, passkeyId);
  const failed = await transact(deps.store, {
    ...items,
    activity: activityItem(deps, tenant, userId, 'PASSKEY_REMOVED', context),
  });
  if (failed.size > 0) throw fail('NOT_FOUND');
}
