import type { UserPrincipal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { userRepo } from '../store/user-repo.ts';
import type { Merchant } from '../tenancy/types.ts';
import { currentUser } from '../users/lookup.ts';
import { toUserResponse } from '../users/view.ts';

/** GET /users/me */
export async function getMe(deps: Deps, tenant: Merchant, principal: UserPrincipal) {
  return toUserResponse(await currentUser(deps, tenant, principal), deps.clock.now());
}

/** PATCH /users/me: names and phone only (the schema refuses anything else). */
export async function updateMe(
  deps: Deps,
  tenant: Merchant,
  principal: UserPrincipal,
  body: { firstName?: string; lastName?: string; phone?: string | null },
) {
  const updated = await userRepo(deps.store).update(tenant, principal.userId, body);
  if (!updated) throw fail('SESSION_REVOKED');
  return toUserResponse(updated, deps.clock.now());
}
